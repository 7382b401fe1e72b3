// printf from kernels: stdout captured around the launch and compared as exact text.
#include "test_support.hpp"
#include "tests/support/capture_stderr.hpp"

namespace zeal::cpu::test {
namespace {

TEST(Printf, EveryWorkItemsLineAndVectorAndLengthModifiers) {
  auto program = build("printf");
  ASSERT_NE(program, nullptr);
  std::vector<int> x = {42, -3, 255, 7};
  int *px = x.data();
  const char *word = "zeal";
  const void *args[] = {&px, &word};
  std::string text = zeal::test::capture_stdout(
      [&] { run(*program->find_kernel("print_values"), args, Range{1, {2, 1, 1}, {2, 1, 1}}); });
  EXPECT_EQ(text, "item 0 of 4: x=   42 hex=0x2a zeal\n"
                  "1.500000,-2.000000,0.250000,100.000000|1.50,-2.00,0.25,100.00|-7,8|1,-2,3|ff,1000\n"
                  "ok 1.234568e+04 0.0001      3.142% -9000000000 -3 250\n"
                  "item 1 of 4: x=   -3 hex=0xfffffffd zeal\n"
                  "item 2 of 4: x=  255 hex=0xff zeal\n"
                  "item 3 of 4: x=    7 hex=0x7 zeal\n");
}

// DPC++'s device assert imports __devicelib_assert_fail, which the driver provides (as Intel's does): the module
// has no import left, each failing work-item prints DPC++'s line on stderr, and the kernel goes on.
TEST(DeviceAssert, AFailingAssertPrintsWhereAndWhatAndTheKernelCompletes) {
  auto program = build("device_assert");
  ASSERT_NE(program, nullptr);
  EXPECT_TRUE(program->linkage().imports.empty());
  std::vector<int> in = {1, 2, -3, 4}, out(4, 0);
  int *pi = in.data(), *po = out.data();
  const void *args[] = {&pi, &po};
  std::string text = zeal::test::capture_stderr(
      [&] { run(*program->find_kernel("checked_copy"), args, Range{1, {2, 1, 1}, {2, 1, 1}}); });
  EXPECT_EQ("copy.cpp:12: checked_copy: global id: [2,0,0], local id: [0,0,0] Assertion `in[i] >= 0` failed.\n", text);
  EXPECT_EQ((std::vector<int>{2, 4, -6, 8}), out);
}

} // namespace
} // namespace zeal::cpu::test
