// Compile, link and build through the C ABI: states, logs that survive failure, symbol checks, both link kinds.
#include "adapter_fixture.hpp"
#include "tests/support/host_access_spirv.hpp"

using namespace zeal_test;

class LinkTest : public AdapterTest {
protected:
  void TearDown() override {
    for (auto p : programs)
      if (p) {
        EXPECT_EQ(d.programRelease(p), ZEAL_RESULT_SUCCESS);
      }
    AdapterTest::TearDown();
  }
  zeal_program_handle_t object(const std::string &file, const char *options = nullptr) {
    zeal_program_handle_t p = create(file);
    programs.push_back(p);
    EXPECT_EQ(d.programCompile(p, options), ZEAL_RESULT_SUCCESS) << last_error();
    EXPECT_EQ(program_state(p), ZEAL_PROGRAM_STATE_OBJECT);
    return p;
  }
  // An object compiled from `file` with one metadata entry key=value.
  zeal_program_handle_t object_with(const char *file, const char *key, const char *value) {
    const zeal_metadata_entry_t e{key, value, std::strlen(value)};
    zeal_program_handle_t p = create(file, {e});
    programs.push_back(p);
    EXPECT_EQ(d.programCompile(p, nullptr), ZEAL_RESULT_SUCCESS) << last_error();
    return p;
  }
  zeal_result_t link(std::vector<zeal_program_handle_t> objects, const char *options, zeal_program_handle_t &out) {
    out = nullptr;
    zeal_result_t r = d.programLink(context, device, static_cast<uint32_t>(objects.size()), objects.data(), options, &out);
    if (out) programs.push_back(out);
    return r;
  }
  // Runs a one-argument kernel over 16 items and returns what it wrote.
  std::vector<int> run(zeal_program_handle_t program, const char *name) {
    zeal_kernel_handle_t k = kernel_of(program, name);
    if (!k) return {};
    int *out = alloc<int>(16);
    const zeal_kernel_arg_t args[] = {usm_arg(0, out)};
    auto launch = launch_1d(16, 0, 1, args);
    EXPECT_EQ(d.enqueueKernelLaunch(queue, k, &launch, 0, nullptr, nullptr), ZEAL_RESULT_SUCCESS) << last_error();
    EXPECT_EQ(d.queueFinish(queue), ZEAL_RESULT_SUCCESS);
    std::vector<int> result(out, out + 16);
    EXPECT_EQ(d.usmFree(context, out), ZEAL_RESULT_SUCCESS);
    EXPECT_EQ(d.kernelRelease(k), ZEAL_RESULT_SUCCESS);
    return result;
  }
  std::vector<zeal_program_handle_t> programs;
};

TEST_F(LinkTest, ObjectsWithoutImportsLinkIntoOneExecutableHoldingAllTheirKernels) {
  auto lib = object("link_lib.spv");
  auto other = object("link_other.spv");
  zeal_program_handle_t exe = nullptr;
  ASSERT_EQ(link({lib, other}, nullptr, exe), ZEAL_RESULT_SUCCESS) << last_error();
  EXPECT_EQ(program_state(exe), ZEAL_PROGRAM_STATE_EXECUTABLE);
  EXPECT_EQ(program_string(exe, ZEAL_PROGRAM_INFO_KERNEL_NAMES), "lib_kernel;other_kernel");
  EXPECT_EQ(run(exe, "other_kernel")[3], 5);
  EXPECT_EQ(run(exe, "lib_kernel")[3], 1003);
  EXPECT_EQ(program_string(exe, ZEAL_PROGRAM_INFO_EXPORTS), "add_offset;lib_counter");
  // The objects serve a second link too: nothing of theirs was dynamically linked.
  zeal_program_handle_t again = nullptr;
  ASSERT_EQ(link({other}, nullptr, again), ZEAL_RESULT_SUCCESS) << last_error();
  EXPECT_EQ(run(again, "other_kernel")[0], 5);
}

TEST_F(LinkTest, StateRulesAreEnforcedWithMessages) {
  zeal_program_handle_t input = create("link_other.spv");
  programs.push_back(input);
  zeal_program_handle_t out = nullptr;
  EXPECT_EQ(link({input}, nullptr, out), ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE);
  EXPECT_NE(last_error().find("is not an object: compile it first"), std::string::npos) << last_error();
  EXPECT_EQ(out, nullptr);
  zeal_kernel_handle_t k = nullptr;
  EXPECT_EQ(d.kernelCreate(input, "other_kernel", &k), ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE);
  EXPECT_NE(last_error().find("is not executable: build it, or link it with others"), std::string::npos);
  ASSERT_EQ(d.programCompile(input, nullptr), ZEAL_RESULT_SUCCESS) << last_error();
  EXPECT_EQ(d.programCompile(input, nullptr), ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE);
  EXPECT_NE(last_error().find("has already been compiled or built"), std::string::npos);
  EXPECT_EQ(d.programBuild(input, nullptr), ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE);
  const uint32_t v = 1;
  EXPECT_EQ(d.programSetSpecConstant(input, 3, sizeof(v), &v), ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE);
  EXPECT_NE(last_error().find("specialization constant 3 of program"), std::string::npos) << last_error();
  EXPECT_EQ(link({input, input}, nullptr, out), ZEAL_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("is given more than once"), std::string::npos);
  EXPECT_EQ(d.programLink(context, device, 0, nullptr, nullptr, &out), ZEAL_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("programLink: no programs to link"), std::string::npos);
  EXPECT_EQ(d.programLink(context, device, 1, &input, nullptr, nullptr), ZEAL_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last_error(), "programLink: the program output pointer is null");
  void *fn = nullptr;
  EXPECT_EQ(d.programGetFunctionPointer(input, "add_offset", &fn), ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE);
}

TEST_F(LinkTest, GivenAnUnresolvedImport_ThenLinkFailureNamesItAndTheLogSurvivesInTheReturnedProgram) {
  auto app = object("link_app.spv");
  EXPECT_EQ(program_string(app, ZEAL_PROGRAM_INFO_IMPORTS), "add_offset");
  zeal_program_handle_t failed = nullptr;
  EXPECT_EQ(link({app}, nullptr, failed), ZEAL_RESULT_ERROR_LINK_FAILURE);
  const std::string expected_tail = "imports 'add_offset', which none of the 1 programs being linked exports";
  EXPECT_NE(last_error().find(expected_tail), std::string::npos) << last_error();
  ASSERT_NE(failed, nullptr);
  EXPECT_EQ(program_state(failed), ZEAL_PROGRAM_STATE_INPUT);
  EXPECT_NE(program_string(failed, ZEAL_PROGRAM_INFO_BUILD_LOG).find(expected_tail), std::string::npos);
  // build = compile + link alone: the same refusal, the program stays an input with the log.
  zeal_program_handle_t alone = create("link_app.spv");
  programs.push_back(alone);
  EXPECT_EQ(d.programBuild(alone, nullptr), ZEAL_RESULT_ERROR_LINK_FAILURE);
  EXPECT_NE(last_error().find("imports add_offset, which nothing it is built with exports"), std::string::npos)
      << last_error();
  EXPECT_EQ(program_state(alone), ZEAL_PROGRAM_STATE_INPUT);
  EXPECT_NE(program_string(alone, ZEAL_PROGRAM_INFO_BUILD_LOG).find("compile it and link it"), std::string::npos);
}

TEST_F(LinkTest, DynamicLinkResolvesTheImportAndASecondLinkGetsAFreshImporter) {
  auto lib = object("link_lib.spv");
  auto app = object("link_app.spv");
  zeal_program_handle_t exe = nullptr;
  ASSERT_EQ(link({app, lib}, nullptr, exe), ZEAL_RESULT_SUCCESS) << last_error();
  EXPECT_EQ(program_string(exe, ZEAL_PROGRAM_INFO_KERNEL_NAMES), "app_kernel;lib_kernel");
  EXPECT_EQ(program_string(exe, ZEAL_PROGRAM_INFO_IMPORTS), "");
  // One native binary per object: the executable says where to find them.
  size_t size = 0;
  EXPECT_EQ(d.programGetInfo(exe, ZEAL_PROGRAM_INFO_NATIVE_BINARY, 0, nullptr, &size),
            ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE);
  EXPECT_NE(last_error().find("is a dynamic link of 2 modules: ask each of its object programs"), std::string::npos);
  EXPECT_EQ(d.programGetInfo(app, ZEAL_PROGRAM_INFO_NATIVE_BINARY, 0, nullptr, &size), ZEAL_RESULT_SUCCESS)
      << last_error();
  EXPECT_GT(size, 0u);
  EXPECT_EQ(run(exe, "app_kernel")[4], 2 * 1004);
  // app's module has had its imports linked: a second link compiles it afresh.
  zeal_program_handle_t second = nullptr;
  ASSERT_EQ(link({lib, app}, nullptr, second), ZEAL_RESULT_SUCCESS) << last_error();
  EXPECT_EQ(run(second, "app_kernel")[5], 2 * 1005);
  EXPECT_EQ(run(exe, "app_kernel")[6], 2 * 1006);
}

TEST_F(LinkTest, StaticLinkBuildsOneModuleFromEveryObject) {
  auto lib = object("link_lib.spv");
  auto app = object("link_app.spv");
  zeal_program_handle_t exe = nullptr;
  ASSERT_EQ(link({app, lib}, ZEAL_LINK_OPTION_STATIC, exe), ZEAL_RESULT_SUCCESS) << last_error();
  size_t size = 0;
  EXPECT_EQ(d.programGetInfo(exe, ZEAL_PROGRAM_INFO_NATIVE_BINARY, 0, nullptr, &size), ZEAL_RESULT_SUCCESS)
      << last_error();
  EXPECT_EQ(run(exe, "app_kernel")[4], 2 * 1004);
  EXPECT_EQ(run(exe, "lib_kernel")[4], 1004);
}

TEST_F(LinkTest, NativeBinaryOfABuiltProgramBuildsAgainAsANativeProgram) {
  zeal_program_handle_t built = build("link_other.spv");
  programs.push_back(built);
  size_t size = 0;
  ASSERT_EQ(d.programGetInfo(built, ZEAL_PROGRAM_INFO_NATIVE_BINARY, 0, nullptr, &size), ZEAL_RESULT_SUCCESS)
      << last_error();
  std::vector<uint8_t> native(size);
  ASSERT_EQ(d.programGetInfo(built, ZEAL_PROGRAM_INFO_NATIVE_BINARY, size, native.data(), nullptr),
            ZEAL_RESULT_SUCCESS);
  zeal_program_desc_t desc{ZEAL_PROGRAM_FORMAT_NATIVE, native.data(), native.size(), 0, nullptr};
  zeal_program_handle_t again = nullptr;
  ASSERT_EQ(d.programCreate(context, device, &desc, &again), ZEAL_RESULT_SUCCESS) << last_error();
  programs.push_back(again);
  ASSERT_EQ(d.programBuild(again, nullptr), ZEAL_RESULT_SUCCESS) << last_error();
  EXPECT_EQ(run(again, "other_kernel")[0], 5);
}

TEST_F(LinkTest, SymbolsOfAnExecutableAreFoundOrNamedWhenMissing) {
  zeal_program_handle_t built = build("link_lib.spv");
  programs.push_back(built);
  void *fn = nullptr;
  ASSERT_EQ(d.programGetFunctionPointer(built, "add_offset", &fn), ZEAL_RESULT_SUCCESS) << last_error();
  EXPECT_NE(fn, nullptr);
  EXPECT_EQ(d.programGetFunctionPointer(built, "no_such_function", &fn), ZEAL_RESULT_ERROR_INVALID_FUNCTION_NAME);
  EXPECT_NE(last_error().find("has no function named 'no_such_function'"), std::string::npos) << last_error();
  void *global = nullptr;
  size_t size = 0;
  ASSERT_EQ(d.programGetGlobalPointer(built, "lib_counter", &size, &global), ZEAL_RESULT_SUCCESS) << last_error();
  EXPECT_EQ(size, sizeof(int));
  int value = 0;
  ASSERT_EQ(d.enqueueMemcpy(queue, &value, global, sizeof(int), 0, nullptr, nullptr), ZEAL_RESULT_SUCCESS);
  ASSERT_EQ(d.queueFinish(queue), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(value, 7);
  EXPECT_EQ(d.programGetGlobalPointer(built, "no_such_global", &size, &global), ZEAL_RESULT_ERROR_INVALID_GLOBAL_NAME);
  EXPECT_NE(last_error().find("has no global variable named 'no_such_global'"), std::string::npos);
  EXPECT_EQ(d.programGetFunctionPointer(built, nullptr, &fn), ZEAL_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last_error(), "programGetFunctionPointer: name or pointer is null");
}

TEST_F(LinkTest, SpecConstantsReachTheModuleAndTheLastValueSetWins) {
  zeal_program_handle_t p = create("spec_constant.spv");
  programs.push_back(p);
  EXPECT_EQ(d.programSetSpecConstant(p, 3, 0, nullptr), ZEAL_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last_error(), "programSetSpecConstant: constant 3 needs a value and a non-zero size");
  const uint32_t first = 5, value = 1234;
  ASSERT_EQ(d.programSetSpecConstant(p, 3, sizeof(first), &first), ZEAL_RESULT_SUCCESS) << last_error();
  ASSERT_EQ(d.programSetSpecConstant(p, 3, sizeof(value), &value), ZEAL_RESULT_SUCCESS) << last_error(); // last wins
  ASSERT_EQ(d.programBuild(p, nullptr), ZEAL_RESULT_SUCCESS) << last_error();
  EXPECT_EQ(run(p, "store_constant")[0], 1234);
  // Per object in a static link too: the default where none was set.
  zeal_program_handle_t set = create("spec_constant.spv");
  programs.push_back(set);
  const uint32_t other = 77;
  ASSERT_EQ(d.programSetSpecConstant(set, 3, sizeof(other), &other), ZEAL_RESULT_SUCCESS);
  ASSERT_EQ(d.programCompile(set, nullptr), ZEAL_RESULT_SUCCESS) << last_error();
  zeal_program_handle_t exe = nullptr;
  ASSERT_EQ(link({set}, ZEAL_LINK_OPTION_STATIC, exe), ZEAL_RESULT_SUCCESS) << last_error();
  EXPECT_EQ(run(exe, "store_constant")[0], 77);
  auto unset = object("spec_constant.spv");
  ASSERT_EQ(link({unset}, nullptr, exe), ZEAL_RESULT_SUCCESS) << last_error();
  EXPECT_EQ(run(exe, "store_constant")[0], 11);
}

TEST_F(LinkTest, GivenMismatchedFunctionPropertiesOrTwoExporters_ThenLinkFailureSaysWhich) {
  auto app = object_with("link_app.spv", "function.add_offset.sub_group_size", "16");
  auto lib = object_with("link_lib.spv", "function.add_offset.sub_group_size", "8");
  zeal_program_handle_t out = nullptr;
  EXPECT_EQ(link({app, lib}, nullptr, out), ZEAL_RESULT_ERROR_LINK_FAILURE);
  EXPECT_NE(last_error().find("calls 'add_offset' with sub-group size 16, but program"), std::string::npos)
      << last_error();
  EXPECT_NE(last_error().find("defines it with sub-group size 8"), std::string::npos) << last_error();
  auto narrow_lib = object_with("link_lib.spv", "function.add_offset.range_type", "int16_t");
  auto wide_app = object_with("link_app.spv", "function.add_offset.range_type", "int");
  EXPECT_EQ(link({wide_app, narrow_lib}, nullptr, out), ZEAL_RESULT_ERROR_LINK_FAILURE);
  EXPECT_NE(last_error().find("calls 'add_offset' with up to 2147483647 work-items, but program"), std::string::npos)
      << last_error();
  auto plain_app = object("link_app.spv");
  auto second_lib = object("link_lib.spv");
  auto first_lib = object("link_lib.spv");
  EXPECT_EQ(link({plain_app, first_lib, second_lib}, nullptr, out), ZEAL_RESULT_ERROR_LINK_FAILURE);
  EXPECT_NE(last_error().find("'add_offset' imported by program"), std::string::npos) << last_error();
  EXPECT_NE(last_error().find("is exported by both"), std::string::npos) << last_error();
  ASSERT_NE(out, nullptr);
  EXPECT_NE(program_string(out, ZEAL_PROGRAM_INFO_BUILD_LOG).find("is exported by both"), std::string::npos);
}

TEST_F(LinkTest, GivenAKernelRequiringSize32_WhenItReachesACalleeOfThePrimarySize_ThenBothLinkKindsRefuseNamingBoth) {
  const auto primary = device_value<uint32_t>(device, ZEAL_DEVICE_INFO_PRIMARY_SUB_GROUP_SIZE);
  ASSERT_NE(primary, 32u);
  auto app = object("link_app_sg32.spv");
  auto lib = object("link_lib.spv");
  const std::string expected = "kernel 'app_sg32_kernel' of program with kernel 'app_sg32_kernel' for device '" +
                               device_name + "' runs with sub-group size 32 (required) and calls 'add_offset', but "
                               "function 'add_offset' of program with kernel 'lib_kernel' for device '" + device_name +
                               "' was compiled for sub-group size " + std::to_string(primary) +
                               " (the device's primary size)";
  for (const char *options : {static_cast<const char *>(nullptr), ZEAL_LINK_OPTION_STATIC}) {
    zeal_program_handle_t out = nullptr;
    EXPECT_EQ(link({app, lib}, options, out), ZEAL_RESULT_ERROR_LINK_FAILURE) << (options ? options : "dynamic");
    EXPECT_EQ(last_error(), expected);
    ASSERT_NE(out, nullptr);
    EXPECT_EQ(program_string(out, ZEAL_PROGRAM_INFO_BUILD_LOG), "zeal: " + expected);
  }
}

TEST_F(LinkTest, GivenACalleeDeclaredForTheKernelsSize_ThenItLinks_AndAnImporterDeclaringAnotherSizeIsRefused) {
  auto lib32 = object_with("link_lib.spv", "function.add_offset.sub_group_size", "32");
  auto app = object("link_app_sg32.spv");
  zeal_program_handle_t exe = nullptr;
  ASSERT_EQ(link({app, lib32}, nullptr, exe), ZEAL_RESULT_SUCCESS) << last_error();
  EXPECT_EQ(run(exe, "app_sg32_kernel")[4], 2 * 1004);
  // What an importer declares holds against a definition that declares nothing: the primary size.
  auto declaring_app = object_with("link_app.spv", "function.add_offset.sub_group_size", "32");
  auto lib = object("link_lib.spv");
  EXPECT_EQ(link({declaring_app, lib}, nullptr, exe), ZEAL_RESULT_ERROR_LINK_FAILURE);
  EXPECT_NE(last_error().find("calls 'add_offset' with sub-group size 32, but program with kernel 'lib_kernel' for "
                              "device '" + device_name + "' defines it with sub-group size " +
                              std::to_string(device_value<uint32_t>(device, ZEAL_DEVICE_INFO_PRIMARY_SUB_GROUP_SIZE)) +
                              " (the device's primary size)"),
            std::string::npos)
      << last_error();
}

TEST_F(LinkTest, GivenACompileFailure_ThenTheProgramStaysAnInputAndKeepsTheLog) {
  const std::vector<uint8_t> junk(256, 0xAB);
  zeal_program_desc_t desc{ZEAL_PROGRAM_FORMAT_NATIVE, junk.data(), junk.size(), 0, nullptr};
  zeal_program_handle_t p = nullptr;
  ASSERT_EQ(d.programCreate(context, device, &desc, &p), ZEAL_RESULT_SUCCESS) << last_error();
  programs.push_back(p);
  zeal_result_t r = d.programCompile(p, nullptr);
  EXPECT_TRUE(r == ZEAL_RESULT_ERROR_BUILD_FAILURE || r == ZEAL_RESULT_ERROR_INVALID_BINARY) << zealResultName(r);
  EXPECT_EQ(last_error().rfind("building native program of 256 bytes for device '" + device_name + "' failed: ", 0),
            0u)
      << last_error();
  EXPECT_EQ(program_state(p), ZEAL_PROGRAM_STATE_INPUT);
  EXPECT_FALSE(program_string(p, ZEAL_PROGRAM_INFO_BUILD_LOG).empty());
  const uint32_t v = 1;
  EXPECT_EQ(d.programSetSpecConstant(p, 1, sizeof(v), &v), ZEAL_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("is a native binary: specialization constants need SPIR-V"), std::string::npos);
  void *ptr = nullptr;
  EXPECT_EQ(d.programGetGlobalPointer(p, nullptr, nullptr, &ptr), ZEAL_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last_error(), "programGetGlobalPointer: name or pointer is null");
  EXPECT_EQ(d.programCompile(nullptr, nullptr), ZEAL_RESULT_ERROR_INVALID_HANDLE);
  EXPECT_EQ(last_error(), "the program handle is null");
}

TEST_F(LinkTest, DeviceGlobalsAreReachedByTheirHostAccessNames) {
  const std::vector<uint8_t> spirv = zeal::test::with_host_access(read_kernel("host_access.spv"));
  zeal_program_desc_t desc{ZEAL_PROGRAM_FORMAT_SPIRV, spirv.data(), spirv.size(), 0, nullptr};
  zeal_program_handle_t p = nullptr;
  ASSERT_EQ(d.programCreate(context, device, &desc, &p), ZEAL_RESULT_SUCCESS) << last_error();
  programs.push_back(p);
  ASSERT_EQ(d.programBuild(p, nullptr), ZEAL_RESULT_SUCCESS) << last_error();
  void *counter = nullptr;
  size_t size = 0;
  ASSERT_EQ(d.programGetGlobalPointer(p, "counter_host_name", &size, &counter), ZEAL_RESULT_SUCCESS) << last_error();
  EXPECT_EQ(size, sizeof(uint32_t));
  EXPECT_EQ(*static_cast<uint32_t *>(counter), 5u);
  *static_cast<uint32_t *>(counter) = 20;
  EXPECT_EQ(run(p, "read_host_variables")[3], 20 + 100 + 3);
  EXPECT_EQ(d.programGetGlobalPointer(p, "counter", &size, &counter), ZEAL_RESULT_ERROR_INVALID_GLOBAL_NAME);
}

// A kernel reaching a library's exported function that reaches a call the driver cannot make is refused by the
// link, with the driver's sentence naming the chain; the other kernels of the program run.
TEST_F(LinkTest, GivenAKernelReachingALibraryExportTheDriverCannotRun_ThenItIsRefusedNamingTheChain) {
  auto user = object("trapping_user.spv");
  auto lib = object("trapping_library.spv");
  zeal_program_handle_t exe = nullptr;
  ASSERT_EQ(link({user, lib}, nullptr, exe), ZEAL_RESULT_SUCCESS) << last_error();
  zeal_kernel_handle_t k = nullptr;
  EXPECT_EQ(d.kernelCreate(exe, "uses_warm_up", &k), ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE);
  EXPECT_EQ(k, nullptr);
  EXPECT_NE(last_error().find("kernel 'uses_warm_up' of program with kernels"), std::string::npos) << last_error();
  EXPECT_NE(last_error().find("cannot run: kernel 'uses_warm_up' calls 'warm_up' of module 1 (no kernels), which "
                              "this driver cannot run: exported function 'warm_up' calls 'prefetch("),
            std::string::npos)
      << last_error();
  std::vector<int> want(16);
  for (int i = 0; i < 16; ++i) want[i] = i + 2;
  EXPECT_EQ(run(exe, "uses_add_two"), want);
}
