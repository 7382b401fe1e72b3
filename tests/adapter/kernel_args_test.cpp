// Kernel arguments through the zeal C ABI with null values, for each kind: a null VALUE is `size` zero bytes
// (a by-value struct holding a pointer reads as a null pointer), a null USM pointer is a null pointer, and a
// LOCAL argument takes its size alone. Set with kernelSetArg and given with the launch.
#include "adapter_fixture.hpp"

#include "tests/support/null_args_outputs.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace zeal_test {
namespace {

struct WrappedPtr {
  int *ptr;
  int count;
};

class KernelArgs : public AdapterTest {
protected:
  static constexpr size_t kGroup = 8, kItems = 4 * kGroup;

  void SetUp() override {
    AdapterTest::SetUp();
    if (HasFatalFailure()) return;
    program = build("null_args.spv");
    ASSERT_NE(program, nullptr);
    k = kernel_of(program, "null_args");
    ASSERT_NE(k, nullptr);
    out = alloc<int>(5 * kItems);
    in = alloc<int>(kItems);
    other = alloc<int>(kItems);
    for (size_t i = 0; i < kItems; ++i) {
      in[i] = 100 + int(i);
      other[i] = 200 + int(i);
    }
  }
  void TearDown() override {
    for (void *p : {static_cast<void *>(out), static_cast<void *>(in), static_cast<void *>(other)}) {
      if (p != nullptr) {
        EXPECT_EQ(d.usmFree(context, p), ZEAL_RESULT_SUCCESS);
      }
    }
    if (k != nullptr) {
      EXPECT_EQ(d.kernelRelease(k), ZEAL_RESULT_SUCCESS);
    }
    if (program != nullptr) {
      EXPECT_EQ(d.programRelease(program), ZEAL_RESULT_SUCCESS);
    }
    AdapterTest::TearDown();
  }

  void run(const std::vector<zeal_kernel_arg_t> &args) {
    std::fill(out, out + 5 * kItems, -99);
    auto launch = launch_1d(kItems, kGroup, static_cast<uint32_t>(args.size()), args.data());
    zeal_event_handle_t done = nullptr;
    ASSERT_EQ(d.enqueueKernelLaunch(queue, k, &launch, 0, nullptr, &done), ZEAL_RESULT_SUCCESS) << last_error();
    ASSERT_EQ(d.eventWait(1, &done), ZEAL_RESULT_SUCCESS) << last_error();
    EXPECT_EQ(d.eventRelease(done), ZEAL_RESULT_SUCCESS);
  }

  // What the kernel saw of the wrapped pointer, its count, the scalar and `maybe`.
  void expect(bool wrapped_null, int count, int value, bool maybe_null) {
    zeal::test::expect_null_args_outputs(out, in, other, kItems, kGroup, {wrapped_null, count, value, maybe_null});
  }

  zeal_program_handle_t program = nullptr;
  zeal_kernel_handle_t k = nullptr;
  int *out = nullptr, *in = nullptr, *other = nullptr;
  WrappedPtr wrapped{};
  int scalar = 5;
};

TEST_F(KernelArgs, GivenNullValuesWithTheLaunch_ThenEachKindReadsAsNull) {
  wrapped = {in, 7};
  const std::vector<zeal_kernel_arg_t> values = {usm_arg(0, out),
                                                 {1, ZEAL_KERNEL_ARG_VALUE, sizeof(wrapped), &wrapped},
                                                 {2, ZEAL_KERNEL_ARG_VALUE, sizeof(scalar), &scalar},
                                                 usm_arg(3, other),
                                                 {4, ZEAL_KERNEL_ARG_LOCAL, kGroup * sizeof(int), nullptr}};
  run(values);
  expect(false, 7, 5, false);
  const std::vector<zeal_kernel_arg_t> nulls = {usm_arg(0, out),
                                                {1, ZEAL_KERNEL_ARG_VALUE, sizeof(WrappedPtr), nullptr},
                                                {2, ZEAL_KERNEL_ARG_VALUE, sizeof(int), nullptr},
                                                usm_arg(3, nullptr),
                                                {4, ZEAL_KERNEL_ARG_LOCAL, kGroup * sizeof(int), nullptr}};
  run(nulls);
  expect(true, 0, 0, true);
}

TEST_F(KernelArgs, GivenNullValuesSetOnTheKernel_ThenLaterLaunchesReadThemAsNull) {
  wrapped = {in, 7};
  const zeal_kernel_arg_t set[] = {usm_arg(0, out),
                                   {1, ZEAL_KERNEL_ARG_VALUE, sizeof(wrapped), &wrapped},
                                   {2, ZEAL_KERNEL_ARG_VALUE, sizeof(scalar), &scalar},
                                   usm_arg(3, other),
                                   {4, ZEAL_KERNEL_ARG_LOCAL, kGroup * sizeof(int), nullptr}};
  for (const auto &arg : set) ASSERT_EQ(d.kernelSetArg(k, &arg), ZEAL_RESULT_SUCCESS) << last_error();
  run({});
  expect(false, 7, 5, false);
  const zeal_kernel_arg_t nulls[] = {{1, ZEAL_KERNEL_ARG_VALUE, sizeof(WrappedPtr), nullptr},
                                     {2, ZEAL_KERNEL_ARG_VALUE, sizeof(int), nullptr},
                                     usm_arg(3, nullptr)};
  for (const auto &arg : nulls) ASSERT_EQ(d.kernelSetArg(k, &arg), ZEAL_RESULT_SUCCESS) << last_error();
  run({});
  expect(true, 0, 0, true);
  // A larger value than the inline buffer holds, set null, still reads as zeros: the launch's own value
  // of argument 1 replaces the stored one for that launch only.
  wrapped = {in, 9};
  const std::vector<zeal_kernel_arg_t> one = {{1, ZEAL_KERNEL_ARG_VALUE, sizeof(wrapped), &wrapped}};
  run(one);
  expect(false, 9, 0, true);
  run({});
  expect(true, 0, 0, true);
}

TEST_F(KernelArgs, GivenANullValueOfSizeZero_ThenInvalidKernelArgumentNamesIt) {
  const zeal_kernel_arg_t empty{2, ZEAL_KERNEL_ARG_VALUE, 0, nullptr};
  EXPECT_EQ(d.kernelSetArg(k, &empty), ZEAL_RESULT_ERROR_INVALID_KERNEL_ARGUMENT);
  EXPECT_EQ(last_error(), "value argument 2 of kernel 'null_args' has size 0");
  // The driver checks the size when the launch hands it over.
  const std::vector<zeal_kernel_arg_t> wrong = {usm_arg(0, out),
                                                {1, ZEAL_KERNEL_ARG_VALUE, sizeof(WrappedPtr), nullptr},
                                                {2, ZEAL_KERNEL_ARG_VALUE, 8, nullptr},
                                                usm_arg(3, nullptr),
                                                {4, ZEAL_KERNEL_ARG_LOCAL, kGroup * sizeof(int), nullptr}};
  auto launch = launch_1d(kItems, kGroup, static_cast<uint32_t>(wrong.size()), wrong.data());
  EXPECT_EQ(d.enqueueKernelLaunch(queue, k, &launch, 0, nullptr, nullptr), ZEAL_RESULT_ERROR_INVALID_KERNEL_ARGUMENT);
  EXPECT_EQ(last_error(), "zeKernelSetArgumentValue on argument 2 (8 bytes) of kernel 'null_args' failed with "
                          "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE");
}

// UR's own tests pass a size_t for a uint32_t; Intel's driver reads the leading bytes. zeal gives the driver the
// declared width when the bytes past it only extend the value (zeros, or ones after a negative value), so the
// kernel sees the same number, and refuses a value that would lose bits.
TEST_F(KernelArgs, GivenAWiderIntegerThatOnlyExtendsTheValue_ThenTheKernelSeesTheSameNumber) {
  int64_t wide = 6;
  const auto with_scalar = [&](const int64_t *value) {
    return std::vector<zeal_kernel_arg_t>{usm_arg(0, out),
                                          {1, ZEAL_KERNEL_ARG_VALUE, sizeof(wrapped), &wrapped},
                                          {2, ZEAL_KERNEL_ARG_VALUE, sizeof(*value), value},
                                          usm_arg(3, other),
                                          {4, ZEAL_KERNEL_ARG_LOCAL, kGroup * sizeof(int), nullptr}};
  };
  wrapped = {in, 3};
  run(with_scalar(&wide));
  expect(false, 3, 6, false);
  wide = -7; // ones past the low 4 bytes, after a negative int
  run(with_scalar(&wide));
  expect(false, 3, -7, false);

  // Set on the kernel: stored at 8 bytes, handed over at 4, and again after a launch replaced it.
  wide = 11;
  for (const auto &arg : with_scalar(&wide)) ASSERT_EQ(d.kernelSetArg(k, &arg), ZEAL_RESULT_SUCCESS) << last_error();
  run({});
  expect(false, 3, 11, false);
  int own = 12;
  run({{2, ZEAL_KERNEL_ARG_VALUE, sizeof(own), &own}});
  expect(false, 3, 12, false);
  run({});
  expect(false, 3, 11, false);

  // Bits past 32 would be lost; 0x80000000 zero-extended is an unsigned value that fits; ones after a
  // non-negative low half are not a sign extension.
  for (int64_t lossy : {int64_t{1} << 32 | 5, int64_t{-1} ^ int64_t{0x80000000}}) {
    wide = lossy;
    auto launch_args = with_scalar(&wide);
    auto launch = launch_1d(kItems, kGroup, static_cast<uint32_t>(launch_args.size()), launch_args.data());
    EXPECT_EQ(d.enqueueKernelLaunch(queue, k, &launch, 0, nullptr, nullptr), ZEAL_RESULT_ERROR_INVALID_KERNEL_ARGUMENT);
    EXPECT_EQ(last_error(), "zeKernelSetArgumentValue on argument 2 (8 bytes) of kernel 'null_args' failed with "
                            "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE");
  }
  wide = int64_t{0x80000000};
  run(with_scalar(&wide));
  expect(false, 3, std::numeric_limits<int>::min(), false);
}

} // namespace
} // namespace zeal_test
