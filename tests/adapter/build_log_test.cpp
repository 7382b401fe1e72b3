// Driver build logs read by the adapter's retry path, on the texts real drivers write (no Level Zero).
// Through the C ABI the path cannot be reached: metadata is merged with the SPIR-V's own
// SubgroupSize, so every size a device does not list is refused before the driver sees it.
#include "adapter/build_log.hpp"

#include <gtest/gtest.h>

using namespace zeal::adapter;

namespace {

KernelRequirements requiring(const char *name, uint32_t sub_group_size) {
  KernelRequirements k;
  k.name = name;
  k.sub_group_size = sub_group_size;
  return k;
}

// What zeal's CPU driver writes when a profile lacks a kernel's size.
constexpr const char *kCpuDriverLog =
    "error: kernel 'k' requires sub-group size 64 (intel_reqd_sub_group_size), which the pvc profile does not "
    "support; supported sub-group sizes: 16, 32\n";

// What Intel's compiler (IGC) writes: the kernel on a line of its own after the error.
constexpr const char *kIntelLog = "error: Kernel compiled with required subgroup size 64, which is unsupported on "
                                  "this platform\nin kernel: 'k'\nerror: backend compiler failed build.\n";

} // namespace

TEST(BuildLog, GivenTheCpuDriverRefusingASize_ThenTheKernelItNamesIsBlamed) {
  const KernelRequirements kernels[] = {requiring("other", 16), requiring("k", 64)};
  const KernelRequirements *blamed = kernel_blamed_for_sub_group_size(kCpuDriverLog, kernels, {});
  ASSERT_NE(blamed, nullptr);
  EXPECT_EQ(blamed->name, "k");
  EXPECT_EQ(driver_reason(kCpuDriverLog),
            "error: kernel 'k' requires sub-group size 64 (intel_reqd_sub_group_size), which the pvc profile does "
            "not support; supported sub-group sizes: 16, 32");
}

TEST(BuildLog, GivenIntelsCompilerRefusingASize_ThenTheKernelOfItsInKernelLineIsBlamed) {
  const KernelRequirements kernels[] = {requiring("k", 64)};
  const KernelRequirements *blamed = kernel_blamed_for_sub_group_size(kIntelLog, kernels, {});
  ASSERT_NE(blamed, nullptr);
  EXPECT_EQ(blamed->name, "k");
  EXPECT_EQ(driver_reason(kIntelLog),
            "error: Kernel compiled with required subgroup size 64, which is unsupported on this platform");
}

TEST(BuildLog, GivenDoubleQuotedName_ThenItIsBlamedToo) {
  const KernelRequirements kernels[] = {requiring("reqd_sg_size", 8)};
  EXPECT_NE(kernel_blamed_for_sub_group_size("error: kernel \"reqd_sg_size\": Required Sub_Group size 8 is not "
                                             "supported",
                                             kernels, {}),
            nullptr);
}

TEST(BuildLog, GivenAKernelWithoutARequiredSize_ThenItIsNeverBlamed) {
  // 'k' is named, but only a kernel that requires a size can be the cause.
  const KernelRequirements kernels[] = {requiring("k", 0)};
  EXPECT_EQ(kernel_blamed_for_sub_group_size(kCpuDriverLog, kernels, {}), nullptr);
}

TEST(BuildLog, GivenALogNotAboutSubGroups_ThenNoKernelIsBlamed) {
  const KernelRequirements kernels[] = {requiring("k", 64)};
  EXPECT_EQ(kernel_blamed_for_sub_group_size("error: undefined reference to 'f'\nin kernel: 'k'\n", kernels, {}),
            nullptr);
  EXPECT_EQ(kernel_blamed_for_sub_group_size("", kernels, {}), nullptr);
}

TEST(BuildLog, GivenANameThatIsPartOfAnother_ThenOnlyTheQuotedOneIsBlamed) {
  const KernelRequirements kernels[] = {requiring("k", 64), requiring("kk", 64)};
  const KernelRequirements *blamed = kernel_blamed_for_sub_group_size(
      "error: kernel 'kk' requires sub-group size 64 (intel_reqd_sub_group_size), which the pvc profile does not "
      "support; supported sub-group sizes: 16, 32",
      kernels, {});
  ASSERT_NE(blamed, nullptr);
  EXPECT_EQ(blamed->name, "kk");
}

TEST(BuildLog, GivenTheBlamedKernelWasRefusedAlready_ThenItIsNotBlamedAgain) {
  // The retry loop ends: a kernel already left out cannot be the cause a second time.
  const KernelRequirements kernels[] = {requiring("k", 64)};
  const std::string refused[] = {"k"};
  EXPECT_EQ(kernel_blamed_for_sub_group_size(kCpuDriverLog, kernels, refused), nullptr);
}

TEST(BuildLog, GivenTheAdaptersOwnNotes_ThenTheReasonIsTheDriversFirstLine) {
  EXPECT_EQ(driver_reason("zeal: kernel 'a' left out: sub-group size 2 ...\nzeal: kernel 'b' left out: ...\n"
                          "\n  error: something else\nmore\n"),
            "error: something else");
  EXPECT_EQ(driver_reason("zeal: kernel 'a' left out: ...\n"), "");
  EXPECT_EQ(driver_reason(" \n"), "");
}
