// The devices zeal's C ABI offers, for the tests that look one up by what it is.
#pragma once

#include <zeal/zeal_adapter.h>

#include <cstdint>
#include <vector>

namespace zeal_test {

// Every device of every platform of `adapter`, platform by platform; none when the platforms cannot be listed.
inline std::vector<zeal_device_handle_t> every_device(const zeal_adapter_dispatch_t &d, zeal_adapter_handle_t adapter) {
  uint32_t n = 0;
  if (d.platformGet(adapter, &n, nullptr) != ZEAL_RESULT_SUCCESS) return {};
  std::vector<zeal_platform_handle_t> platforms(n);
  if (d.platformGet(adapter, &n, platforms.data()) != ZEAL_RESULT_SUCCESS) return {};
  std::vector<zeal_device_handle_t> devices;
  for (zeal_platform_handle_t p : platforms) {
    uint32_t m = 0;
    d.deviceGet(p, ZEAL_DEVICE_TYPE_ALL, &m, nullptr);
    std::vector<zeal_device_handle_t> some(m);
    d.deviceGet(p, ZEAL_DEVICE_TYPE_ALL, &m, some.data());
    devices.insert(devices.end(), some.begin(), some.end());
  }
  return devices;
}

} // namespace zeal_test
