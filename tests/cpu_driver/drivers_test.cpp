// Several drivers from the one CPU driver library (ZEAL_CPU_DRIVERS, with ZEAL_CPU_DEVICES and ZEAL_CPU_THREADS;
// ctest runs this binary with one driver and with two): as a machine with two Level Zero drivers, each lists its
// own devices, has its own identity and share of the threads, and keeps its contexts to its own devices.
#include "test_support.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

namespace zeal::cpu::test {
namespace {

unsigned from_environment(const char *name, unsigned unset) {
  const char *text = std::getenv(name);
  return text != nullptr ? unsigned(std::atoi(text)) : unset;
}

// The n-th of `parts` even shares of `total`, never 0: how the driver shares threads out.
unsigned share(unsigned total, unsigned parts, unsigned n) {
  return std::max(1u, total / parts + (n < total % parts ? 1u : 0u));
}

class Drivers : public ::testing::Test {
protected:
  void SetUp() override {
    ZE_ASSERT_OK(zeInit(0));
    uint32_t count = 0;
    ZE_ASSERT_OK(zeDriverGet(&count, nullptr));
    drivers.resize(count);
    ZE_ASSERT_OK(zeDriverGet(&count, drivers.data()));
    for (ze_driver_handle_t driver : drivers) {
      uint32_t n = 0;
      ZE_ASSERT_OK(zeDeviceGet(driver, &n, nullptr));
      auto &list = devices.emplace_back(n);
      ZE_ASSERT_OK(zeDeviceGet(driver, &n, list.data()));
    }
  }

  std::vector<ze_driver_handle_t> drivers;
  std::vector<std::vector<ze_device_handle_t>> devices; // devices[d]: driver d's root devices
  const unsigned expected_drivers = from_environment("ZEAL_CPU_DRIVERS", 1);
  const unsigned roots = from_environment("ZEAL_CPU_DEVICES", 1);
};

TEST_F(Drivers, EachDriverListsItsOwnDevicesWithItsShareOfTheThreads) {
  ASSERT_EQ(expected_drivers, drivers.size());
  const unsigned threads = from_environment("ZEAL_CPU_THREADS", 0);
  ASSERT_NE(0u, threads) << "ctest sets ZEAL_CPU_THREADS so that the shares do not depend on the CPU";
  std::set<std::string> driver_uuids, device_uuids, names;
  for (size_t d = 0; d < drivers.size(); ++d) {
    ze_driver_properties_t dp{};
    dp.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES;
    ZE_ASSERT_OK(zeDriverGetProperties(drivers[d], &dp));
    driver_uuids.insert(std::string(reinterpret_cast<const char *>(dp.uuid.id), sizeof(dp.uuid.id)));
    ASSERT_EQ(roots, devices[d].size()) << "driver " << d;
    const unsigned driver_threads = share(threads, expected_drivers, unsigned(d));
    for (size_t r = 0; r < devices[d].size(); ++r) {
      const ze_device_properties_t p = device_properties(devices[d][r]);
      device_uuids.insert(std::string(reinterpret_cast<const char *>(p.uuid.id), sizeof(p.uuid.id)));
      names.insert(p.name);
      if (expected_drivers > 1) {
        EXPECT_NE(nullptr, std::strstr(p.name, ("driver " + std::to_string(d) + " ").c_str())) << p.name;
      }
      EXPECT_EQ(share(driver_threads, roots, unsigned(r)), p.numEUsPerSubslice) << p.name;
    }
  }
  EXPECT_EQ(drivers.size(), driver_uuids.size()) << "each driver has a UUID of its own";
  EXPECT_EQ(drivers.size() * roots, device_uuids.size()) << "each device has a UUID of its own";
  EXPECT_EQ(drivers.size() * roots, names.size()) << "each device has a name of its own";
}

// Every driver runs a kernel on each of its devices, in a context of its own.
TEST_F(Drivers, EveryDriverRunsKernelsOnItsDevices) {
  for (size_t d = 0; d < drivers.size(); ++d) {
    auto desc = ze_desc<ze_context_desc_t>();
    ze_context_handle_t context = nullptr;
    ZE_ASSERT_OK(zeContextCreateEx(drivers[d], &desc, uint32_t(devices[d].size()), devices[d].data(), &context));
    for (ze_device_handle_t device : devices[d]) {
      SCOPED_TRACE(device_properties(device).name);
      ze_device_mem_alloc_desc_t device_desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
      ze_host_mem_alloc_desc_t host_desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
      int *out = nullptr;
      ZE_ASSERT_OK(zeMemAllocShared(context, &device_desc, &host_desc, 256 * sizeof(int), 64, device,
                                    reinterpret_cast<void **>(&out)));
      const int value = 40 + int(d);
      fill_with_kernel(context, device, out, 256, value);
      EXPECT_EQ(256, std::count(out, out + 256, value));
      ZE_EXPECT_OK(zeMemFree(context, out));
    }
    ZE_EXPECT_OK(zeContextDestroy(context));
  }
}

// A context holds devices of its own driver: another driver's device is refused, alone or among its own.
TEST_F(Drivers, AContextRefusesTheDevicesOfAnotherDriver) {
  if (drivers.size() < 2) {
    // One driver: every device is its own, and a context over all of them is made.
    auto desc = ze_desc<ze_context_desc_t>();
    ze_context_handle_t context = nullptr;
    ZE_ASSERT_OK(zeContextCreateEx(drivers[0], &desc, uint32_t(devices[0].size()), devices[0].data(), &context));
    ZE_EXPECT_OK(zeContextDestroy(context));
    return;
  }
  auto desc = ze_desc<ze_context_desc_t>();
  ze_context_handle_t context = nullptr;
  std::vector<ze_device_handle_t> mixed = {devices[0][0], devices[1][0]};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeContextCreateEx(drivers[0], &desc, 1, &devices[1][0], &context));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeContextCreateEx(drivers[1], &desc, 2, mixed.data(), &context));
  EXPECT_EQ(nullptr, context);
}

} // namespace
} // namespace zeal::cpu::test
