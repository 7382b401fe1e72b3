// The device facts link checks and kernel stripping need, and the built-in profiles (host, pvc, dg2).
#pragma once

#include "module_linker/module_info.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace zeal::module_linker {

struct DeviceProfile {
  std::string name;
  std::vector<uint32_t> sub_group_sizes;    // ascending
  uint32_t primary_sub_group_size = 0;      // the size a kernel or function without one is compiled for
  uint32_t features = 0;                    // Feature bits the device supports

  bool supports_sub_group_size(uint32_t size) const;
};

// host, pvc, dg2: the rows of common/device_profiles.hpp, which says where each number comes from.
std::span<const DeviceProfile> device_profiles();
const DeviceProfile *find_device_profile(std::string_view name);

// Why the device cannot run the entry point ("needs fp64", "requires sub-group size 64, which
// device 'dg2' does not support (sizes: 8, 16, 32)"), or empty when it can. `features` are the
// kernel's Feature bits, which a link may widen beyond ep.features with what it calls.
std::vector<std::string> kernel_unsupported_reasons(const EntryPoint &ep, uint32_t features,
                                                    const DeviceProfile &device);

} // namespace zeal::module_linker
