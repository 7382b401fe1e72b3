// ONEAPI_DEVICE_SELECTOR applied by the runtime: ctest runs this binary under several selectors.
#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

std::string selector() {
  const char *s = std::getenv("ONEAPI_DEVICE_SELECTOR");
  return s != nullptr ? s : "";
}

TEST(Selection, TheVisibleDevicesFollowTheSelector) {
  std::string sel = selector();
  if (sel == "level_zero:cpu" || sel == "*:*" || sel == "!level_zero:gpu") {
    auto devices = zeal::device::get_devices();
    ASSERT_FALSE(devices.empty()) << sel;
    for (const auto &d : devices) EXPECT_TRUE(d.is_cpu()) << d.name();
    EXPECT_TRUE(zeal::device().is_cpu());
  } else if (sel == "level_zero:gpu" || sel == "!level_zero:*" || sel == "opencl:*") {
    auto devices = zeal::device::get_devices();
    // On a machine with an Intel GPU, level_zero:gpu finds it and nothing else.
    if (sel == "level_zero:gpu" && !devices.empty()) {
      for (const auto &d : devices) EXPECT_TRUE(d.is_gpu()) << d.name();
      return;
    }
    EXPECT_TRUE(devices.empty()) << sel;
    try {
      zeal::device d;
      FAIL() << "expected no device under " << sel;
    } catch (const zeal::exception &e) {
      EXPECT_EQ(e.code(), zeal::errc::platform);
      EXPECT_NE(std::string(e.what()).find("ONEAPI_DEVICE_SELECTOR='" + sel + "'"), std::string::npos) << e.what();
    }
  } else if (sel == "level_zero:banana") {
    try {
      (void)zeal::device::get_devices();
      FAIL() << "expected a malformed-selector error";
    } catch (const zeal::exception &e) {
      EXPECT_EQ(e.code(), zeal::errc::invalid);
      EXPECT_NE(std::string(e.what()).find("unknown device filter 'banana'"), std::string::npos) << e.what();
    }
  } else {
    FAIL() << "selection_test does not know selector '" << sel << "'";
  }
}

} // namespace
