// Which kernels a device refuses, decided from metadata before the driver sees the module, and the reason a
// driver's build log gives, on the texts real drivers write (no Level Zero).
#include "adapter/core/build_log.hpp"
#include "adapter/core/launch_checks.hpp"

#include <gtest/gtest.h>

using namespace zeal::adapter;

namespace {

KernelRequirements requiring(const char *name, uint32_t sub_group_size) {
  KernelRequirements k;
  k.name = name;
  k.sub_group_size = sub_group_size;
  return k;
}

// The pvc profile's sizes, as the CPU driver reports them.
DeviceLimits pvc() {
  DeviceLimits d;
  d.name = "zeal CPU (pvc profile)";
  d.sub_group_sizes = {16, 32};
  return d;
}

std::vector<std::string> names(const std::vector<KernelRefusal> &refused) {
  std::vector<std::string> out;
  for (const auto &r : refused) out.push_back(r.name);
  return out;
}

// What zeal's CPU driver writes when a profile lacks a kernel's size.
constexpr const char *kCpuDriverLog =
    "error: kernel 'k' requires sub-group size 64 (intel_reqd_sub_group_size), which the pvc profile does not "
    "support; supported sub-group sizes: 16, 32\n";

// What Intel's compiler (IGC) writes: the kernel on a line of its own after the error.
constexpr const char *kIntelLog = "error: Kernel compiled with required subgroup size 64, which is unsupported on "
                                  "this platform\nin kernel: 'k'\nerror: backend compiler failed build.\n";

} // namespace

TEST(RefusedKernels, GivenASizeTheDeviceLacks_ThenThatKernelAloneIsRefusedWithKernelSizeDeviceAndSizes) {
  const KernelRequirements kernels[] = {requiring("other", 16), requiring("k", 64)};
  const auto refused = refused_kernels(kernels, pvc());
  ASSERT_EQ(names(refused), std::vector<std::string>{"k"});
  EXPECT_EQ(refused[0].reason.code, ZEAL_RESULT_ERROR_KERNEL_NOT_SUPPORTED);
  EXPECT_EQ(refused[0].reason.message, "sub-group size 64 required by kernel 'k' is not supported by device "
                                       "'zeal CPU (pvc profile)' (supported: 16, 32)");
}

TEST(RefusedKernels, GivenAKernelWithoutARequiredSize_ThenItIsNeverRefused) {
  const KernelRequirements kernels[] = {requiring("k", 0)};
  EXPECT_TRUE(refused_kernels(kernels, pvc()).empty());
}

TEST(RefusedKernels, GivenNamesThatArePartsOfOthers_ThenEachKernelIsDecidedByItsOwnSize) {
  const KernelRequirements kernels[] = {requiring("k", 32), requiring("kk", 64), requiring("reqd_sg_size", 8)};
  EXPECT_EQ(names(refused_kernels(kernels, pvc())), (std::vector<std::string>{"kk", "reqd_sg_size"}));
}

TEST(BuildLog, GivenTheCpuDriverRefusingASize_ThenTheReasonIsItsFirstLine) {
  EXPECT_EQ(driver_reason(kCpuDriverLog),
            "error: kernel 'k' requires sub-group size 64 (intel_reqd_sub_group_size), which the pvc profile does "
            "not support; supported sub-group sizes: 16, 32");
}

TEST(BuildLog, GivenIntelsCompilerRefusingASize_ThenTheReasonIsItsFirstLine) {
  EXPECT_EQ(driver_reason(kIntelLog),
            "error: Kernel compiled with required subgroup size 64, which is unsupported on this platform");
}

TEST(BuildLog, GivenTheAdaptersOwnNotes_ThenTheReasonIsTheDriversFirstLine) {
  EXPECT_EQ(driver_reason("zeal: kernel 'a' left out: sub-group size 2 ...\nzeal: kernel 'b' left out: ...\n"
                          "\n  error: something else\nmore\n"),
            "error: something else");
  EXPECT_EQ(driver_reason("zeal: kernel 'a' left out: ...\n"), "");
  EXPECT_EQ(driver_reason(" \n"), "");
}
