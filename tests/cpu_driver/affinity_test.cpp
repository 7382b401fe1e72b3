// ZE_AFFINITY_MASK: which of the CPU driver's devices a process sees. Each ctest entry sets a mask and
// ZEAL_TEST_EXPECTED_DEVICES, the devices it must leave: per root device "<position>:<EUs>[<sub-device ids>]",
// joined by " + ", where the position is what the device's name says between "zeal CPU " and " (" (the
// host profile has an EU per thread).
#include "test_support.hpp"

#include <cstdlib>
#include <string>

namespace zeal::cpu::test {
namespace {

ze_device_properties_t properties_of(ze_device_handle_t device) {
  ze_device_properties_t p{};
  p.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetProperties(device, &p));
  return p;
}

std::string position(const ze_device_properties_t &p) {
  std::string name = p.name;
  const std::string prefix = "zeal CPU ";
  if (name.rfind(prefix, 0) != 0 || name.find(" (") == std::string::npos) return name;
  return name.substr(prefix.size(), name.find(" (") - prefix.size());
}

std::vector<ze_device_handle_t> sub_devices(ze_device_handle_t device) {
  uint32_t count = 0;
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetSubDevices(device, &count, nullptr));
  std::vector<ze_device_handle_t> subs(count);
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetSubDevices(device, &count, subs.data()));
  return subs;
}

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
    ze_device_properties_t p = properties_of(root);
    EXPECT_EQ(0u, p.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE) << p.name << " is listed as a root device";
    seen += (seen.empty() ? "" : " + ") + position(p) + ":" + std::to_string(p.numEUsPerSubslice) + "[";
    std::string ids;
    for (ze_device_handle_t sub : sub_devices(root)) {
      ze_device_properties_t s = properties_of(sub);
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
