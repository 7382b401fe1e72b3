// ZE_AFFINITY_MASK: which of the CPU driver's devices a process sees. Each ctest entry sets a mask and
// ZEAL_TEST_EXPECTED_DEVICES, the devices it must leave: per root device "<position>:<EUs>[<sub-device ids>]",
// joined by " + ", where the position is what the device's name says between "zeal CPU " and " (" (the
// host profile has an EU per thread).
#include "test_support.hpp"
#include "tests/support/device_names.hpp"

#include <cstdlib>
#include <string>

namespace zeal::cpu::test {
namespace {

using Affinity = CpuDriver;

TEST_F(Affinity, TheMaskLeavesTheDevicesItNames) {
  const char *expected = std::getenv("ZEAL_TEST_EXPECTED_DEVICES");
  ASSERT_NE(nullptr, expected) << "ctest sets ZEAL_TEST_EXPECTED_DEVICES";
  uint32_t count = 0;
  ZE_ASSERT_OK(zeDeviceGet(driver, &count, nullptr));
  std::vector<ze_device_handle_t> roots(count);
  ZE_ASSERT_OK(zeDeviceGet(driver, &count, roots.data()));
  std::string seen;
  for (ze_device_handle_t root : roots) {
    ze_device_properties_t p = device_properties(root);
    EXPECT_EQ(0u, p.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE) << p.name << " is listed as a root device";
    seen += (seen.empty() ? "" : " + ") + zeal::test::device_position(p.name) + ":" +
            std::to_string(p.numEUsPerSubslice) + "[";
    std::string ids;
    for (ze_device_handle_t sub : sub_devices_of(root)) {
      ze_device_properties_t s = device_properties(sub);
      EXPECT_NE(0u, s.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE) << s.name;
      ids += (ids.empty() ? "" : ",") + std::to_string(s.subdeviceId);
    }
    seen += ids + "]";
  }
  const char *mask = std::getenv("ZE_AFFINITY_MASK");
  EXPECT_EQ(std::string(expected), seen) << "ZE_AFFINITY_MASK=" << (mask != nullptr ? mask : "(unset)");
}

} // namespace
} // namespace zeal::cpu::test
