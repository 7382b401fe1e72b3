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
  Scale scale;
  ASSERT_NO_FATAL_FAILURE(make_scale(scale, 64, 2));
  auto launch = launch_1d(64, 16, 2, scale.args);
  std::string text = capture_stderr([&] {
    EXPECT_EQ(d.enqueueKernelLaunch(queue, scale.kernel, &launch, 0, nullptr, nullptr), ZEAL_RESULT_SUCCESS);
  });
  const std::regex line("enqueueKernelLaunch\\(queue=" + fmt_pointer(queue) + ", kernel=" + fmt_pointer(scale.kernel) +
                        ", dim=1, global=\\{64, 1, 1\\}, local=\\{16, 0, 0\\}, num_args=2, num_wait=0\\) -> "
                        "ZEAL_RESULT_SUCCESS in [0-9]+\\.[0-9] us");
  EXPECT_TRUE(std::regex_search(text, line)) << text;
  EXPECT_EQ(d.queueFinish(queue), ZEAL_RESULT_SUCCESS);
  release_scale(scale);
}
