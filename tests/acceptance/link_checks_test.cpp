// The dynamic-linking test plan's error cases through zeal's public C++ API: an application kernel
// calling a device function of a shared library (link_checks_lib) compiled for another sub-group size,
// or for a range_type that cannot hold the caller's, is errc::build naming both sides, whether the
// application declares what it expects of the function or only the kernel says it.
// (An unresolved import is tests/runtime/bundle_test.cpp, GivenAnUnresolvedDeviceFunction_...)
#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

extern "C" int link_checks_lib_version();

namespace {

class LinkChecksAcceptance : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(link_checks_lib_version(), 1); // keeps the library, and so its images, loaded
    out_ = zeal::malloc_shared<int>(kItems, q_);
    std::fill_n(out_, kItems, -1);
  }
  void TearDown() override { zeal::free(out_, q_); }

  // Launches `kernel` and expects errc::build with a message holding every one of `parts`, and that
  // nothing ran.
  void expect_link_failure(const char *kernel, const std::vector<std::string> &parts) {
    try {
      q_.parallel_for(zeal::range<1>{kItems}, zeal::get_kernel_id(kernel), out_).wait();
      ADD_FAILURE() << "'" << kernel << "' linked and ran";
    } catch (const zeal::exception &e) {
      EXPECT_EQ(e.code(), zeal::errc::build) << e.what();
      const std::string message = e.what();
      for (const std::string &part : parts)
        EXPECT_NE(message.find(part), std::string::npos) << "message: " << message << "\nexpected it to hold: " << part;
    }
    q_.wait();
    for (size_t i = 0; i < kItems; ++i) ASSERT_EQ(out_[i], -1) << "no work-item of '" << kernel << "' may run";
  }

  // " for device '<name>'", as messages end a program's name.
  std::string for_device() const { return " for device '" + q_.get_device().name() + "'"; }
  uint32_t primary_size() const { return q_.get_device().info<uint32_t>(ZEAL_DEVICE_INFO_PRIMARY_SUB_GROUP_SIZE); }

  static constexpr size_t kItems = 64;
  zeal::queue q_;
  int *out_ = nullptr;
};

TEST_F(LinkChecksAcceptance, GivenACalleeCompiledForSubGroupSize16_WhenAKernelOfSize32CallsIt_ThenBuildErrorNamesBoth) {
  const std::string device = " for device '" + q_.get_device().name() + "'";
  expect_link_failure("calls_sg16_helper",
                      {"program 'acceptance_link_checks_link_checks_sg_app.spv' of ",
                       "acceptance_link_checks" + device + " calls 'sg16_helper' with sub-group size 32, but program "
                       "'zeal_acceptance_link_checks_lib_link_checks_lib.spv' of ",
                       "libzeal_acceptance_link_checks_lib.so" + device + " defines it with sub-group size 16"});
}

TEST_F(LinkChecksAcceptance, GivenACalleeOfRangeTypeInt16_WhenACallerOfRangeTypeIntCallsIt_ThenBuildErrorNamesBoth) {
  const std::string device = " for device '" + q_.get_device().name() + "'";
  expect_link_failure("calls_narrow_helper",
                      {"program 'acceptance_link_checks_link_checks_range_app.spv' of ",
                       "acceptance_link_checks" + device + " calls 'narrow_helper' with up to 2147483647 work-items, "
                       "but program 'zeal_acceptance_link_checks_lib_link_checks_lib.spv' of ",
                       "libzeal_acceptance_link_checks_lib.so" + device + " defines it for at most 32767 (range_type)"});
}

TEST_F(LinkChecksAcceptance, GivenACalleeOfRangeTypeInt_WhenACallerOfRangeTypeInt16CallsIt_ThenItLinksAndRuns) {
  q_.parallel_for(zeal::range<1>{kItems}, zeal::get_kernel_id("calls_wide_helper"), out_).wait();
  for (size_t i = 0; i < kItems; ++i) ASSERT_EQ(out_[i], static_cast<int>(i) + 3) << i;
}

// The rule for an undeclared callee (compiled for the device's primary size) is tested with the size of 16 and 32
// that is not the primary one: 32 on Intel GPUs and the CPU driver, 16 on NVIDIA GPUs.
TEST_F(LinkChecksAcceptance, GivenAnUndeclaredCallee_WhenAKernelOfAnotherSizeCallsIt_ThenBuildErrorNamesBoth) {
  ASSERT_TRUE(primary_size() == 16 || primary_size() == 32) << "the kernels are written for 16 and 32";
  const std::string other = primary_size() == 16 ? "32" : "16";
  const std::string kernel = "calls_plain_helper_sg" + other;
  expect_link_failure(kernel.c_str(),
                      {"kernel '" + kernel + "' of program 'acceptance_link_checks_link_checks_sg" + other +
                           "_app.spv' of ",
                       "acceptance_link_checks" + for_device() + " runs with sub-group size " + other +
                           " (required) and calls 'plain_helper', but function 'plain_helper' of program "
                           "'zeal_acceptance_link_checks_lib_link_checks_lib.spv' of ",
                       "libzeal_acceptance_link_checks_lib.so" + for_device() + " was compiled for sub-group size " +
                           std::to_string(primary_size()) + " (the device's primary size)"});
}

TEST_F(LinkChecksAcceptance, GivenAKernelOfAnotherSizeReachingAnUndeclaredCalleeViaItsHelper_ThenBuildErrorNamesBoth) {
  ASSERT_TRUE(primary_size() == 16 || primary_size() == 32) << "the kernels are written for 16 and 32";
  const bool primary16 = primary_size() == 16;
  const std::string kernel =
      primary16 ? "calls_plain_helper_through_app_helper" : "calls_plain_helper_through_app_helper_sg16";
  expect_link_failure(kernel.c_str(),
                      {"kernel '" + kernel + "' of program 'acceptance_link_checks_link_checks_transitive" +
                           (primary16 ? "" : "16") + "_app.spv' of ",
                       std::string("runs with sub-group size ") + (primary16 ? "32" : "16") +
                           " (required) and calls 'plain_helper', but function 'plain_helper' of program "
                           "'zeal_acceptance_link_checks_lib_link_checks_lib.spv' of ",
                       "was compiled for sub-group size " + std::to_string(primary_size()) +
                           " (the device's primary size)"});
}

TEST_F(LinkChecksAcceptance, GivenACalleeDeclaredForSize32_WhenAKernelOfSize32CallsIt_ThenItRunsAtSize32) {
  q_.parallel_for(zeal::range<1>{kItems}, zeal::get_kernel_id("calls_sg32_helper"), out_).wait();
  for (size_t i = 0; i < kItems; ++i) ASSERT_EQ(out_[i], 100 * static_cast<int>(i) + 32) << i;
}

TEST_F(LinkChecksAcceptance, GivenAnUndeclaredCallee_WhenAKernelRequiringThePrimarySizeCallsIt_ThenItRuns) {
  ASSERT_TRUE(primary_size() == 16 || primary_size() == 32) << "the kernels are written for 16 and 32";
  const std::string kernel = "calls_plain_helper_sg" + std::to_string(primary_size());
  q_.parallel_for(zeal::range<1>{kItems}, zeal::get_kernel_id(kernel.c_str()), out_).wait();
  for (size_t i = 0; i < kItems; ++i) ASSERT_EQ(out_[i], 100 * static_cast<int>(i) + int(primary_size())) << i;
}

TEST_F(LinkChecksAcceptance, GivenACalleeOfRangeTypeInt8_WhenAKernelOfRangeTypeInt16CallsIt_ThenBuildErrorNamesBoth) {
  expect_link_failure("calls_tiny_helper",
                      {"kernel 'calls_tiny_helper' of program 'acceptance_link_checks_link_checks_range_kernel_app.spv' "
                       "of ",
                       "acceptance_link_checks" + for_device() + " runs with up to 32767 work-items (range_type) and "
                       "calls 'tiny_helper', but function 'tiny_helper' of program "
                       "'zeal_acceptance_link_checks_lib_link_checks_lib.spv' of ",
                       "libzeal_acceptance_link_checks_lib.so" + for_device() + " is defined for at most 127 "
                       "(range_type)"});
}

} // namespace
