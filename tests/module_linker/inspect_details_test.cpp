// inspect_spirv's details: execution modes, typed linkage, spec constants, built-ins, features, validation.
#include "test_support.hpp"

#include "common/settings.hpp"

namespace ml = zeal::module_linker;
using ml::test::fixture_words;
using ml::test::inspect_words;

TEST(InspectDetails, GivenLocalSizeHintAndSubgroupsPerWorkgroup_ThenEntryPointReportsThem) {
  ml::ModuleInfo info = inspect_words(fixture_words("inspect_extras.spv"));
  const ml::EntryPoint *ep = info.find_entry_point("hinted");
  ASSERT_NE(ep, nullptr);
  EXPECT_EQ(ep->local_size_hint, (std::array<uint32_t, 3>{8, 4, 1}));
  EXPECT_EQ(ep->sub_groups_per_work_group, 4u);
  EXPECT_EQ(ep->required_work_group_size, (std::array<uint32_t, 3>{0, 0, 0}));
}

TEST(InspectDetails, GivenExportedAndImportedFunctionsAndVariables_ThenTheirTypesArePrintable) {
  ml::ModuleInfo info = inspect_words(fixture_words("inspect_extras.spv"));
  const ml::Symbol *scale = info.find_export("scale");
  ASSERT_NE(scale, nullptr);
  EXPECT_EQ(scale->kind, ml::SymbolKind::Function);
  EXPECT_EQ(scale->type, "float(float, i32 addrspace(1)*)");
  const ml::Symbol *counter = info.find_export("counter");
  ASSERT_NE(counter, nullptr);
  EXPECT_EQ(counter->kind, ml::SymbolKind::Variable);
  EXPECT_EQ(counter->type, "i32 addrspace(1)");
  const ml::Symbol *table = info.find_import("table");
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->type, "[4 x float] addrspace(2)");
  EXPECT_EQ(info.imports, std::vector<std::string>{"table"}) << "built-in variables are not imports";
}

TEST(InspectDetails, GivenSpecConstants_ThenIdsTypesAndDefaultsAreListedBySpecId) {
  ml::ModuleInfo info = inspect_words(fixture_words("inspect_extras.spv"));
  ASSERT_EQ(info.spec_constants.size(), 3u);
  EXPECT_EQ(info.spec_constants[0].spec_id, 1u);
  EXPECT_EQ(info.spec_constants[0].type, "i1");
  EXPECT_EQ(info.spec_constants[0].default_value, "true");
  EXPECT_EQ(info.spec_constants[1].spec_id, 3u);
  EXPECT_EQ(info.spec_constants[1].type, "i32");
  EXPECT_EQ(info.spec_constants[1].default_value, "42");
  EXPECT_EQ(info.spec_constants[2].type, "float");
  EXPECT_EQ(info.spec_constants[2].default_value, "1.5");
}

TEST(InspectDetails, GivenBuiltInVariables_ThenBuiltinsUsedAreNamed) {
  ml::ModuleInfo info = inspect_words(fixture_words("inspect_extras.spv"));
  EXPECT_EQ(info.builtins, (std::vector<std::string>{"GlobalInvocationId", "LocalInvocationId"}));
}

TEST(InspectDetails, GivenKernelsUsingDeviceFeatures_ThenEachKernelReportsOnlyWhatItUses) {
  ml::ModuleInfo info = inspect_words(fixture_words("device_mix.spv"));
  EXPECT_EQ(info.find_entry_point("dbl")->features, uint32_t{ml::kFeatureFp64});
  EXPECT_EQ(info.find_entry_point("shuf")->features, uint32_t{ml::kFeatureSubgroupShuffle});
  EXPECT_EQ(info.find_entry_point("at64")->features, uint32_t{ml::kFeatureInt64Atomics});
  EXPECT_EQ(info.find_entry_point("add_one")->features, 0u);
  EXPECT_EQ(info.find_entry_point("sg64")->required_sub_group_size, 64u);
  EXPECT_EQ(info.find_entry_point("hinted")->local_size_hint, (std::array<uint32_t, 3>{8, 8, 1}));
}

TEST(InspectDetails, GivenKernelCallingAnImport_ThenReachedImportsAndTypedImportAreReported) {
  ml::ModuleInfo info = inspect_words(fixture_words("call_f.spv"));
  EXPECT_EQ(info.find_entry_point("call_f")->reached_imports, std::vector<std::string>{"f"});
  ASSERT_NE(info.find_import("f"), nullptr);
  EXPECT_EQ(info.find_import("f")->type, "i32(i32)");
}

TEST(InspectDetails, GivenSameSourceCompiledTwice_ThenDefinitionFingerprintsMatch_AndDifferentCodeDiffers) {
  auto hash = [](const char *fixture) {
    ml::ModuleInfo info = inspect_words(fixture_words(fixture));
    const ml::Symbol *f = info.find_export("f");
    EXPECT_NE(f, nullptr) << fixture;
    return f != nullptr ? f->definition_hash : 0;
  };
  EXPECT_EQ(hash("def_f.spv"), hash("def_f_copy.spv"));
  EXPECT_NE(hash("def_f.spv"), hash("def_f_other.spv"));
}

TEST(InspectDetails, GivenModuleThatFailsValidation_WhenCollecting_ThenFindingsAreKeptAndInspectionSucceeds) {
  auto words = fixture_words("invalid_return.spv");
  auto info = ml::inspect_spirv(std::span<const uint32_t>(words), ml::InspectOptions{ml::Validation::Collect});
  ASSERT_TRUE(info.ok());
  ASSERT_FALSE(info->validation_findings.empty());
  EXPECT_NE(info->validation_findings[0].find("OpReturnValue Value"), std::string::npos) << info->validation_findings[0];
  EXPECT_EQ(info->validation_findings[0].rfind("word 12: ", 0), 0u) << info->validation_findings[0];
}

TEST(InspectDetails, GivenModuleThatFailsValidation_WhenStrict_ThenInvalidBinaryListsTheFindings) {
  auto words = fixture_words("invalid_return.spv");
  auto info = ml::inspect_spirv(std::span<const uint32_t>(words), ml::InspectOptions{ml::Validation::Strict});
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.error().code, ZEAL_RESULT_ERROR_INVALID_BINARY);
  EXPECT_NE(info.error().message.find("fails validation (ZEAL_VALIDATE_SPIRV=strict): word 12: OpReturnValue"),
            std::string::npos)
      << info.error().message;
}

TEST(InspectDetails, GivenDefaultSettings_ThenValidationFindingsAreWarningsNotErrors) {
  ASSERT_EQ(zeal::settings().validate_spirv, "warn");
  auto words = fixture_words("invalid_return.spv");
  auto info = ml::inspect_spirv(std::span<const uint32_t>(words));
  ASSERT_TRUE(info.ok());
  EXPECT_FALSE(info->validation_findings.empty());
}

TEST(InspectDetails, GivenValidCompiledModules_ThenValidationIsClean) {
  for (const char *name : {"device_mix.spv", "call_f.spv", "inspect_extras.spv"})
    EXPECT_EQ(ml::validate_spirv(fixture_words(name)), std::vector<std::string>{}) << name;
}
