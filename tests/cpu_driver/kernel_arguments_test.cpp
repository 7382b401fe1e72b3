// zeKernelSetArgumentValue with a null value, for every kind of argument: "If null then argument value is
// considered null" — zero bytes for a value, a null pointer for a pointer, the size alone for local memory.
#include "test_support.hpp"

#include "tests/support/null_args_outputs.hpp"

#include <algorithm>

namespace zeal::cpu::test {
namespace {

// The kernel's struct argument as the host lays it out (a pointer then an int, padded to 16 bytes).
struct WrappedPtr {
  int *ptr;
  int count;
};

class NullArguments : public CpuDriver {
protected:
  static constexpr uint32_t kGroup = 8, kItems = 4 * kGroup;

  void SetUp() override {
    CpuDriver::SetUp();
    if (HasFatalFailure()) return;
    ze_module_handle_t module = nullptr;
    std::string log;
    ASSERT_EQ(ZE_RESULT_SUCCESS, build(read_kernel("null_args.spv"), module, &log)) << log;
    k = kernel(module, "null_args");
    ASSERT_NE(nullptr, k);
    ZE_ASSERT_OK(zeKernelSetGroupSize(k, kGroup, 1, 1));
    out = shared_array<int>(5 * kItems);
    in = shared_array<int>(kItems);
    other = shared_array<int>(kItems);
    for (uint32_t i = 0; i < kItems; ++i) {
      in[i] = 100 + int(i);
      other[i] = 200 + int(i);
    }
    ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 0, sizeof(out), &out));
  }

  // Sets every argument but `out` to a non-null value.
  void set_values() {
    WrappedPtr wrapped{in, 7};
    int scalar = 5;
    ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 1, sizeof(wrapped), &wrapped));
    ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 2, sizeof(scalar), &scalar));
    ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 3, sizeof(other), &other));
    ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 4, kGroup * sizeof(int), nullptr));
  }

  void run() {
    std::fill(out, out + 5 * kItems, -99);
    ze_command_list_handle_t list = immediate_list();
    ze_event_handle_t done = event();
    ze_group_count_t groups{kItems / kGroup, 1, 1};
    ZE_ASSERT_OK(zeCommandListAppendLaunchKernel(list, k, &groups, done, 0, nullptr));
    ZE_ASSERT_OK(zeEventHostSynchronize(done, UINT64_MAX));
  }

  // What the kernel saw of the wrapped pointer, its count, the scalar and `maybe`.
  void expect(bool wrapped_null, int count, int value, bool maybe_null) {
    zeal::test::expect_null_args_outputs(out, in, other, kItems, kGroup, {wrapped_null, count, value, maybe_null});
  }

  ze_kernel_handle_t k = nullptr;
  int *out = nullptr, *in = nullptr, *other = nullptr;
};

TEST_F(NullArguments, GivenValues_ThenTheKernelSeesThem) {
  set_values();
  run();
  expect(false, 7, 5, false);
}

// AdaptiveCpp wraps each pointer argument in a struct passed by value and sets a null one so.
TEST_F(NullArguments, GivenANullValueForAStructHoldingAPointer_ThenTheKernelSeesZeroBytes) {
  set_values();
  ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 1, sizeof(WrappedPtr), nullptr));
  run();
  expect(true, 0, 5, false);
}

TEST_F(NullArguments, GivenANullValueForAScalar_ThenTheKernelSeesZero) {
  set_values();
  ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 2, sizeof(int), nullptr));
  run();
  expect(false, 7, 0, false);
}

TEST_F(NullArguments, GivenANullValueForAGlobalPointer_ThenTheKernelSeesANullPointer) {
  set_values();
  ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 3, sizeof(int *), nullptr));
  run();
  expect(false, 7, 5, true);
}

TEST_F(NullArguments, GivenEveryValueNull_ThenEachKindReadsAsNull) {
  for (uint32_t i = 1; i < 4; ++i) {
    const size_t size = i == 1 ? sizeof(WrappedPtr) : i == 2 ? sizeof(int) : sizeof(int *);
    ZE_ASSERT_OK(zeKernelSetArgumentValue(k, i, size, nullptr)) << "argument " << i;
  }
  ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 4, kGroup * sizeof(int), nullptr));
  run();
  expect(true, 0, 0, true);
}

// A null value replaces an earlier one: the launch appended before keeps what it captured.
TEST_F(NullArguments, GivenANullValueAfterALaunch_ThenOnlyLaterLaunchesSeeIt) {
  set_values();
  run();
  expect(false, 7, 5, false);
  ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 1, sizeof(WrappedPtr), nullptr));
  ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 2, sizeof(int), nullptr));
  run();
  expect(true, 0, 0, false);
}

// Longer than the parameter is refused; shorter is taken, zero-extended, as Intel's driver does.
TEST_F(NullArguments, GivenANullValueOfTheWrongSize_ThenTheSizeIsStillChecked) {
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, zeKernelSetArgumentValue(k, 1, 24, nullptr));
  ZE_EXPECT_OK(zeKernelSetArgumentValue(k, 1, 8, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, zeKernelSetArgumentValue(k, 2, 8, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, zeKernelSetArgumentValue(k, 3, 4, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, zeKernelSetArgumentValue(k, 4, 0, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX, zeKernelSetArgumentValue(k, 5, 4, nullptr));
}

} // namespace
} // namespace zeal::cpu::test
