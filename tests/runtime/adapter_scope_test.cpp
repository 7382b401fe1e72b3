// The loader's two scopes under a selector that excludes Level Zero: its adapter is not opened until
// every device is asked for, then opened once. ctest runs this with ONEAPI_DEVICE_SELECTOR=opencl:*.
#include "loader/loader.hpp"

#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <algorithm>
#include <string>

namespace {

using zeal::detail::AdapterScope;

// Whether the process has the Level Zero adapter open, asked without opening it.
bool level_zero_adapter_is_open() {
  const std::string path = std::string(ZEAL_TEST_LIB_DIR) + "/libzeal_adapter_level_zero.so";
  void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (library == nullptr) return false;
  dlclose(library); // drops only the reference RTLD_NOLOAD took
  return true;
}

TEST(AdapterScope, GivenASelectorExcludingLevelZero_ThenOnlyEveryDeviceLoadsItsAdapter_AndOnlyOnce) {
  ASSERT_FALSE(level_zero_adapter_is_open()) << "this test must run first in its process";
  EXPECT_TRUE(zeal::device::get_devices().empty());
  EXPECT_TRUE(zeal::detail::adapters(AdapterScope::selected).empty());
  EXPECT_FALSE(level_zero_adapter_is_open()) << "the selected scope opened an adapter the selector excludes";

  const auto &all = zeal::detail::adapters(AdapterScope::all);
  ASSERT_EQ(std::count_if(all.begin(), all.end(), [](auto *a) { return a->backend == "level_zero"; }), 1);
  EXPECT_TRUE(level_zero_adapter_is_open());
  EXPECT_EQ(&zeal::detail::adapters(AdapterScope::all), &all);
  EXPECT_FALSE(zeal::detail::devices(AdapterScope::all).empty());

  // The selected scope stays as it was: zeal::device() and get_devices() still see nothing.
  EXPECT_TRUE(zeal::detail::adapters(AdapterScope::selected).empty());
  EXPECT_TRUE(zeal::detail::devices(AdapterScope::selected).empty());
  EXPECT_TRUE(zeal::device::get_devices().empty());
  EXPECT_THROW((void)zeal::device(), zeal::exception);
}

} // namespace
