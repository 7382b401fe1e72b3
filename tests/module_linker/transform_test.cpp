// strip, split and merge: results inspected and validated with spirv-val; broken input rejected cleanly.
#include "test_support.hpp"

#include "module_linker/spirv_transform.hpp"

#include <spirv-tools/libspirv.hpp>

#include <random>

namespace ml = zeal::module_linker;
using ml::test::fixture_words;
using ml::test::inspect_words;

namespace {

// spirv-val through SPIRV-Tools' C++ API, as the issue asks, with the messages on failure.
::testing::AssertionResult valid(const std::vector<uint32_t> &words) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_4);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char *, const spv_position_t &, const char *m) {
    messages += std::string(m) + "\n";
  });
  if (tools.Validate(words)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << messages;
}

std::vector<std::string> kernel_names(const ml::ModuleInfo &info) {
  std::vector<std::string> names;
  for (const ml::EntryPoint &ep : info.entry_points) names.push_back(ep.name);
  return names;
}

} // namespace

TEST(Strip, GivenDg2_ThenFp64AndSize64KernelsAreRemoved_AndTheRestStaysValid) {
  auto words = fixture_words("device_mix.spv");
  ASSERT_TRUE(valid(words));
  auto stripped = ml::strip_unsupported_kernels(words, *ml::find_device_profile("dg2"));
  ASSERT_TRUE(stripped.ok()) << stripped.error().message;
  EXPECT_EQ(stripped->removed,
            (std::vector<std::string>{"dbl: uses fp64 (Float64), which device 'dg2' does not support",
                                      "sg64: requires sub-group size 64, which device 'dg2' does not support (sizes: "
                                      "8, 16, 32)"}));
  EXPECT_TRUE(valid(stripped->words));
  ml::ModuleInfo info = inspect_words(stripped->words);
  EXPECT_EQ(kernel_names(info), (std::vector<std::string>{"shuf", "at64", "add_one", "hinted"}));
  EXPECT_EQ(info.find_export("dbl"), nullptr) << "the body llvm-spirv exports under the kernel's name goes too";
  for (const ml::EntryPoint &ep : info.entry_points) EXPECT_EQ(ep.features & ml::kFeatureFp64, 0u) << ep.name;
  EXPECT_FALSE(info.has_capability(uint32_t(ml::spv::Capability::Float64))) << "no double is left";
  EXPECT_TRUE(info.has_capability(uint32_t(ml::spv::Capability::Int64Atomics))) << "at64 still needs it";
}

TEST(Strip, GivenDeviceThatRunsEverything_ThenTheModuleIsUnchanged) {
  auto words = fixture_words("device_mix.spv");
  auto stripped = ml::strip_unsupported_kernels(words, *ml::find_device_profile("host"));
  ASSERT_TRUE(stripped.ok());
  EXPECT_TRUE(stripped->removed.empty());
  EXPECT_EQ(stripped->words, words);
}

TEST(Strip, GivenNothingLeft_ThenResultIsEmpty) {
  ml::DeviceProfile none{"none", {1}, 1, 0};
  auto words = fixture_words("attributes.spv");
  auto stripped = ml::strip_unsupported_kernels(words, none);
  ASSERT_TRUE(stripped.ok());
  EXPECT_EQ(stripped->removed.size(), 1u) << "sub_group_16 needs size 16";
  EXPECT_FALSE(stripped->words.empty()) << "plain and work_group_8x4x2 remain";
}

TEST(Split, GivenPerKernel_ThenEachPartHoldsOneKernelAndWhatItCalls_AllValid) {
  auto parts = ml::split_per_kernel(fixture_words("linkage.spv"));
  ASSERT_TRUE(parts.ok()) << parts.error().message;
  ASSERT_EQ(parts->size(), 2u);
  EXPECT_EQ((*parts)[0].name, "uses_helpers");
  EXPECT_EQ((*parts)[1].name, ml::kExportsPart);
  for (const ml::ModulePart &part : parts.value()) EXPECT_TRUE(valid(part.words)) << part.name;
  ml::ModuleInfo kernel = inspect_words((*parts)[0].words);
  EXPECT_EQ(kernel_names(kernel), std::vector<std::string>{"uses_helpers"});
  EXPECT_TRUE(kernel.exports.empty()) << "a per-kernel part exports nothing";
  EXPECT_EQ(kernel.imports, std::vector<std::string>{"imported_helper"});
  ml::ModuleInfo exports = inspect_words((*parts)[1].words);
  EXPECT_TRUE(exports.entry_points.empty());
  EXPECT_EQ(exports.exports, std::vector<std::string>{"exported_helper"});
  EXPECT_TRUE(exports.imports.empty()) << "exported_helper imports nothing";
}

TEST(Split, GivenModuleOfKernelsOnly_ThenNoExportsPart) {
  auto parts = ml::split_per_kernel(fixture_words("device_mix.spv"));
  ASSERT_TRUE(parts.ok());
  ASSERT_EQ(parts->size(), 6u);
  for (const ml::ModulePart &part : parts.value()) {
    EXPECT_TRUE(valid(part.words)) << part.name;
    ml::ModuleInfo info = inspect_words(part.words);
    EXPECT_EQ(kernel_names(info), std::vector<std::string>{part.name});
    bool fp64 = info.has_capability(uint32_t(ml::spv::Capability::Float64));
    bool shuffle = info.has_capability(uint32_t(ml::spv::Capability::SubgroupShuffleINTEL));
    EXPECT_EQ(fp64, part.name == "dbl") << part.name << ": only the fp64 kernel's part declares Float64";
    EXPECT_EQ(shuffle, part.name == "shuf") << part.name;
  }
}

TEST(Merge, GivenCallerAndProvider_ThenOneModuleWithTheImportResolved) {
  std::vector<std::vector<uint32_t>> modules = {fixture_words("call_f.spv"), fixture_words("def_f.spv")};
  auto merged = ml::merge_modules(modules);
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_TRUE(valid(merged.value()));
  ml::ModuleInfo info = inspect_words(merged.value());
  EXPECT_TRUE(info.imports.empty());
  EXPECT_EQ(kernel_names(info), std::vector<std::string>{"call_f"});
  EXPECT_NE(info.find_export("f"), nullptr);
}

TEST(Merge, GivenDuplicateDefinitions_ThenLinkFailureCarriesTheLinkersMessage) {
  std::vector<std::vector<uint32_t>> modules = {fixture_words("def_f.spv"), fixture_words("def_f_other.spv")};
  auto merged = ml::merge_modules(modules);
  ASSERT_FALSE(merged.ok());
  EXPECT_EQ(merged.error().code, ZEAL_RESULT_ERROR_LINK_FAILURE);
  EXPECT_NE(merged.error().message.find("static link of 2 modules failed: "), std::string::npos) << merged.error().message;
  EXPECT_NE(merged.error().message.find("f"), std::string::npos);
}

// The SPIR-V translator knows a built-in variable by its name, which a second copy cannot keep.
TEST(Merge, GivenTwoModulesReadingOneBuiltIn_ThenTheMergeDeclaresItOnce_AndBothKernelsUseIt) {
  std::vector<std::vector<uint32_t>> modules = {fixture_words("call_f.spv"), fixture_words("call_f_sg32.spv"),
                                                fixture_words("def_f.spv")};
  auto merged = ml::merge_modules(modules);
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_TRUE(valid(merged.value()));
  constexpr uint32_t op_decorate = 71, built_in = 11, global_invocation_id = 28;
  int declared = 0;
  for (size_t at = 5; at < merged->size(); at += (*merged)[at] >> 16) {
    const uint32_t *inst = merged->data() + at;
    if ((inst[0] & 0xffff) == op_decorate && inst[2] == built_in && inst[3] == global_invocation_id) ++declared;
  }
  EXPECT_EQ(declared, 1);
  EXPECT_EQ(kernel_names(inspect_words(merged.value())), (std::vector<std::string>{"call_f", "call_f_sg32"}));
}

TEST(SplitModes, GivenTwoSources_ThenPerSourceKeepsThem_OffMergesThem_PerKernelSplitsTheMerge) {
  std::vector<ml::ModulePart> sources = {{"call_f", fixture_words("call_f.spv")}, {"def_f", fixture_words("def_f.spv")}};
  auto per_source = ml::apply_split_mode(sources, *ml::parse_split_mode("per_source"));
  ASSERT_TRUE(per_source.ok());
  EXPECT_EQ(per_source->size(), 2u);
  auto off = ml::apply_split_mode(sources, *ml::parse_split_mode("off"));
  ASSERT_TRUE(off.ok());
  ASSERT_EQ(off->size(), 1u);
  EXPECT_EQ((*off)[0].name, "merged");
  auto per_kernel = ml::apply_split_mode(sources, *ml::parse_split_mode("per_kernel"));
  ASSERT_TRUE(per_kernel.ok());
  ASSERT_EQ(per_kernel->size(), 2u) << "call_f, and the exports part holding f";
  ml::ModuleInfo kernel = inspect_words((*per_kernel)[0].words);
  EXPECT_TRUE(kernel.imports.empty()) << "f was linked in before the split";
  EXPECT_TRUE(valid((*per_kernel)[0].words));
  EXPECT_FALSE(ml::parse_split_mode("sideways").has_value());
}

TEST(Transforms, GivenTruncatedOrRandomInput_ThenEveryTransformRejectsItCleanly) {
  auto words = fixture_words("device_mix.spv");
  std::mt19937 rng(99);
  for (int round = 0; round < 40; ++round) {
    std::vector<uint32_t> broken(words.begin(), words.begin() + static_cast<long>(rng() % words.size()));
    if (round % 2 == 1)
      for (size_t i = 5; i < broken.size(); ++i)
        if (rng() % 8 == 0) broken[i] = rng();
    auto info = ml::inspect_spirv(std::span<const uint32_t>(broken), ml::InspectOptions{ml::Validation::Off});
    if (info.ok()) continue; // a cut between instructions can still be a module
    EXPECT_EQ(info.error().code, ZEAL_RESULT_ERROR_INVALID_BINARY);
    auto stripped = ml::strip_unsupported_kernels(broken, *ml::find_device_profile("dg2"));
    ASSERT_FALSE(stripped.ok());
    EXPECT_EQ(stripped.error().code, ZEAL_RESULT_ERROR_INVALID_BINARY);
    auto parts = ml::split_per_kernel(broken);
    ASSERT_FALSE(parts.ok());
    EXPECT_NE(parts.error().message.find("(at word "), std::string::npos) << parts.error().message;
  }
}

TEST(Transforms, GivenHugeIdBoundInHeader_ThenInspectionDoesNotAllocateForIt) {
  auto words = fixture_words("call_f.spv");
  words[3] = 0xfffffff0u;
  auto info = ml::inspect_spirv(std::span<const uint32_t>(words), ml::InspectOptions{ml::Validation::Off});
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->find_import("f")->type, "i32(i32)");
}
