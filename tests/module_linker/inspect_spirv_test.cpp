// inspect_spirv on compiled OpenCL C and assembled SPIR-V, and its refusals of broken input.
#include "module_linker/module_info.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace ml = zeal::module_linker;

namespace {

std::vector<uint8_t> read_fixture(const std::string &name) {
  std::ifstream in(std::string(ZEAL_TEST_KERNEL_DIR) + "/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing fixture " << name;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

ml::ModuleInfo inspect_fixture(const std::string &name) {
  auto bytes = read_fixture(name);
  auto info = ml::inspect_spirv(std::span<const uint8_t>(bytes));
  EXPECT_TRUE(info.ok()) << (info.ok() ? "" : info.error().message);
  return info.ok() ? std::move(info).value() : ml::ModuleInfo{};
}

bool contains(const std::vector<std::string> &v, const std::string &s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

} // namespace

TEST(InspectSpirv, GivenOpenClKernels_ThenHeaderModelsAndEntryPointsAreReported) {
  ml::ModuleInfo info = inspect_fixture("attributes.spv");
  EXPECT_EQ(info.version_major, 1u);
  EXPECT_EQ(ml::addressing_model_name(info.addressing_model), "Physical64");
  EXPECT_EQ(ml::memory_model_name(info.memory_model), "OpenCL");
  EXPECT_TRUE(info.has_capability(6)) << "Kernel capability";
  ASSERT_NE(info.find_entry_point("plain"), nullptr);
  EXPECT_EQ(ml::execution_model_name(info.find_entry_point("plain")->execution_model), "Kernel");
  EXPECT_FALSE(info.find_entry_point("plain")->required_sub_group_size.has_value());
}

TEST(InspectSpirv, GivenIntelReqdSubGroupSize_ThenEntryPointHasSubgroupSizeMode) {
  ml::ModuleInfo info = inspect_fixture("attributes.spv");
  const ml::EntryPoint *ep = info.find_entry_point("sub_group_16");
  ASSERT_NE(ep, nullptr);
  ASSERT_TRUE(ep->required_sub_group_size.has_value());
  EXPECT_EQ(*ep->required_sub_group_size, 16u);
  bool listed = std::any_of(ep->modes.begin(), ep->modes.end(),
                            [](auto &m) { return ml::execution_mode_name(m.mode) == "SubgroupSize"; });
  EXPECT_TRUE(listed);
}

TEST(InspectSpirv, GivenReqdWorkGroupSize_ThenEntryPointHasLocalSize) {
  ml::ModuleInfo info = inspect_fixture("attributes.spv");
  const ml::EntryPoint *ep = info.find_entry_point("work_group_8x4x2");
  ASSERT_NE(ep, nullptr);
  EXPECT_EQ(ep->required_work_group_size, (std::array<uint32_t, 3>{8, 4, 2}));
  EXPECT_EQ(info.find_entry_point("plain")->required_work_group_size, (std::array<uint32_t, 3>{0, 0, 0}));
}

TEST(InspectSpirv, GivenOpenClWithExternalFunctions_ThenImportsAndExportsAreListedWithoutBuiltins) {
  ml::ModuleInfo info = inspect_fixture("linkage.spv");
  EXPECT_TRUE(contains(info.imports, "imported_helper"));
  EXPECT_TRUE(contains(info.exports, "exported_helper"));
  for (const std::string &name : info.imports) EXPECT_EQ(name.rfind("__spirv_", 0), std::string::npos) << name;
  EXPECT_EQ(info.imports.size(), 1u);
}

TEST(InspectSpirv, GivenBuiltinVariableAndDriverProvidedFunctionImports_ThenOnlyRealImportIsListed) {
  ml::ModuleInfo info = inspect_fixture("builtin_imports.spv");
  EXPECT_EQ(info.imports, std::vector<std::string>{"real_import"});
  EXPECT_EQ(info.exports, std::vector<std::string>{"exported_fn"});
  EXPECT_EQ(info.version_minor, 2u);
  ASSERT_NE(info.find_entry_point("k"), nullptr);
  EXPECT_EQ(info.find_entry_point("k")->required_work_group_size, (std::array<uint32_t, 3>{64, 1, 1}));
}

TEST(InspectSpirv, GivenSizeNotMultipleOfFour_ThenInvalidBinaryNamesTheSize) {
  std::vector<uint8_t> bytes = read_fixture("attributes.spv");
  bytes.resize(bytes.size() - 1);
  auto info = ml::inspect_spirv(std::span<const uint8_t>(bytes));
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.error().code, ZEAL_RESULT_ERROR_INVALID_BINARY);
  EXPECT_NE(info.error().message.find("not a multiple of 4"), std::string::npos) << info.error().message;
}

TEST(InspectSpirv, GivenBadMagic_ThenInvalidBinarySaysItIsNotSpirv) {
  std::vector<uint8_t> bytes = {'\x7f', 'E', 'L', 'F', 0, 0, 0, 0};
  auto info = ml::inspect_spirv(std::span<const uint8_t>(bytes));
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.error().code, ZEAL_RESULT_ERROR_INVALID_BINARY);
  EXPECT_NE(info.error().message.find("not SPIR-V"), std::string::npos) << info.error().message;
  EXPECT_NE(info.error().message.find("magic number 0x07230203"), std::string::npos) << info.error().message;
  EXPECT_FALSE(ml::looks_like_spirv(bytes));
}

TEST(InspectSpirv, GivenEmptyInput_ThenInvalidBinarySaysEmpty) {
  auto info = ml::inspect_spirv(std::span<const uint8_t>());
  ASSERT_FALSE(info.ok());
  EXPECT_NE(info.error().message.find("empty"), std::string::npos);
}

TEST(InspectSpirv, GivenTruncatedModule_ThenParserMessageAndWordOffsetAreReported) {
  std::vector<uint8_t> bytes = read_fixture("attributes.spv");
  ASSERT_TRUE(ml::looks_like_spirv(bytes));
  bytes.resize((bytes.size() / 2) & ~size_t{3});
  auto info = ml::inspect_spirv(std::span<const uint8_t>(bytes));
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.error().code, ZEAL_RESULT_ERROR_INVALID_BINARY);
  EXPECT_NE(info.error().message.find("does not parse"), std::string::npos) << info.error().message;
  EXPECT_NE(info.error().message.find("(at word "), std::string::npos) << info.error().message;
}

TEST(InspectSpirv, GivenRandomWordsAfterValidHeader_ThenRejectedWithoutCrash) {
  std::mt19937 rng(1234);
  for (int round = 0; round < 50; ++round) {
    std::vector<uint32_t> words = {ml::spv::kMagic, 0x00010200, 0, 100, 0};
    for (int i = 0; i < 64; ++i) words.push_back(rng());
    auto info = ml::inspect_spirv(std::span<const uint32_t>(words));
    ASSERT_FALSE(info.ok()) << "round " << round;
    EXPECT_EQ(info.error().code, ZEAL_RESULT_ERROR_INVALID_BINARY);
    EXPECT_NE(info.error().message.find("(at word "), std::string::npos) << info.error().message;
  }
}
