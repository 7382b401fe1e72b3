// The adapter's launch checks on their own, with devices described by hand (no driver needed).
#include "adapter/core/launch_checks.hpp"

#include <gtest/gtest.h>

using namespace zeal::adapter;
using zeal::Status;

namespace {
DeviceLimits cpu_like() {
  DeviceLimits d;
  d.name = "zeal CPU";
  d.max_work_group_size = 1024;
  d.max_work_item_sizes = {1024, 1024, 1024};
  d.max_group_count = {65535, 65535, 65535};
  d.sub_group_sizes = {8, 16, 32};
  return d;
}
} // namespace

TEST(LaunchChecks, GivenUnsupportedRequiredSubGroupSize_ThenExactMessage) {
  KernelLimits k;
  k.name = "k";
  k.required_sub_group_size = 64;
  DeviceLimits d = cpu_like();
  d.name = "D";
  Status s = check_sub_group_size(k, d);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ZEAL_RESULT_ERROR_KERNEL_NOT_SUPPORTED);
  EXPECT_EQ(s.error().message, "sub-group size 64 required by kernel 'k' is not supported by device 'D' "
                               "(supported: 8, 16, 32)");
  k.required_sub_group_size = 16;
  EXPECT_TRUE(check_sub_group_size(k, d).ok());
  k.required_sub_group_size = 0;
  EXPECT_TRUE(check_sub_group_size(k, d).ok());
}

TEST(LaunchChecks, UnusedDimensionsAreNormalisedToOne) {
  const size_t global[3] = {64, 0, 0}, local[3] = {8, 0, 0}, offset[3] = {0, 7, 7};
  auto r = normalise_nd_range(1, global, local, offset);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->global, (std::array<size_t, 3>{64, 1, 1}));
  EXPECT_EQ(r->offset, (std::array<size_t, 3>{0, 0, 0}));
}

TEST(LaunchChecks, GivenZeroGlobalSize_ThenInvalidNdRange) {
  const size_t global[3] = {64, 0, 1}, zero[3] = {0, 0, 0};
  auto r = normalise_nd_range(2, global, zero, zero);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ZEAL_RESULT_ERROR_INVALID_ND_RANGE);
  EXPECT_EQ(r.error().message, "global size {64, 0} has a zero in dimension 1");
}

TEST(LaunchChecks, GivenLocalOverKernelLimit_ThenInvalidWorkGroupSizeWithTheLimit) {
  KernelLimits k;
  k.name = "k";
  k.max_work_group_size = 256;
  const size_t global[3] = {1024, 1, 1}, local[3] = {512, 1, 1}, zero[3] = {0, 0, 0};
  auto r = normalise_nd_range(1, global, local, zero);
  Status s = check_local_size(r.value(), k, cpu_like());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "local size {512} (512 work-items) of kernel 'k' is over the maximum work-group size "
                               "256 on device 'zeal CPU'");
}

TEST(LaunchChecks, GivenTooManyGroups_ThenInvalidNdRange) {
  DeviceLimits d = cpu_like();
  d.max_group_count = {4, 4, 4};
  const size_t global[3] = {64, 1, 1}, local[3] = {8, 1, 1}, zero[3] = {0, 0, 0};
  auto r = normalise_nd_range(1, global, local, zero);
  auto counts = group_counts(r.value(), d);
  ASSERT_FALSE(counts.ok());
  EXPECT_EQ(counts.error().code, ZEAL_RESULT_ERROR_INVALID_ND_RANGE);
  EXPECT_EQ(counts.error().message, "8 work-groups in dimension 0 (global 64 / local 8) are over the maximum group "
                                    "count of 4 on device 'zeal CPU'");
}

TEST(LaunchChecks, LargestDivisorTrimsASuggestion) {
  EXPECT_EQ(largest_divisor_up_to(100, 64), 50u);
  EXPECT_EQ(largest_divisor_up_to(97, 64), 1u);
  EXPECT_EQ(largest_divisor_up_to(64, 0), 1u);
  EXPECT_EQ(largest_divisor_up_to(8, 64), 8u);
}
