// ZEAL_TRACE=1 (set by ctest for this binary): each C ABI call is logged with arguments, result and duration.
#include "adapter_fixture.hpp"
#include "tests/support/capture_stderr.hpp"

#include <regex>

using namespace zeal_test;

using zeal::test::capture_stderr;

TEST_F(AdapterTest, TraceLinesCarryTheCallItsArgumentsItsResultAndItsDuration) {
  ASSERT_STREQ(std::getenv("ZEAL_TRACE"), "1") << "ctest runs this binary with ZEAL_TRACE=1";
  size_t size = 0;
  std::string text = capture_stderr([&] {
    EXPECT_EQ(d.deviceGetInfo(device, ZEAL_DEVICE_INFO_NAME, 0, nullptr, &size), ZEAL_RESULT_SUCCESS);
    EXPECT_EQ(d.usmFree(context, nullptr), ZEAL_RESULT_ERROR_INVALID_ARGUMENT);
  });
  const std::string dev = fmt_pointer(device), ctx = fmt_pointer(context);
  const std::regex ok("\\[zeal-trace\\] deviceGetInfo\\(device=" + dev + ", key=2, size=0\\) -> ZEAL_RESULT_SUCCESS "
                      "in [0-9]+\\.[0-9] us");
  EXPECT_TRUE(std::regex_search(text, ok)) << text;
  const std::regex failed("\\[zeal-trace\\] usmFree\\(context=" + ctx + ", ptr=0x0\\) -> "
                          "ZEAL_RESULT_ERROR_INVALID_ARGUMENT in [0-9]+\\.[0-9] us");
  EXPECT_TRUE(std::regex_search(text, failed)) << text;
}

TEST_F(AdapterTest, TraceOfALaunchShowsItsRange) {
  zeal_program_handle_t program = build("vector_add.spv");
  ASSERT_NE(program, nullptr);
  zeal_kernel_handle_t k = kernel_of(program, "scale");
  int *out = alloc<int>(64);
  const int factor = 2;
  const zeal_kernel_arg_t args[] = {usm_arg(0, out), {1, ZEAL_KERNEL_ARG_VALUE, sizeof(int), &factor}};
  auto launch = launch_1d(64, 16, 2, args);
  std::string text = capture_stderr([&] {
    EXPECT_EQ(d.enqueueKernelLaunch(queue, k, &launch, 0, nullptr, nullptr), ZEAL_RESULT_SUCCESS);
  });
  const std::regex line("enqueueKernelLaunch\\(queue=" + fmt_pointer(queue) + ", kernel=" + fmt_pointer(k) +
                        ", dim=1, global=\\{64, 1, 1\\}, local=\\{16, 0, 0\\}, num_args=2, num_wait=0\\) -> "
                        "ZEAL_RESULT_SUCCESS in [0-9]+\\.[0-9] us");
  EXPECT_TRUE(std::regex_search(text, line)) << text;
  EXPECT_EQ(d.queueFinish(queue), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.kernelRelease(k), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.usmFree(context, out), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.programRelease(program), ZEAL_RESULT_SUCCESS);
}
