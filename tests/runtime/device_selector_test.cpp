// ONEAPI_DEVICE_SELECTOR: the grammar, table-driven, and which devices each selector lets through.
#include "loader/device_selector.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using zeal::detail::parse_device_selector;

struct Device {
  const char *backend;
  uint32_t index;
  zeal_device_type_t type;
};
constexpr Device kCpu0{"level_zero", 0, ZEAL_DEVICE_TYPE_CPU};
constexpr Device kGpu1{"level_zero", 1, ZEAL_DEVICE_TYPE_GPU};
constexpr Device kOpenclCpu0{"opencl", 0, ZEAL_DEVICE_TYPE_CPU};

struct AcceptCase {
  const char *selector;
  bool cpu0, gpu1, opencl_cpu0;
};

class SelectorAccepts : public ::testing::TestWithParam<AcceptCase> {};

TEST_P(SelectorAccepts, LetsThroughExactlyTheExpectedDevices) {
  const AcceptCase &c = GetParam();
  auto selector = parse_device_selector(c.selector);
  ASSERT_TRUE(selector.ok()) << selector.error().message;
  auto accepts = [&](const Device &d) { return selector.value().accepts(d.backend, d.index, d.type); };
  EXPECT_EQ(accepts(kCpu0), c.cpu0) << c.selector;
  EXPECT_EQ(accepts(kGpu1), c.gpu1) << c.selector;
  EXPECT_EQ(accepts(kOpenclCpu0), c.opencl_cpu0) << c.selector;
}

INSTANTIATE_TEST_SUITE_P(
    Grammar, SelectorAccepts,
    ::testing::Values(AcceptCase{"level_zero:*", true, true, false}, AcceptCase{"*:*", true, true, true},
                      AcceptCase{"level_zero:cpu", true, false, false}, AcceptCase{"level_zero:gpu", false, true, false},
                      AcceptCase{"level_zero:1", false, true, false}, AcceptCase{"level_zero:0,1", true, true, false},
                      AcceptCase{"*:cpu", true, false, true}, AcceptCase{"level_zero:fpga", false, false, false},
                      AcceptCase{"opencl:*;level_zero:gpu", false, true, true},
                      AcceptCase{"!level_zero:gpu", true, false, true}, AcceptCase{"!level_zero:*", false, false, true},
                      AcceptCase{"level_zero:*;!level_zero:0", false, true, false},
                      AcceptCase{"!level_zero:0;level_zero:*", false, true, false},
                      AcceptCase{"LEVEL_ZERO:CPU", true, false, false},
                      AcceptCase{"ext_oneapi_level_zero:cpu", true, false, false},
                      AcceptCase{"cuda:*", false, false, false}, AcceptCase{"hip:gpu;native_cpu:*", false, false, false},
                      AcceptCase{"level_zero:0.0", false, false, false}, AcceptCase{"level_zero:*.*", false, false, false},
                      AcceptCase{"level_zero:cpu;", true, false, false}));

struct ErrorCase {
  const char *selector;
  const char *message_part;
};

class SelectorRejects : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(SelectorRejects, NamesTheBadTermAndWhy) {
  const ErrorCase &c = GetParam();
  auto selector = parse_device_selector(c.selector);
  ASSERT_FALSE(selector.ok()) << c.selector;
  EXPECT_EQ(selector.error().code, ZEAL_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(selector.error().message.find(c.message_part), std::string::npos) << selector.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Grammar, SelectorRejects,
    ::testing::Values(ErrorCase{"", "set but empty"}, ErrorCase{"level_zero", "term 'level_zero' has no ':'"},
                      ErrorCase{"vulkan:*", "unknown backend 'vulkan'"},
                      ErrorCase{"level_zero:tpu", "unknown device filter 'tpu'"},
                      ErrorCase{"level_zero:", "empty device filter"},
                      ErrorCase{"level_zero:0,,1", "empty device filter"},
                      ErrorCase{"level_zero:-1", "unknown device filter '-1'"},
                      ErrorCase{"level_zero:0.x", "'0.x' is not a sub-device filter"},
                      ErrorCase{"level_zero:*.0", "needs a device index"},
                      ErrorCase{";level_zero:*", "term 1 is empty"}));

TEST(Selector, BackendsTheSelectorExcludesNeedNotLoad) {
  auto only_opencl = parse_device_selector("opencl:*");
  ASSERT_TRUE(only_opencl.ok());
  EXPECT_FALSE(only_opencl.value().may_accept_backend("level_zero"));
  auto discard_all = parse_device_selector("!level_zero:*");
  ASSERT_TRUE(discard_all.ok());
  EXPECT_FALSE(discard_all.value().may_accept_backend("level_zero"));
  auto discard_gpu = parse_device_selector("!level_zero:gpu");
  ASSERT_TRUE(discard_gpu.ok());
  EXPECT_TRUE(discard_gpu.value().may_accept_backend("level_zero"));
  EXPECT_TRUE(zeal::detail::DeviceSelector().may_accept_backend("level_zero"));
}

} // namespace
