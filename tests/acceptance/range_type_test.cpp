// sycl_ext_oneapi_range_type through zeal's public C++ API: a kernel declaring range_type (image metadata
// from zeal_add_device_code's KERNEL_PROPERTIES) launched with more work-items than the type holds is
// errc::nd_range, naming the kernel and the numbers, and nothing runs.
#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace {

class RangeTypeAcceptance : public ::testing::Test {
protected:
  void SetUp() override {
    count_ = zeal::malloc_shared<uint32_t>(1, q_);
    one_ = zeal::malloc_shared<uint32_t>(1, q_);
    *count_ = 0;
    *one_ = 0;
  }
  void TearDown() override {
    zeal::free(count_, q_);
    zeal::free(one_, q_);
  }

  // Launches and expects errc::nd_range with exactly `message`, and that no work-item ran.
  template <int Dims, class... Args>
  void expect_refused(const zeal::nd_range<Dims> &ndr, const char *kernel, const std::string &message,
                      const Args &...args) {
    try {
      q_.parallel_for(ndr, zeal::get_kernel_id(kernel), args...).wait();
      ADD_FAILURE() << "the launch of '" << kernel << "' was accepted";
    } catch (const zeal::exception &e) {
      EXPECT_EQ(e.code(), zeal::errc::nd_range) << e.what();
      EXPECT_EQ(std::string(e.what()), message);
    }
    q_.wait();
    EXPECT_EQ(*count_, 0u) << "no work-item of '" << kernel << "' may run";
    EXPECT_EQ(*one_, 0u);
  }

  zeal::queue q_;
  uint32_t *count_ = nullptr;
  uint32_t *one_ = nullptr;
};

TEST_F(RangeTypeAcceptance, GivenRangeTypeInt_WhenLaunchedWith2Pow31Plus1WorkItemsIn1D_ThenNdRangeAndNothingRuns) {
  expect_refused(zeal::nd_range<1>({(size_t{1} << 31) + 1}, {1}), "int_range",
                 "kernel 'int_range' declares a range_type of at most 2147483647 work-items, but the launch has "
                 "2147483649 (global size {2147483649})",
                 count_, one_);
}

TEST_F(RangeTypeAcceptance, GivenRangeTypeInt_WhenA2DRangeMultipliesTo2Pow31_ThenNdRangeAndNothingRuns) {
  expect_refused(zeal::nd_range<2>({65536, 32768}, {256, 1}), "int_range",
                 "kernel 'int_range' declares a range_type of at most 2147483647 work-items, but the launch has "
                 "2147483648 (global size {65536, 32768})",
                 count_, one_);
}

TEST_F(RangeTypeAcceptance, GivenRangeTypeInt_WhenA3DRangeOverflows64Bits_ThenNdRangeAndNothingRuns) {
  const size_t big = size_t{1} << 32;
  expect_refused(zeal::nd_range<3>({big, big, big}, {1, 1, 1}), "int_range",
                 "kernel 'int_range' declares a range_type of at most 2147483647 work-items, but the launch has "
                 "more than 2^64 (global size {4294967296, 4294967296, 4294967296})",
                 count_, one_);
}

TEST_F(RangeTypeAcceptance, GivenRangeTypeInt_WhenLaunchedWithOneWorkItem_ThenItRuns) {
  q_.parallel_for(zeal::nd_range<1>({1}, {1}), zeal::get_kernel_id("int_range"), count_, one_).wait();
  EXPECT_EQ(*count_, 1u);
  EXPECT_EQ(*one_, 1u);
}

TEST_F(RangeTypeAcceptance, GivenRangeTypeInt8_WhenLaunchedWith127WorkItems_ThenAllRun) {
  q_.parallel_for(zeal::nd_range<1>({127}, {127}), zeal::get_kernel_id("int8_range"), count_).wait();
  EXPECT_EQ(*count_, 127u);
}

TEST_F(RangeTypeAcceptance, GivenRangeTypeInt8_WhenLaunchedWith128WorkItems_ThenNdRangeAndNothingRuns) {
  expect_refused(zeal::nd_range<2>({64, 2}, {64, 1}), "int8_range",
                 "kernel 'int8_range' declares a range_type of at most 127 work-items, but the launch has 128 "
                 "(global size {64, 2})",
                 count_);
}

} // namespace
