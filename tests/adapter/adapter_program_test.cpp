// Programs, kernels and launches through the dispatch table: build, run, refusals with their messages, threads.
#include "adapter_fixture.hpp"

#include <numeric>
#include <thread>

using namespace zeal_test;

class ProgramTest : public VectorAddProgramTest {};

TEST_F(ProgramTest, VectorAddRunsAndIsCorrect) {
  constexpr size_t n = 4096;
  auto *a = alloc<int>(n), *b = alloc<int>(n), *c = alloc<int>(n);
  for (size_t i = 0; i < n; ++i) { a[i] = static_cast<int>(i); b[i] = static_cast<int>(3 * i); c[i] = -1; }
  zeal_kernel_handle_t k = kernel("vector_add");
  ASSERT_NE(k, nullptr);
  const zeal_kernel_arg_t args[] = {usm_arg(0, a), usm_arg(1, b), usm_arg(2, c)};
  for (size_t local : {size_t{64}, size_t{0}}) {
    auto launch = launch_1d(n, local, 3, args);
    zeal_event_handle_t done = nullptr;
    ASSERT_EQ(d.enqueueKernelLaunch(queue, k, &launch, 0, nullptr, &done), ZEAL_RESULT_SUCCESS) << last_error();
    ASSERT_EQ(d.eventWait(1, &done), ZEAL_RESULT_SUCCESS) << last_error();
    EXPECT_EQ(d.eventRelease(done), ZEAL_RESULT_SUCCESS);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(c[i], static_cast<int>(4 * i)) << "local " << local << " at " << i;
    std::fill(c, c + n, -1);
  }
  uint32_t num_args = 0;
  EXPECT_EQ(d.kernelGetInfo(k, ZEAL_KERNEL_INFO_NUM_ARGS, sizeof(num_args), &num_args, nullptr), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(num_args, 3u);
  EXPECT_EQ(d.kernelRelease(k), ZEAL_RESULT_SUCCESS);
  for (int *p : {a, b, c}) EXPECT_EQ(d.usmFree(context, p), ZEAL_RESULT_SUCCESS);
}

// A global offset moves the ids (the driver's ZE_experimental_global_offset); a launch without one undoes it.
TEST_F(ProgramTest, AGlobalOffsetShiftsTheLaunchAndTheNextLaunchWithoutOneStartsAtZero) {
  constexpr size_t n = 1024, launched = 256, offset = 320;
  auto *a = alloc<int>(n), *b = alloc<int>(n), *c = alloc<int>(n);
  for (size_t i = 0; i < n; ++i) { a[i] = static_cast<int>(i); b[i] = 1; c[i] = -1; }
  zeal_kernel_handle_t k = kernel("vector_add");
  ASSERT_NE(k, nullptr);
  const zeal_kernel_arg_t args[] = {usm_arg(0, a), usm_arg(1, b), usm_arg(2, c)};
  auto shifted = launch_1d(launched, 64, 3, args);
  shifted.global_offset[0] = offset;
  ASSERT_EQ(d.enqueueKernelLaunch(queue, k, &shifted, 0, nullptr, nullptr), ZEAL_RESULT_SUCCESS) << last_error();
  auto plain = launch_1d(launched, 64, 3, args);
  ASSERT_EQ(d.enqueueKernelLaunch(queue, k, &plain, 0, nullptr, nullptr), ZEAL_RESULT_SUCCESS) << last_error();
  ASSERT_EQ(d.queueFinish(queue), ZEAL_RESULT_SUCCESS) << last_error();
  for (size_t i = 0; i < n; ++i) {
    bool written = i < launched || (i >= offset && i < offset + launched);
    ASSERT_EQ(written ? static_cast<int>(i) + 1 : -1, c[i]) << "at " << i;
  }
  EXPECT_EQ(d.kernelRelease(k), ZEAL_RESULT_SUCCESS);
  for (int *p : {a, b, c}) EXPECT_EQ(d.usmFree(context, p), ZEAL_RESULT_SUCCESS);
}

TEST_F(ProgramTest, ProgramInfoListsKernelsAfterBuild) {
  char names[256];
  ASSERT_EQ(d.programGetInfo(program, ZEAL_PROGRAM_INFO_KERNEL_NAMES, sizeof(names), names, nullptr),
            ZEAL_RESULT_SUCCESS);
  std::string list = names;
  for (const char *k : {"vector_add", "scale", "fixed_group"}) EXPECT_NE(list.find(k), std::string::npos) << list;
  uint32_t count = 0;
  ASSERT_EQ(d.programGetInfo(program, ZEAL_PROGRAM_INFO_NUM_KERNELS, sizeof(count), &count, nullptr),
            ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(count, 3u);
  EXPECT_EQ(d.programBuild(program, nullptr), ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE);
}

TEST_F(ProgramTest, GivenUnknownKernelName_ThenInvalidKernelNameNamingItAndListingKernels) {
  zeal_kernel_handle_t k = nullptr;
  EXPECT_EQ(d.kernelCreate(program, "no_such_kernel", &k), ZEAL_RESULT_ERROR_INVALID_KERNEL_NAME);
  EXPECT_NE(last_error().find("no kernel named 'no_such_kernel'"), std::string::npos) << last_error();
  EXPECT_NE(last_error().find("vector_add"), std::string::npos) << last_error();
}

TEST_F(AdapterTest, GivenMalformedSpirv_ThenInvalidBinaryWithReasonAndNoCrash) {
  auto spirv = read_kernel("vector_add.spv");
  spirv.resize(spirv.size() / 2 & ~size_t{3});
  zeal_program_desc_t desc{ZEAL_PROGRAM_FORMAT_SPIRV, spirv.data(), spirv.size(), 0, nullptr};
  zeal_program_handle_t program = nullptr;
  EXPECT_EQ(d.programCreate(context, device, &desc, &program), ZEAL_RESULT_ERROR_INVALID_BINARY);
  EXPECT_NE(last_error().find("not valid SPIR-V"), std::string::npos) << last_error();
  const char junk[] = "this is not SPIR-V at all";
  desc = {ZEAL_PROGRAM_FORMAT_SPIRV, junk, 24, 0, nullptr};
  EXPECT_EQ(d.programCreate(context, device, &desc, &program), ZEAL_RESULT_ERROR_INVALID_BINARY);
  EXPECT_NE(last_error().find("magic number"), std::string::npos) << last_error();
}

TEST_F(AdapterTest, GivenGarbageNativeBinary_WhenBuilding_ThenBuildFailureWithLogAndMessage) {
  const std::vector<uint8_t> junk(256, 0xAB);
  zeal_program_desc_t desc{ZEAL_PROGRAM_FORMAT_NATIVE, junk.data(), junk.size(), 0, nullptr};
  zeal_program_handle_t program = nullptr;
  ASSERT_EQ(d.programCreate(context, device, &desc, &program), ZEAL_RESULT_SUCCESS) << last_error();
  zeal_result_t r = d.programBuild(program, nullptr);
  EXPECT_TRUE(r == ZEAL_RESULT_ERROR_BUILD_FAILURE || r == ZEAL_RESULT_ERROR_INVALID_BINARY) << zealResultName(r);
  // Nothing names a native binary without metadata but its size; never its address.
  EXPECT_EQ(last_error().rfind("building native program of 256 bytes for device '" + device_name + "' failed: ", 0),
            0u)
      << last_error();
  size_t log_size = 0;
  EXPECT_EQ(d.programGetInfo(program, ZEAL_PROGRAM_INFO_BUILD_LOG, 0, nullptr, &log_size), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.programRelease(program), ZEAL_RESULT_SUCCESS);
}

TEST_F(ProgramTest, LaunchValidationErrorsCarryTheNumbers) {
  auto *out = alloc<int>(1024);
  zeal_kernel_handle_t k = kernel("scale");
  const int factor = 2;
  const zeal_kernel_arg_t args[] = {usm_arg(0, out), {1, ZEAL_KERNEL_ARG_VALUE, sizeof(int), &factor}};

  auto bad_dim = launch_1d(64, 8, 2, args);
  bad_dim.work_dim = 4;
  EXPECT_EQ(d.enqueueKernelLaunch(queue, k, &bad_dim, 0, nullptr, nullptr), ZEAL_RESULT_ERROR_INVALID_ND_RANGE);
  EXPECT_EQ(last_error(), "work_dim 4 is not 1, 2 or 3");

  auto not_dividing = launch_1d(100, 8, 2, args);
  EXPECT_EQ(d.enqueueKernelLaunch(queue, k, &not_dividing, 0, nullptr, nullptr),
            ZEAL_RESULT_ERROR_INVALID_WORK_GROUP_SIZE);
  EXPECT_EQ(last_error(), "global size {100} is not a multiple of local size {8} for kernel 'scale'");

  auto max_wg = device_value<size_t>(device, ZEAL_DEVICE_INFO_MAX_WORK_GROUP_SIZE);
  auto too_big = launch_1d(max_wg * 4, max_wg * 2, 2, args);
  zeal_result_t r = d.enqueueKernelLaunch(queue, k, &too_big, 0, nullptr, nullptr);
  EXPECT_EQ(r, ZEAL_RESULT_ERROR_INVALID_WORK_GROUP_SIZE) << last_error();
  EXPECT_NE(last_error().find(std::to_string(max_wg * 2)), std::string::npos) << last_error();

  auto missing_arg = launch_1d(64, 8, 1, args);
  EXPECT_EQ(d.enqueueKernelLaunch(queue, k, &missing_arg, 0, nullptr, nullptr),
            ZEAL_RESULT_ERROR_INVALID_KERNEL_ARGUMENT);
  EXPECT_EQ(last_error(), "argument 1 of kernel 'scale' was not set");
  EXPECT_EQ(d.kernelRelease(k), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.usmFree(context, out), ZEAL_RESULT_SUCCESS);
}

TEST_F(ProgramTest, GivenRequiredWorkGroupSize_ThenMismatchRefusedAndNoLocalSizeUsesIt) {
  auto *out = alloc<int>(64);
  zeal_kernel_handle_t k = kernel("fixed_group");
  std::array<size_t, 3> required{};
  ASSERT_EQ(d.kernelGetInfo(k, ZEAL_KERNEL_INFO_COMPILE_WORK_GROUP_SIZE, sizeof(required), required.data(), nullptr),
            ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(required, (std::array<size_t, 3>{8, 1, 1}));
  const zeal_kernel_arg_t args[] = {usm_arg(0, out)};
  auto wrong = launch_1d(64, 16, 1, args);
  EXPECT_EQ(d.enqueueKernelLaunch(queue, k, &wrong, 0, nullptr, nullptr), ZEAL_RESULT_ERROR_INVALID_WORK_GROUP_SIZE);
  EXPECT_EQ(last_error(), "local size {16, 1, 1} does not match the work-group size {8, 1, 1} required by kernel "
                          "'fixed_group'");
  ASSERT_EQ(run(k, launch_1d(64, 0, 1, args)), ZEAL_RESULT_SUCCESS) << last_error();
  EXPECT_EQ(std::count(out, out + 64, 8), 64);
  EXPECT_EQ(d.kernelRelease(k), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.usmFree(context, out), ZEAL_RESULT_SUCCESS);
}

TEST_F(AdapterTest, GivenRequiredSubGroupSizeTheDeviceLacks_ThenKernelNotSupportedWithExactMessage) {
  auto spirv = read_kernel("sub_group_2.spv");
  zeal_program_desc_t desc{ZEAL_PROGRAM_FORMAT_SPIRV, spirv.data(), spirv.size(), 0, nullptr};
  zeal_program_handle_t program = nullptr;
  ASSERT_EQ(d.programCreate(context, device, &desc, &program), ZEAL_RESULT_SUCCESS) << last_error();
  // The program must build even where the driver would refuse the kernel (Intel's
  // does, at module build): the adapter keeps the rest of the program usable.
  ASSERT_EQ(d.programBuild(program, nullptr), ZEAL_RESULT_SUCCESS) << last_error();
  zeal_kernel_handle_t k = nullptr;
  ASSERT_EQ(d.kernelCreate(program, "needs_sub_group_2", &k), ZEAL_RESULT_SUCCESS) << last_error();
  uint32_t compiled = 0;
  EXPECT_EQ(d.kernelGetSubGroupInfo(k, device, ZEAL_KERNEL_SUB_GROUP_INFO_COMPILE_SUB_GROUP_SIZE, nullptr,
                                    sizeof(compiled), &compiled, nullptr),
            ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(compiled, 2u);
  size_t size = 0;
  d.deviceGetInfo(device, ZEAL_DEVICE_INFO_SUB_GROUP_SIZES, 0, nullptr, &size);
  std::vector<uint32_t> sizes(size / sizeof(uint32_t));
  d.deviceGetInfo(device, ZEAL_DEVICE_INFO_SUB_GROUP_SIZES, size, sizes.data(), nullptr);
  std::string supported;
  for (uint32_t s : sizes) supported += (supported.empty() ? "" : ", ") + std::to_string(s);
  auto *out = alloc<uint32_t>(64);
  const zeal_kernel_arg_t args[] = {usm_arg(0, out)};
  auto launch = launch_1d(64, 8, 1, args);
  EXPECT_EQ(d.enqueueKernelLaunch(queue, k, &launch, 0, nullptr, nullptr), ZEAL_RESULT_ERROR_KERNEL_NOT_SUPPORTED);
  EXPECT_EQ(last_error(), "sub-group size 2 required by kernel 'needs_sub_group_2' is not supported by device '" +
                              device_name + "' (supported: " + supported + ")");
  EXPECT_EQ(d.usmFree(context, out), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.kernelRelease(k), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.programRelease(program), ZEAL_RESULT_SUCCESS);
}

TEST_F(ProgramTest, ConcurrentLaunchesOfOneKernelWithDifferentArgumentsAreEachCorrect) {
  constexpr size_t n = 2048;
  constexpr int threads = 4;
  constexpr int rounds = 20;
  zeal_kernel_handle_t k = kernel("scale");
  std::vector<int *> outs;
  for (int t = 0; t < threads; ++t) outs.push_back(alloc<int>(n));
  std::vector<std::thread> workers;
  std::vector<int> failures(threads, 0);
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      for (int round = 0; round < rounds; ++round) {
        const int factor = t * 100 + round;
        const zeal_kernel_arg_t args[] = {usm_arg(0, outs[t]), {1, ZEAL_KERNEL_ARG_VALUE, sizeof(int), &factor}};
        auto launch = launch_1d(n, 64, 2, args);
        zeal_event_handle_t done = nullptr;
        if (d.enqueueKernelLaunch(queue, k, &launch, 0, nullptr, &done) != ZEAL_RESULT_SUCCESS ||
            d.eventWait(1, &done) != ZEAL_RESULT_SUCCESS) {
          ++failures[t];
          continue;
        }
        d.eventRelease(done);
        for (size_t i = 0; i < n; ++i)
          if (outs[t][i] != static_cast<int>(i) * factor) { ++failures[t]; break; }
      }
    });
  }
  for (auto &w : workers) w.join();
  for (int t = 0; t < threads; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
  for (int *p : outs) EXPECT_EQ(d.usmFree(context, p), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.kernelRelease(k), ZEAL_RESULT_SUCCESS);
}
