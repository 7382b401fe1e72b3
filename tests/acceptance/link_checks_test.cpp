// The dynamic-linking test plan's error cases through zeal's public C++ API: an application kernel
// calling a device function of a shared library (link_checks_lib) compiled for another sub-group size,
// or for a range_type that cannot hold the caller's, is errc::build naming both sides.
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

} // namespace
