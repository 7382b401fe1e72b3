// Metadata entries through the C ABI: refused at programCreate when malformed, enforced at launch (range_type).
#include "adapter_fixture.hpp"

using namespace zeal_test;

namespace {
zeal_metadata_entry_t entry(const char *key, const char *value) { return {key, value, std::strlen(value)}; }
} // namespace

TEST_F(AdapterTest, GivenMalformedMetadata_ThenProgramCreateRefusesNamingKeyAndValue) {
  auto spirv = read_kernel("vector_add.spv");
  const zeal_metadata_entry_t bad[] = {entry("kernel.scale.range_type", "huge")};
  zeal_program_desc_t desc{ZEAL_PROGRAM_FORMAT_SPIRV, spirv.data(), spirv.size(), 1, bad};
  zeal_program_handle_t program = nullptr;
  EXPECT_EQ(d.programCreate(context, device, &desc, &program), ZEAL_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last_error(), "programCreate for device '" + device_name +
                              "': metadata entry 'kernel.scale.range_type' has value 'huge', expected a work-item "
                              "count or an integer type name");
  const zeal_metadata_entry_t ghost[] = {entry("kernel.ghost.range_type", "int")};
  desc.metadata = ghost;
  EXPECT_EQ(d.programCreate(context, device, &desc, &program), ZEAL_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last_error(), "programCreate for device '" + device_name +
                              "': metadata gives requirements of kernel 'ghost', which the image does not have");
  const zeal_metadata_entry_t null_key[] = {{nullptr, "x", 1}};
  desc.metadata = null_key;
  EXPECT_EQ(d.programCreate(context, device, &desc, &program), ZEAL_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last_error(), "programCreate: metadata entry 0 has a null key or value");
}

TEST_F(AdapterTest, GivenNameMetadata_ThenMessagesNameTheProgramByIt) {
  zeal_program_handle_t program = build("vector_add.spv", {entry("name", "'vector_add.spv' of /path/app")});
  ASSERT_NE(program, nullptr);
  zeal_kernel_handle_t k = nullptr;
  EXPECT_EQ(d.kernelCreate(program, "nope", &k), ZEAL_RESULT_ERROR_INVALID_KERNEL_NAME);
  EXPECT_EQ(last_error(), "program 'vector_add.spv' of /path/app for device '" + device_name +
                              "' has no kernel named 'nope' (its kernels: vector_add, scale, fixed_group)");
  EXPECT_EQ(d.programBuild(program, nullptr), ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE);
  EXPECT_EQ(last_error(), "program 'vector_add.spv' of /path/app for device '" + device_name +
                              "' has already been compiled or built");
  EXPECT_EQ(d.programRelease(program), ZEAL_RESULT_SUCCESS);
}

TEST_F(AdapterTest, GivenNoNameMetadata_ThenMessagesNameTheProgramByItsKernels) {
  zeal_program_handle_t program = create("vector_add.spv");
  ASSERT_NE(program, nullptr);
  zeal_kernel_handle_t k = nullptr;
  EXPECT_EQ(d.kernelCreate(program, "vector_add", &k), ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE);
  EXPECT_EQ(last_error(), "program with kernels 'vector_add', 'scale', 'fixed_group' for device '" + device_name +
                              "' is not executable: build it, or link it with others");
  EXPECT_EQ(d.programRelease(program), ZEAL_RESULT_SUCCESS);
  program = create("sub_group_2.spv");
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(d.kernelCreate(program, "needs_sub_group_2", &k), ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE);
  EXPECT_EQ(last_error(), "program with kernel 'needs_sub_group_2' for device '" + device_name +
                              "' is not executable: build it, or link it with others");
  EXPECT_EQ(d.programRelease(program), ZEAL_RESULT_SUCCESS);
}

class LaunchEnforcementTest : public AdapterTest {
protected:
  // The program's other kernel, vector_add, runs over `global` items (the requirement is `scale`'s alone); then
  // it, `scale` and their output and program are released.
  void expect_vector_add_runs_then_release(const Scale &s, size_t global) {
    zeal_kernel_handle_t add = kernel_of(s.program, "vector_add");
    const zeal_kernel_arg_t add_args[] = {usm_arg(0, s.out), usm_arg(1, s.out), usm_arg(2, s.out)};
    EXPECT_EQ(run(add, launch_1d(global, 0, 3, add_args)), ZEAL_RESULT_SUCCESS) << last_error();
    EXPECT_EQ(d.kernelRelease(add), ZEAL_RESULT_SUCCESS);
    release_scale(s);
  }
};

TEST_F(LaunchEnforcementTest, GivenRangeTypeLimit_WhenLaunchHasMoreWorkItems_ThenInvalidNdRangeWithTheNumbers) {
  Scale scale;
  ASSERT_NO_FATAL_FAILURE(make_scale(scale, 256, 3, {entry("kernel.scale.range_type", "int8_t")}));
  zeal_kernel_handle_t k = scale.kernel;
  auto over = launch_1d(128, 0, 2, scale.args);
  EXPECT_EQ(d.enqueueKernelLaunch(queue, k, &over, 0, nullptr, nullptr), ZEAL_RESULT_ERROR_INVALID_ND_RANGE);
  EXPECT_EQ(last_error(),
            "kernel 'scale' declares a range_type of at most 127 work-items, but the launch has 128 (global size {128})");
  zeal_launch_desc_t over_2d = launch_1d(64, 0, 2, scale.args);
  over_2d.work_dim = 2;
  over_2d.global_size[1] = 4;
  EXPECT_EQ(d.enqueueKernelLaunch(queue, k, &over_2d, 0, nullptr, nullptr), ZEAL_RESULT_ERROR_INVALID_ND_RANGE);
  EXPECT_EQ(last_error(), "kernel 'scale' declares a range_type of at most 127 work-items, but the launch has 256 "
                          "(global size {64, 4})");
  ASSERT_EQ(run(k, launch_1d(127, 0, 2, scale.args)), ZEAL_RESULT_SUCCESS) << last_error();
  EXPECT_EQ(scale.out[126], 126 * scale.factor);
  expect_vector_add_runs_then_release(scale, 256);
}

// A requirement only the metadata declares is enforced like one from SPIR-V.
TEST_F(LaunchEnforcementTest, GivenMetadataOnlySubGroupRequirementTheDeviceLacks_ThenKernelIsLeftOutAndRefused) {
  auto sizes = sub_group_sizes(device);
  Scale scale;
  ASSERT_NO_FATAL_FAILURE(make_scale(scale, 64, 1, {entry("kernel.scale.reqd_sub_group_size", "3")}));
  uint32_t size = 0;
  EXPECT_EQ(d.kernelGetSubGroupInfo(scale.kernel, device, ZEAL_KERNEL_SUB_GROUP_INFO_COMPILE_SUB_GROUP_SIZE, nullptr,
                                    sizeof(size), &size, nullptr),
            ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(size, 3u);
  auto launch = launch_1d(64, 0, 2, scale.args);
  EXPECT_EQ(d.enqueueKernelLaunch(queue, scale.kernel, &launch, 0, nullptr, nullptr),
            ZEAL_RESULT_ERROR_KERNEL_NOT_SUPPORTED);
  EXPECT_EQ(last_error(), "sub-group size 3 required by kernel 'scale' is not supported by device '" + device_name +
                              "' (supported: " + sizes_text(sizes) + ")");
  EXPECT_NE(program_string(scale.program, ZEAL_PROGRAM_INFO_BUILD_LOG).find("zeal: kernel 'scale' left out"),
            std::string::npos);
  expect_vector_add_runs_then_release(scale, 64);
}
