// ONEAPI_DEVICE_SELECTOR's device and sub-device terms over the CPU driver split into two root devices of two
// sub-devices each (ctest sets ZEAL_CPU_DEVICES, ZEAL_CPU_SUBDEVICES and the selector). ZEAL_TEST_EXPECTED_DEVICES
// lists the devices the selector must leave, in order, joined by " + ": what each name says between "zeal CPU "
// and " (", e.g. "device 0 sub-device 1".
#include "tests/support/device_names.hpp"

#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

using zeal::test::device_position;

TEST(SubDeviceSelection, TheSelectorLeavesTheDevicesAndSubDevicesItNames) {
  const char *expected = std::getenv("ZEAL_TEST_EXPECTED_DEVICES");
  ASSERT_NE(nullptr, expected) << "ctest sets ZEAL_TEST_EXPECTED_DEVICES";
  std::string seen;
  for (const zeal::device &d : zeal::device::get_devices()) {
    seen += (seen.empty() ? "" : " + ") + device_position(d.name());
    EXPECT_TRUE(d.is_cpu()) << d.name();
  }
  const char *selector = std::getenv("ONEAPI_DEVICE_SELECTOR");
  EXPECT_EQ(std::string(expected), seen) << "ONEAPI_DEVICE_SELECTOR=" << (selector != nullptr ? selector : "(unset)");
  // Whatever the selector, asking for every device gives the root devices (ZEAL_TEST_EXPECTED_ROOTS when the
  // CPU driver library reports several drivers).
  std::string roots;
  for (const zeal::device &d : zeal::device::get_devices(zeal::device_type::all, zeal::selector_policy::ignore))
    roots += (roots.empty() ? "" : " + ") + device_position(d.name());
  const char *expected_roots = std::getenv("ZEAL_TEST_EXPECTED_ROOTS");
  EXPECT_EQ(expected_roots != nullptr ? expected_roots : "device 0 + device 1", roots);
}

// A queue on each visible device, root or sub-device, builds the registered kernel for it and runs it.
TEST(SubDeviceSelection, EveryVisibleDeviceRunsAKernelOnItsOwnQueue) {
  for (const zeal::device &d : zeal::device::get_devices()) {
    SCOPED_TRACE(d.name());
    zeal::queue q(d);
    constexpr size_t n = 3000;
    float *a = zeal::malloc_shared<float>(n, q);
    float *b = zeal::malloc_shared<float>(n, q);
    float *c = zeal::malloc_shared<float>(n, q);
    ASSERT_NE(nullptr, c);
    for (size_t i = 0; i < n; ++i) {
      a[i] = float(i);
      b[i] = 0.25f * float(i);
      c[i] = -1.0f;
    }
    q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("vector_add"), a, b, c).wait();
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(a[i] + b[i], c[i]) << i;
    zeal::free(a, q);
    zeal::free(b, q);
    zeal::free(c, q);
  }
}

} // namespace
