// urProgram* through UR's loader: creation from IL and native binaries, build, info and build info, symbols,
// specialization constants, and the UR codes (with sentences) for bad input.
#include "ur_program_fixture.hpp"

namespace zeal_ur_test {
namespace {

using ProgramTest = UrPrograms;

TEST_F(ProgramTest, ABuiltProgramDescribesItselfAndItsBuild) {
  ur_program_handle_t p = with_il("vector_add.spv");
  ASSERT_NE(nullptr, p);
  EXPECT_EQ(UR_PROGRAM_BUILD_STATUS_NONE, info_value<ur_program_build_status_t>(build_info(p, UR_PROGRAM_BUILD_INFO_STATUS)));
  EXPECT_EQ(UR_PROGRAM_BINARY_TYPE_NONE, info_value<ur_program_binary_type_t>(build_info(p, UR_PROGRAM_BUILD_INFO_BINARY_TYPE)));
  EXPECT_EQ(0u, info_value<size_t>(program_info(p, UR_PROGRAM_INFO_BINARY_SIZES))) << "no binary before a build";
  size_t size = 0;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE, urProgramGetInfo(p, UR_PROGRAM_INFO_KERNEL_NAMES, 0, nullptr, &size));
  EXPECT_NE(std::string::npos, error().find("has not been built")) << error();
  UR_ASSERT_OK(urProgramBuild(context, p, "-ze-opt-level=1"));
  EXPECT_EQ(UR_PROGRAM_BUILD_STATUS_SUCCESS, info_value<ur_program_build_status_t>(build_info(p, UR_PROGRAM_BUILD_INFO_STATUS)));
  EXPECT_EQ(UR_PROGRAM_BINARY_TYPE_EXECUTABLE,
            info_value<ur_program_binary_type_t>(build_info(p, UR_PROGRAM_BUILD_INFO_BINARY_TYPE)));
  EXPECT_EQ("-ze-opt-level=1", info_string(build_info(p, UR_PROGRAM_BUILD_INFO_OPTIONS)));
  EXPECT_EQ(3u, info_value<size_t>(program_info(p, UR_PROGRAM_INFO_NUM_KERNELS)));
  EXPECT_EQ("vector_add;scale;fixed_group", info_string(program_info(p, UR_PROGRAM_INFO_KERNEL_NAMES)));
  EXPECT_EQ(context, info_value<ur_context_handle_t>(program_info(p, UR_PROGRAM_INFO_CONTEXT)));
  EXPECT_EQ(1u, info_value<uint32_t>(program_info(p, UR_PROGRAM_INFO_NUM_DEVICES)));
  EXPECT_EQ(device, info_value<ur_device_handle_t>(program_info(p, UR_PROGRAM_INFO_DEVICES)));
  EXPECT_EQ(kernel_file("vector_add.spv"), info_bytes(program_info(p, UR_PROGRAM_INFO_IL)));
  EXPECT_EQ(1u, info_value<uint32_t>(program_info(p, UR_PROGRAM_INFO_REFERENCE_COUNT)));
  UR_ASSERT_OK(urProgramRetain(p));
  EXPECT_EQ(2u, info_value<uint32_t>(program_info(p, UR_PROGRAM_INFO_REFERENCE_COUNT)));
  UR_ASSERT_OK(urProgramRelease(p));
  ASSERT_TRUE(has_native_handle(urProgramGetNativeHandle, p)) << "the Level Zero module";
}

// The facts both faces report are the zeal ABI's answers, byte for byte.
TEST_F(ProgramTest, KernelNamesAndTheLogAreTheZealAbisAnswers) {
  ur_program_handle_t p = built("sub_groups.spv");
  ZealAbi zeal;
  ASSERT_NO_FATAL_FAILURE(zeal.open(device_name(device)));
  zeal_context_handle_t zc = nullptr;
  ASSERT_EQ(ZEAL_RESULT_SUCCESS, zeal.d.contextCreate(1, &zeal.device, &zc));
  const std::vector<uint8_t> spirv = kernel_file("sub_groups.spv");
  const zeal_program_desc_t desc{ZEAL_PROGRAM_FORMAT_SPIRV, spirv.data(), spirv.size(), 0, nullptr};
  zeal_program_handle_t zp = nullptr;
  ASSERT_EQ(ZEAL_RESULT_SUCCESS, zeal.d.programCreate(zc, zeal.device, &desc, &zp));
  ASSERT_EQ(ZEAL_RESULT_SUCCESS, zeal.d.programBuild(zp, nullptr));
  auto zeal_info = [&](zeal_program_info_t key) {
    return info_bytes([&](size_t size, void *value, size_t *ret) { return zeal.d.programGetInfo(zp, key, size, value, ret); });
  };
  EXPECT_EQ(zeal_info(ZEAL_PROGRAM_INFO_KERNEL_NAMES), info_bytes(program_info(p, UR_PROGRAM_INFO_KERNEL_NAMES)));
  EXPECT_EQ(zeal_info(ZEAL_PROGRAM_INFO_BUILD_LOG), info_bytes(build_info(p, UR_PROGRAM_BUILD_INFO_LOG)));
  EXPECT_EQ(ZEAL_RESULT_SUCCESS, zeal.d.programRelease(zp));
  EXPECT_EQ(ZEAL_RESULT_SUCCESS, zeal.d.contextRelease(zc));
  zeal.close();
}

// The persistent-cache round trip a SYCL runtime makes: binaries out of a built program, a program from them.
TEST_F(ProgramTest, TheBinariesOfABuiltProgramMakeAProgramThatBuildsAgain) {
  ur_program_handle_t p = built("vector_add.spv");
  const size_t size = info_value<size_t>(program_info(p, UR_PROGRAM_INFO_BINARY_SIZES));
  ASSERT_GT(size, 0u);
  std::vector<uint8_t> binary(size);
  uint8_t *buffers[] = {binary.data()};
  size_t written = 0;
  UR_ASSERT_OK(urProgramGetInfo(p, UR_PROGRAM_INFO_BINARIES, sizeof(buffers), buffers, &written));
  EXPECT_EQ(sizeof(uint8_t *), written);
  size_t lengths[] = {size};
  const uint8_t *binaries[] = {binary.data()};
  ur_program_handle_t again = nullptr;
  UR_ASSERT_OK(urProgramCreateWithBinary(context, 1, &device, lengths, binaries, nullptr, &again)) << error();
  keep(again);
  EXPECT_EQ(size, info_value<size_t>(program_info(again, UR_PROGRAM_INFO_BINARY_SIZES))) << "the binary it holds";
  EXPECT_TRUE(info_bytes(program_info(again, UR_PROGRAM_INFO_IL)).empty()) << "created from a native binary";
  UR_ASSERT_OK(urProgramBuild(context, again, nullptr)) << error();
  EXPECT_EQ("vector_add;scale;fixed_group", info_string(program_info(again, UR_PROGRAM_INFO_KERNEL_NAMES)));
  EXPECT_NE(nullptr, kernel(again, "scale"));
}

TEST_F(ProgramTest, GivenMalformedIl_ThenCreationIsAnInvalidBinaryNamingTheDevice) {
  const uint32_t not_spirv[] = {0x12345678, 1, 2, 3, 4, 5};
  ur_program_handle_t p = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_BINARY, urProgramCreateWithIL(context, not_spirv, sizeof(not_spirv), nullptr, &p));
  EXPECT_EQ(nullptr, p);
  EXPECT_NE(std::string::npos, error().find("the program for device '" + device_name(device) + "' is not valid SPIR-V"))
      << error();
}

TEST_F(ProgramTest, GivenAnImportNothingExports_ThenBuildFailsAndKeepsItsLogAndStatus) {
  ur_program_handle_t p = with_il("link_app.spv");
  EXPECT_EQ(UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE, urProgramBuild(context, p, "-g"));
  EXPECT_NE(std::string::npos, error().find("imports add_offset, which nothing it is built with exports")) << error();
  EXPECT_EQ(UR_PROGRAM_BUILD_STATUS_ERROR, info_value<ur_program_build_status_t>(build_info(p, UR_PROGRAM_BUILD_INFO_STATUS)));
  EXPECT_NE(std::string::npos, info_string(build_info(p, UR_PROGRAM_BUILD_INFO_LOG)).find("compile it and link it"));
  EXPECT_EQ(UR_PROGRAM_BINARY_TYPE_NONE, info_value<ur_program_binary_type_t>(build_info(p, UR_PROGRAM_BUILD_INFO_BINARY_TYPE)));
}

TEST_F(ProgramTest, FunctionAndGlobalVariablePointersAreFoundOrNamedWhenMissing) {
  ur_program_handle_t p = built("link_lib.spv");
  void *fn = nullptr;
  UR_ASSERT_OK(urProgramGetFunctionPointer(device, p, "add_offset", &fn)) << error();
  EXPECT_NE(nullptr, fn);
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_KERNEL_NAME, urProgramGetFunctionPointer(device, p, "no_such_function", &fn));
  EXPECT_NE(std::string::npos, error().find("has no function named 'no_such_function'")) << error();
  // A kernel is found but has no address.
  EXPECT_EQ(UR_RESULT_ERROR_FUNCTION_ADDRESS_NOT_AVAILABLE, urProgramGetFunctionPointer(device, p, "lib_kernel", &fn));
  EXPECT_NE(std::string::npos, error().find("'lib_kernel' is a kernel of the program")) << error();
  void *global = nullptr;
  size_t size = 0;
  UR_ASSERT_OK(urProgramGetGlobalVariablePointer(device, p, "lib_counter", &size, &global)) << error();
  EXPECT_EQ(sizeof(int), size);
  ASSERT_NE(nullptr, global);
  EXPECT_EQ(7, *static_cast<int *>(global)) << "the CPU device's globals are host memory";
  UR_ASSERT_OK(urProgramGetGlobalVariablePointer(device, p, "lib_counter", nullptr, &global)) << "size is optional";
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE, urProgramGetGlobalVariablePointer(device, p, "no_such_global", &size, &global));
  EXPECT_NE(std::string::npos, error().find("has no global variable named 'no_such_global'")) << error();
  ur_program_handle_t input = with_il("link_lib.spv");
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE, urProgramGetFunctionPointer(device, input, "add_offset", &fn));
  EXPECT_NE(std::string::npos, error().find("is not executable")) << error();
}

TEST_F(ProgramTest, SpecializationConstantsAreCheckedThenSetBeforeTheBuild) {
  ur_program_handle_t p = with_il("spec_constant.spv");
  const uint32_t value = 1234;
  const ur_specialization_constant_info_t no_value{3, sizeof(value), nullptr};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE, urProgramSetSpecializationConstants(p, 1, &no_value));
  EXPECT_EQ("urProgramSetSpecializationConstants: constant 3 needs a value and a non-zero size", error());
  const ur_specialization_constant_info_t constants[] = {{3, sizeof(value), &value}, {3, 0, &value}};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE, urProgramSetSpecializationConstants(p, 2, constants));
  // The module declares constant 3, a 32-bit integer, and nothing else.
  const ur_specialization_constant_info_t unknown{999, sizeof(value), &value};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SPEC_ID, urProgramSetSpecializationConstants(p, 1, &unknown));
  EXPECT_NE(std::string::npos, error().find("declares no specialization constant 999")) << error();
  const uint64_t wide = 5;
  const ur_specialization_constant_info_t too_wide{3, sizeof(wide), &wide};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE, urProgramSetSpecializationConstants(p, 1, &too_wide));
  EXPECT_NE(std::string::npos, error().find("is i32 (4 bytes), not 8 bytes")) << error();
  UR_ASSERT_OK(urProgramSetSpecializationConstants(p, 1, constants)) << error();
  UR_ASSERT_OK(urProgramBuild(context, p, nullptr)) << error();
  EXPECT_NE(nullptr, kernel(p, "store_constant"));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE, urProgramSetSpecializationConstants(p, 1, constants));
  EXPECT_NE(std::string::npos, error().find("specialization constant 3 of program")) << error();
  EXPECT_NE(std::string::npos, error().find("must be set before compile or build")) << error();
}

// A device listed twice is one device of the context (as in OpenCL), and its programs are for that one device.
TEST_F(ProgramTest, GivenADeviceListedTwice_ThenTheContextAndItsProgramsHaveItOnce) {
  ur_device_handle_t twice[] = {device, device};
  ur_context_handle_t two = nullptr;
  UR_ASSERT_OK(urContextCreate(2, twice, nullptr, &two));
  EXPECT_EQ(1u, info_value<uint32_t>([&](size_t size, void *value, size_t *ret) {
              return urContextGetInfo(two, UR_CONTEXT_INFO_NUM_DEVICES, size, value, ret);
            }));
  const std::vector<uint8_t> il = kernel_file("vector_add.spv");
  ur_program_handle_t p = nullptr;
  UR_ASSERT_OK(urProgramCreateWithIL(two, il.data(), il.size(), nullptr, &p)) << error();
  EXPECT_EQ(1u, info_value<uint32_t>(program_info(p, UR_PROGRAM_INFO_NUM_DEVICES)));
  EXPECT_EQ(device, info_value<ur_device_handle_t>(program_info(p, UR_PROGRAM_INFO_DEVICES)));
  UR_EXPECT_OK(urProgramRelease(p));
  UR_EXPECT_OK(urContextRelease(two));
}

// Bad input gets the code UR's spec lists, with or without UR's validation layer in front (which answers some of
// these itself, so only the codes are checked here).
TEST_F(ProgramTest, BadInputGetsTheSpecsCodes) {
  const std::vector<uint8_t> il = kernel_file("vector_add.spv");
  ur_program_handle_t p = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urProgramCreateWithIL(nullptr, il.data(), il.size(), nullptr, &p));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urProgramCreateWithIL(context, nullptr, il.size(), nullptr, &p));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urProgramCreateWithIL(context, il.data(), il.size(), nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, urProgramCreateWithIL(context, il.data(), 0, nullptr, &p));
  ur_program_properties_t properties{UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, nullptr, 2, nullptr};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urProgramCreateWithIL(context, il.data(), il.size(), &properties, &p));
  size_t length = il.size();
  const uint8_t *binary = il.data();
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, urProgramCreateWithBinary(context, 0, &device, &length, &binary, nullptr, &p));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER,
            urProgramCreateWithBinary(context, 1, nullptr, &length, &binary, nullptr, &p));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urProgramBuild(context, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urProgramRetain(nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urProgramRelease(nullptr));
  ur_program_handle_t built_one = built("vector_add.spv");
  size_t size = 0;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION,
            urProgramGetInfo(built_one, unknown_key<ur_program_info_t>(), 0, nullptr, &size));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION,
            urProgramGetBuildInfo(built_one, device, unknown_key<ur_program_build_info_t>(), 0, nullptr, &size));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER,
            urProgramGetInfo(built_one, UR_PROGRAM_INFO_KERNEL_NAMES, 0, nullptr, nullptr));
  char small[4];
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE,
            urProgramGetInfo(built_one, UR_PROGRAM_INFO_KERNEL_NAMES, sizeof(small), small, nullptr));
  uint8_t *no_room = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, urProgramGetInfo(built_one, UR_PROGRAM_INFO_BINARIES, 1, &no_room, nullptr));
  void *fn = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urProgramGetFunctionPointer(device, built_one, nullptr, &fn));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urProgramGetFunctionPointer(nullptr, built_one, "f", &fn));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urProgramGetNativeHandle(built_one, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urProgramSetSpecializationConstants(built_one, 1, nullptr));
}

// A handle of another kind is refused by the face itself (the validation layer does not know the kinds).
TEST_F(ProgramTest, GivenAContextWhereAProgramBelongs_ThenItIsAnInvalidProgramNamingTheHandle) {
  auto as_program = reinterpret_cast<ur_program_handle_t>(context);
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_PROGRAM, urProgramBuild(context, as_program, nullptr));
  EXPECT_NE(std::string::npos, error().find("is not a live zeal program")) << error();
}

} // namespace
} // namespace zeal_ur_test
