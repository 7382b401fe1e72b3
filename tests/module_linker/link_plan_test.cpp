// plan_link and the link rules: resolution across modules and one fixture per diagnostic, each checked by its message.
#include "test_support.hpp"

#include "module_linker/link_rules.hpp"

#include <algorithm>

namespace ml = zeal::module_linker;
using ml::test::input;

namespace {

const ml::DeviceProfile &profile(const char *name) { return *ml::find_device_profile(name); }

ml::LinkPlan plan(const std::vector<ml::ModuleInput> &inputs, const char *device = "host",
                  std::vector<std::string> roots = {}) {
  return ml::plan_link(inputs, roots, profile(device));
}

// The one diagnostic of the code; fails the test when there is not exactly one.
std::string only(const ml::LinkPlan &p, ml::DiagnosticCode code) {
  std::vector<std::string> found;
  for (const ml::Diagnostic &d : p.diagnostics)
    if (d.code == code) found.push_back(d.message);
  EXPECT_EQ(found.size(), 1u) << "diagnostics:\n" << ml::describe(p, {});
  return found.empty() ? "" : found.front();
}

ml::ImageMetadata library(const std::string &name) {
  ml::ImageMetadata m;
  m.library = name;
  return m;
}

} // namespace

TEST(PlanLink, GivenImportAndProvider_ThenProviderJoinsThePlanAndResolutionIsRecorded) {
  std::vector<ml::ModuleInput> in = {input("call_f.spv"), input("def_f.spv"), input("linkage.spv")};
  ml::LinkPlan p = plan(in, "host", {"call_f"});
  ASSERT_TRUE(p.ok()) << ml::describe(p, in);
  EXPECT_EQ(p.modules, (std::vector<size_t>{0, 1})) << "linkage.spv is not needed";
  ASSERT_EQ(p.resolutions.size(), 1u);
  EXPECT_EQ(p.resolutions[0].symbol, "f");
  EXPECT_EQ(p.resolutions[0].importer, 0u);
  EXPECT_EQ(p.resolutions[0].provider, 1u);
}

TEST(PlanLink, GivenModuleRootName_ThenItsImportsAreFollowedTransitively) {
  // c imports f (from call_f's point of view, def_f provides it); the root is named by module.
  std::vector<ml::ModuleInput> in = {input("def_f.spv"), input("call_f.spv")};
  ml::LinkPlan p = plan(in, "host", {"call_f.spv"});
  ASSERT_TRUE(p.ok()) << ml::describe(p, in);
  EXPECT_EQ(p.modules, (std::vector<size_t>{1, 0}));
}

TEST(PlanLink, GivenNoProvider_ThenUnresolvedImportNamesSymbolTypeModuleAndLibrary) {
  std::vector<ml::ModuleInput> in = {input("call_f.spv", library("libapp.so"))};
  ml::LinkPlan p = plan(in);
  EXPECT_EQ(only(p, ml::DiagnosticCode::UnresolvedImport),
            "module 'call_f.spv' (libapp.so) imports 'f' (i32(i32)), which no module exports");
}

TEST(PlanLink, GivenTwoDifferentDefinitions_ThenDuplicateSymbolNamesBothModulesAndLibraries) {
  std::vector<ml::ModuleInput> in = {input("call_f.spv"), input("def_f.spv", library("liba.so")),
                                     input("def_f_other.spv", library("libb.so"))};
  ml::LinkPlan p = plan(in, "host", {"call_f"});
  EXPECT_EQ(only(p, ml::DiagnosticCode::DuplicateSymbol),
            "symbol 'f' is exported with different definitions by module 'def_f.spv' (liba.so) as 'i32(i32)' and "
            "module 'def_f_other.spv' (libb.so) as 'i32(i32)'");
}

TEST(PlanLink, GivenTwoIdenticalDefinitions_ThenTheyAreOneSymbolWithANote) {
  std::vector<ml::ModuleInput> in = {input("call_f.spv"), input("def_f.spv"), input("def_f_copy.spv")};
  ml::LinkPlan p = plan(in, "host", {"call_f"});
  ASSERT_TRUE(p.ok()) << ml::describe(p, in);
  EXPECT_EQ(p.modules.size(), 2u);
  ASSERT_EQ(p.notes.size(), 1u);
  EXPECT_NE(p.notes[0].find("'f' is defined identically by module 'def_f.spv'"), std::string::npos) << p.notes[0];
}

TEST(PlanLink, GivenOneExportAndOneLinkOnceOdrDefinition_ThenTheExportWinsByThePreferenceRule) {
  std::vector<ml::ModuleInput> in = {input("call_f.spv"), input("def_f_other.spv"), input("def_f.spv")};
  // Mark def_f_other's f LinkOnceODR (compilers emit it for inline functions; OpenCL C cannot).
  in[1].info.exported_symbols[0].link_once_odr = true;
  ml::LinkPlan p = plan(in, "host", {"call_f"});
  ASSERT_TRUE(p.ok()) << ml::describe(p, in);
  ASSERT_EQ(p.resolutions.size(), 1u);
  EXPECT_EQ(p.resolutions[0].provider, 2u);
}

TEST(PlanLink, GivenDifferentSignatures_ThenTypeMismatchNamesBothTypes) {
  std::vector<ml::ModuleInput> in = {input("call_f.spv"), input("def_f_float.spv", library("libf.so"))};
  ml::LinkPlan p = plan(in);
  EXPECT_EQ(only(p, ml::DiagnosticCode::TypeMismatch),
            "module 'call_f.spv' imports function 'f' as 'i32(i32)', but module 'def_f_float.spv' (libf.so) exports "
            "it as function 'float(float)'");
}

TEST(PlanLink, GivenKernelRequiringSize32CallingFunctionCompiledForPrimary_ThenSubGroupMismatchNamesBothSizes) {
  std::vector<ml::ModuleInput> in = {input("call_f_sg32.spv"), input("def_f.spv")};
  ml::LinkPlan p = plan(in, "pvc");
  EXPECT_EQ(only(p, ml::DiagnosticCode::SubGroupSizeMismatch),
            "kernel 'call_f_sg32' of module 'call_f_sg32.spv' runs with sub-group size 32 (required) and calls 'f', "
            "but function 'f' of module 'def_f.spv' was compiled for sub-group size 16 (the device's primary size)");
}

TEST(PlanLink, GivenDeclaredCalleeSize_ThenCallerAtPrimarySizeMismatches_AndMatchingDeclarationPasses) {
  ml::ImageMetadata meta;
  meta.function_entry("f").sub_group_size = 8;
  std::vector<ml::ModuleInput> in = {input("call_f.spv"), input("def_f.spv", meta)};
  EXPECT_EQ(only(plan(in, "dg2"), ml::DiagnosticCode::SubGroupSizeMismatch),
            "kernel 'call_f' of module 'call_f.spv' runs with sub-group size 16 (the device's primary size) and calls "
            "'f', but function 'f' of module 'def_f.spv' was compiled for sub-group size 8 (declared)");
  in[1].metadata.function_entry("f").sub_group_size = 32;
  std::vector<ml::ModuleInput> ok = {input("call_f_sg32.spv"), in[1]};
  EXPECT_TRUE(plan(ok, "dg2").ok()) << ml::describe(plan(ok, "dg2"), ok);
}

TEST(PlanLink, GivenCalleeRangeTypeNarrowerThanCallers_ThenRangeTypeMismatch_AndWiderPasses) {
  ml::ImageMetadata meta;
  meta.function_entry("f").range_type = "int";
  std::vector<ml::ModuleInput> in = {input("call_f.spv"), input("def_f.spv", meta)};
  EXPECT_EQ(only(plan(in), ml::DiagnosticCode::RangeTypeMismatch),
            "kernel 'call_f' of module 'call_f.spv' has range_type size_t (the default) and calls 'f', but function "
            "'f' of module 'def_f.spv' has range_type int, which cannot represent every value of size_t");
  in[0].metadata.kernel_entry("call_f").range_type = "int";
  in[1].metadata.function_entry("f").range_type = "long";
  EXPECT_TRUE(plan(in).ok());
  in[1].metadata.function_entry("f").range_type = "unsigned int";
  EXPECT_EQ(only(plan(in), ml::DiagnosticCode::RangeTypeMismatch).find("cannot represent every value of int") !=
                std::string::npos,
            true);
}

TEST(PlanLink, GivenUnknownRangeType_ThenItIsDiagnosed) {
  ml::ImageMetadata meta;
  meta.function_entry("f").range_type = "float";
  std::vector<ml::ModuleInput> in = {input("call_f.spv"), input("def_f.spv", meta)};
  EXPECT_EQ(only(plan(in), ml::DiagnosticCode::UnknownRangeType),
            "function 'f' of module 'def_f.spv' declares range_type 'float', which is not an integral type zeal knows");
}

TEST(PlanLink, GivenFp64KernelOnDeviceWithoutFp64_ThenUnsupportedKernelPerKernel) {
  std::vector<ml::ModuleInput> in = {input("device_mix.spv")};
  ml::LinkPlan p = plan(in, "dg2");
  std::vector<std::string> messages;
  for (auto &d : p.diagnostics) messages.push_back(d.message);
  EXPECT_EQ(messages, (std::vector<std::string>{
                          "kernel 'dbl' of module 'device_mix.spv' cannot run on device 'dg2': it uses fp64 (Float64), "
                          "which device 'dg2' does not support",
                          "kernel 'sg64' of module 'device_mix.spv' cannot run on device 'dg2': it requires sub-group "
                          "size 64, which device 'dg2' does not support (sizes: 8, 16, 32)"}));
}

TEST(PlanLink, GivenDeviceWithoutInt64AtomicsOrShuffles_ThenThoseKernelsAreReported) {
  ml::DeviceProfile tiny{"tiny", {8}, 8, ml::kFeatureFp64};
  std::vector<ml::ModuleInput> in = {input("device_mix.spv")};
  ml::LinkPlan p = ml::plan_link(in, std::vector<std::string>{"at64", "shuf"}, tiny);
  ASSERT_EQ(p.diagnostics.size(), 2u) << ml::describe(p, in);
  EXPECT_EQ(p.diagnostics[0].message, "kernel 'at64' of module 'device_mix.spv' cannot run on device 'tiny': it uses "
                                      "64-bit atomics (Int64Atomics), which device 'tiny' does not support");
  EXPECT_EQ(p.diagnostics[1].message, "kernel 'shuf' of module 'device_mix.spv' cannot run on device 'tiny': it uses "
                                      "sub-group shuffles (SubgroupShuffleINTEL), which device 'tiny' does not support");
}

TEST(PlanLink, GivenCalleeInAnotherModuleUsingFp64_ThenTheCallingKernelIsReported) {
  std::vector<ml::ModuleInput> in = {input("call_f.spv"), input("def_f_fp64.spv")};
  EXPECT_EQ(only(plan(in, "dg2"), ml::DiagnosticCode::UnsupportedKernel),
            "kernel 'call_f' of module 'call_f.spv' cannot run on device 'dg2': it uses fp64 (Float64), which device "
            "'dg2' does not support");
  EXPECT_TRUE(plan(in, "pvc").ok());
}

TEST(PlanLink, GivenAlreadyLinkedModules_ThenThePlanSaysToRecreateThem) {
  std::vector<ml::ModuleInput> in = {input("call_f.spv"), input("def_f.spv")};
  in[1].already_linked = true;
  ml::LinkPlan p = plan(in);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.recreate, std::vector<size_t>{1});
  EXPECT_NE(ml::describe(p, in).find("recreate def_f.spv: already dynamically linked, create it again from SPIR-V"),
            std::string::npos);
  std::vector<ml::ModuleInput> alone = {input("def_f.spv")};
  alone[0].already_linked = true;
  EXPECT_TRUE(plan(alone).recreate.empty()) << "a module linked with nothing needs no new link";
}

TEST(PlanLink, GivenUnknownRoot_ThenItIsDiagnosed) {
  std::vector<ml::ModuleInput> in = {input("def_f.spv")};
  EXPECT_EQ(only(plan(in, "host", {"nope"}), ml::DiagnosticCode::UnknownRoot),
            "root 'nope' is neither a kernel nor a module of the inputs");
}

TEST(PlanLink, GivenMetadataEntries_ThenTheyParse_AndABadSizeIsRejected) {
  const ml::MetadataEntry entries[] = {
      {"library", "libx.so"},
      {"function.f.sub_group_size", "32"},
      {"function.f.range_type", "int"},
      {"kernel.k.range_type", "long"},
      {"function.name.with.dots.range_type", "short"},
      {"kernels", "k"}};
  auto meta = ml::read_image_metadata(entries, nullptr, 0);
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ(meta->library, "libx.so");
  EXPECT_EQ(meta->function("f")->sub_group_size, 32u);
  EXPECT_EQ(meta->function("f")->range_type, "int");
  EXPECT_EQ(meta->kernel("k")->range_type, "long");
  EXPECT_EQ(meta->function("name.with.dots")->range_type, "short");
  const ml::MetadataEntry bad[] = {{"function.f.sub_group_size", "lots"}};
  auto err = ml::read_image_metadata(bad, nullptr, 0);
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.error().message, "metadata 'function.f.sub_group_size' is 'lots', not a positive sub-group size");
}

// The rules as the runtime's program link applies them (check_object_link), on objects described by hand.
TEST(LinkRules, GivenAKernelWithoutRangeType_WhenItCallsANarrowerCallee_ThenTheOneMissingRangeTypeRuleRefusesIt) {
  ml::ImageMetadata app, lib;
  app.kernels = {"k"};
  app.imports = {"f"};
  lib.exports = {"f"};
  lib.function_entry("f").range_type = "int";
  ml::ModuleInfo app_calls, lib_calls;
  ml::EntryPoint k;
  k.name = "k";
  k.execution_model = static_cast<uint32_t>(ml::spv::ExecutionModel::Kernel);
  k.reached_imports = {"f"};
  app_calls.entry_points.push_back(k);
  ml::Symbol f;
  f.name = "f";
  lib_calls.exported_symbols.push_back(f);
  std::vector<ml::LinkObject> objects = {{{"program A", &app}, &app_calls, {}}, {{"program L", &lib}, &lib_calls, {}}};
  std::vector<ml::Diagnostic> broken = ml::check_object_link(objects, 16);
  ASSERT_EQ(broken.size(), 1u);
  EXPECT_EQ(broken[0].message, "kernel 'k' of program A runs with up to 18446744073709551615 work-items (size_t, the "
                               "default) and calls 'f', but function 'f' of program L is defined for at most 2147483647 "
                               "(range_type)");
  // Where the callee holds more work-items but not the caller's negative values, the words are the types'.
  app.kernel_entry("k").range_type = "int";
  lib.function_entry("f").range_type = "unsigned int";
  broken = ml::check_object_link(objects, 16);
  ASSERT_EQ(broken.size(), 1u);
  EXPECT_EQ(broken[0].message, "kernel 'k' of program A has range_type int and calls 'f', but function 'f' of program L "
                               "has range_type unsigned int, which cannot represent every value of int");
  // A kernel left out of its module runs nothing.
  objects[0].left_out = {"k"};
  EXPECT_TRUE(ml::check_object_link(objects, 16).empty());
}

TEST(RangeType, NamesAndCountsParse_AndACalleeMustRepresentEveryValueOfItsCaller) {
  EXPECT_EQ(ml::parse_range_type("std::int16_t")->min, INT16_MIN);
  EXPECT_EQ(ml::parse_range_type("char")->max, 127u);
  EXPECT_EQ(ml::parse_range_type("65536")->min, 0);
  EXPECT_FALSE(ml::parse_range_type("float"));
  EXPECT_TRUE(ml::represents(*ml::parse_range_type("long"), *ml::parse_range_type("int")));
  EXPECT_FALSE(ml::represents(*ml::parse_range_type("unsigned int"), *ml::parse_range_type("int")));
  EXPECT_FALSE(ml::represents(*ml::parse_range_type("int"), *ml::parse_range_type(ml::kUndeclaredRangeType)));
}
