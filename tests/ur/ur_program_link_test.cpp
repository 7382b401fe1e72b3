// urProgramCompile and urProgramLink (and their device-list forms) through UR's loader: objects, dynamic linking of
// an import to its export, and failed links whose returned program holds a log naming every unresolved symbol.
#include "ur_program_fixture.hpp"

namespace zeal_ur_test {
namespace {

class ProgramLinkTest : public UrPrograms {
protected:
  // Links `objects`; the program UR hands back (also on failure) is released with the others.
  ur_result_t link(std::vector<ur_program_handle_t> objects, ur_program_handle_t &out) {
    out = nullptr;
    ur_result_t r = urProgramLink(context, static_cast<uint32_t>(objects.size()), objects.data(), nullptr, &out);
    keep(out);
    return r;
  }
};

TEST_F(ProgramLinkTest, CompiledObjectsLinkAndTheImportIsResolvedByTheExport) {
  ur_program_handle_t app = compiled("link_app.spv");
  ur_program_handle_t lib = compiled("link_lib.spv");
  EXPECT_EQ(UR_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
            info_value<ur_program_binary_type_t>(build_info(app, UR_PROGRAM_BUILD_INFO_BINARY_TYPE)));
  EXPECT_EQ(UR_PROGRAM_BUILD_STATUS_SUCCESS, info_value<ur_program_build_status_t>(build_info(app, UR_PROGRAM_BUILD_INFO_STATUS)));
  EXPECT_GT(info_value<size_t>(program_info(app, UR_PROGRAM_INFO_BINARY_SIZES)), 0u) << "an object has its binary";
  ur_program_handle_t exe = nullptr;
  ASSERT_EQ(UR_RESULT_SUCCESS, link({app, lib}, exe)) << error();
  EXPECT_EQ(UR_PROGRAM_BINARY_TYPE_EXECUTABLE,
            info_value<ur_program_binary_type_t>(build_info(exe, UR_PROGRAM_BUILD_INFO_BINARY_TYPE)));
  EXPECT_EQ("app_kernel;lib_kernel", info_string(program_info(exe, UR_PROGRAM_INFO_KERNEL_NAMES)));
  EXPECT_EQ(2u, info_value<size_t>(program_info(exe, UR_PROGRAM_INFO_NUM_KERNELS)));
  EXPECT_NE(nullptr, kernel(exe, "app_kernel"));
  void *fn = nullptr;
  UR_EXPECT_OK(urProgramGetFunctionPointer(device, exe, "add_offset", &fn)) << error();
  // A dynamic link has a module per object: no single binary or module to hand out, and the sentence says so.
  size_t size = 0;
  EXPECT_EQ(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, urProgramGetInfo(exe, UR_PROGRAM_INFO_BINARY_SIZES, 0, nullptr, &size));
  EXPECT_NE(std::string::npos, error().find("is a dynamic link of 2 modules")) << error();
}

TEST_F(ProgramLinkTest, TheDeviceListFormsTakeTheProgramsDevice) {
  ur_program_handle_t app = with_il("link_app.spv");
  ur_program_handle_t lib = with_il("link_lib.spv");
  UR_ASSERT_OK(urProgramCompileExp(app, 1, &device, 0, nullptr)) << error();
  UR_ASSERT_OK(urProgramCompileExp(lib, 1, &device, UR_EXP_PROGRAM_FLAG_ALLOW_UNRESOLVED_SYMBOLS, nullptr)) << error();
  const ur_program_handle_t objects[] = {app, lib};
  ur_program_handle_t exe = nullptr;
  UR_ASSERT_OK(urProgramLinkExp(context, 1, &device, 0, 2, objects, "", &exe)) << error();
  keep(exe);
  EXPECT_EQ("app_kernel;lib_kernel", info_string(program_info(exe, UR_PROGRAM_INFO_KERNEL_NAMES)));
  ur_program_handle_t other = with_il("vector_add.spv");
  UR_ASSERT_OK(urProgramBuildExp(other, 1, &device, 0, "-ze-opt-disable")) << error();
  EXPECT_EQ("-ze-opt-disable", info_string(build_info(other, UR_PROGRAM_BUILD_INFO_OPTIONS)));
  ur_program_handle_t more = with_il("vector_add.spv");
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION, urProgramBuildExp(more, 1, &device, 0x10, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urProgramBuildExp(more, 1, nullptr, 0, nullptr));
  ur_device_handle_t twice[] = {device, device};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_DEVICE, urProgramLinkExp(context, 2, twice, 0, 2, objects, nullptr, &exe));
  EXPECT_EQ("urProgramLinkExp: device '" + device_name(device) + "' is listed twice", error());
}

TEST_F(ProgramLinkTest, GivenUnresolvedImports_ThenLinkFailsAndTheReturnedProgramsLogNamesEveryOne) {
  ur_program_handle_t importer = compiled("link_two_imports.spv");
  ur_program_handle_t failed = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_PROGRAM_LINK_FAILURE, link({importer}, failed));
  EXPECT_NE(std::string::npos, error().find("imports 'add_offset', which none of the 1 programs being linked exports"))
      << error();
  ASSERT_NE(nullptr, failed) << "UR hands back a program holding the log";
  const std::string log = info_string(build_info(failed, UR_PROGRAM_BUILD_INFO_LOG));
  EXPECT_NE(std::string::npos, log.find("imports 'add_offset', which none of the 1 programs")) << log;
  EXPECT_NE(std::string::npos, log.find("imports 'twice', which none of the 1 programs")) << log;
  EXPECT_EQ(UR_PROGRAM_BUILD_STATUS_ERROR, info_value<ur_program_build_status_t>(build_info(failed, UR_PROGRAM_BUILD_INFO_STATUS)));
  EXPECT_EQ(UR_PROGRAM_BINARY_TYPE_NONE,
            info_value<ur_program_binary_type_t>(build_info(failed, UR_PROGRAM_BUILD_INFO_BINARY_TYPE)));
  // With the exporter of one, the other alone is named.
  ur_program_handle_t lib = compiled("link_lib.spv");
  ur_program_handle_t again = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_PROGRAM_LINK_FAILURE, link({importer, lib}, again));
  ASSERT_NE(nullptr, again);
  const std::string second = info_string(build_info(again, UR_PROGRAM_BUILD_INFO_LOG));
  EXPECT_NE(std::string::npos, second.find("imports 'twice', which none of the 2 programs")) << second;
  EXPECT_EQ(std::string::npos, second.find("'add_offset'")) << second;
}

TEST_F(ProgramLinkTest, LinkInputsAreChecked) {
  ur_program_handle_t input = with_il("link_lib.spv");
  ur_program_handle_t out = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE, link({input}, out));
  EXPECT_NE(std::string::npos, error().find("is not an object: compile it first")) << error();
  EXPECT_EQ(nullptr, out);
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, urProgramLink(context, 0, &input, nullptr, &out));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urProgramLink(context, 1, nullptr, nullptr, &out));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urProgramLink(context, 1, &input, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urProgramLink(nullptr, 1, &input, nullptr, &out));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urProgramCompile(context, nullptr, nullptr));
}

} // namespace
} // namespace zeal_ur_test
