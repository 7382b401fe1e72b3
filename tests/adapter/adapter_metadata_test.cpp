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

class LaunchEnforcementTest : public AdapterTest {};

TEST_F(LaunchEnforcementTest, GivenRangeTypeLimit_WhenLaunchHasMoreWorkItems_ThenInvalidNdRangeWithTheNumbers) {
  zeal_program_handle_t program = build("vector_add.spv", {entry("kernel.scale.range_type", "int8_t")});
  ASSERT_NE(program, nullptr);
  zeal_kernel_handle_t k = kernel_of(program, "scale");
  auto *out = alloc<int>(256);
  const int factor = 3;
  const zeal_kernel_arg_t args[] = {usm_arg(0, out), {1, ZEAL_KERNEL_ARG_VALUE, sizeof(int), &factor}};
  auto over = launch_1d(128, 0, 2, args);
  EXPECT_EQ(d.enqueueKernelLaunch(queue, k, &over, 0, nullptr, nullptr), ZEAL_RESULT_ERROR_INVALID_ND_RANGE);
  EXPECT_EQ(last_error(),
            "kernel 'scale' declares a range_type of at most 127 work-items, but the launch has 128 (global size {128})");
  zeal_launch_desc_t over_2d = launch_1d(64, 0, 2, args);
  over_2d.work_dim = 2;
  over_2d.global_size[1] = 4;
  EXPECT_EQ(d.enqueueKernelLaunch(queue, k, &over_2d, 0, nullptr, nullptr), ZEAL_RESULT_ERROR_INVALID_ND_RANGE);
  EXPECT_EQ(last_error(), "kernel 'scale' declares a range_type of at most 127 work-items, but the launch has 256 "
                          "(global size {64, 4})");
  auto within = launch_1d(127, 0, 2, args);
  ASSERT_EQ(d.enqueueKernelLaunch(queue, k, &within, 0, nullptr, nullptr), ZEAL_RESULT_SUCCESS) << last_error();
  ASSERT_EQ(d.queueFinish(queue), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(out[126], 126 * factor);
  // Other kernels of the program carry no limit.
  zeal_kernel_handle_t add = kernel_of(program, "vector_add");
  const zeal_kernel_arg_t add_args[] = {usm_arg(0, out), usm_arg(1, out), usm_arg(2, out)};
  auto big = launch_1d(256, 0, 3, add_args);
  EXPECT_EQ(d.enqueueKernelLaunch(queue, add, &big, 0, nullptr, nullptr), ZEAL_RESULT_SUCCESS) << last_error();
  EXPECT_EQ(d.queueFinish(queue), ZEAL_RESULT_SUCCESS);
  for (auto h : {k, add}) EXPECT_EQ(d.kernelRelease(h), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.usmFree(context, out), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.programRelease(program), ZEAL_RESULT_SUCCESS);
}

// A requirement only the metadata declares is enforced like one from SPIR-V.
TEST_F(LaunchEnforcementTest, GivenMetadataOnlySubGroupRequirementTheDeviceLacks_ThenKernelIsLeftOutAndRefused) {
  auto sizes = sub_group_sizes(device);
  zeal_program_handle_t program = build("vector_add.spv", {entry("kernel.scale.reqd_sub_group_size", "3")});
  ASSERT_NE(program, nullptr);
  zeal_kernel_handle_t k = kernel_of(program, "scale");
  uint32_t size = 0;
  EXPECT_EQ(d.kernelGetSubGroupInfo(k, device, ZEAL_KERNEL_SUB_GROUP_INFO_COMPILE_SUB_GROUP_SIZE, nullptr,
                                    sizeof(size), &size, nullptr),
            ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(size, 3u);
  auto *out = alloc<int>(64);
  const int factor = 1;
  const zeal_kernel_arg_t args[] = {usm_arg(0, out), {1, ZEAL_KERNEL_ARG_VALUE, sizeof(int), &factor}};
  auto launch = launch_1d(64, 0, 2, args);
  EXPECT_EQ(d.enqueueKernelLaunch(queue, k, &launch, 0, nullptr, nullptr), ZEAL_RESULT_ERROR_KERNEL_NOT_SUPPORTED);
  EXPECT_EQ(last_error(), "sub-group size 3 required by kernel 'scale' is not supported by device '" + device_name +
                              "' (supported: " + sizes_text(sizes) + ")");
  EXPECT_NE(program_string(program, ZEAL_PROGRAM_INFO_BUILD_LOG).find("zeal: kernel 'scale' left out"),
            std::string::npos);
  zeal_kernel_handle_t add = kernel_of(program, "vector_add");
  const zeal_kernel_arg_t add_args[] = {usm_arg(0, out), usm_arg(1, out), usm_arg(2, out)};
  auto ok = launch_1d(64, 0, 3, add_args);
  EXPECT_EQ(d.enqueueKernelLaunch(queue, add, &ok, 0, nullptr, nullptr), ZEAL_RESULT_SUCCESS) << last_error();
  EXPECT_EQ(d.queueFinish(queue), ZEAL_RESULT_SUCCESS);
  for (auto h : {k, add}) EXPECT_EQ(d.kernelRelease(h), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.usmFree(context, out), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.programRelease(program), ZEAL_RESULT_SUCCESS);
}
