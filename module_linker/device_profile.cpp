// The built-in device profiles, as module_linker sees them, and the per-kernel device check.
#include "module_linker/device_profile.hpp"

#include "common/device_profiles.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace zeal::module_linker {
namespace {

// The rows of common/device_profiles.hpp, the one table the CPU driver reads too, with their features as bits.
const std::vector<DeviceProfile> &profiles() {
  static const std::vector<DeviceProfile> table = [] {
    std::vector<DeviceProfile> out;
    for (const DeviceProfileRow &row : kDeviceProfiles) {
      auto bit = [](bool has, Feature f) { return has ? static_cast<uint32_t>(f) : 0u; };
      uint32_t features = bit(row.fp64, kFeatureFp64) | bit(row.fp16, kFeatureFp16) |
                          bit(row.int64_atomics, kFeatureInt64Atomics) |
                          bit(row.sub_group_shuffle, kFeatureSubgroupShuffle);
      out.push_back({row.name, {row.sub_group_sizes.begin(), row.sub_group_sizes.end()},
                     row.primary_sub_group_size, features});
    }
    return out;
  }();
  return table;
}

} // namespace

bool DeviceProfile::supports_sub_group_size(uint32_t size) const {
  return std::find(sub_group_sizes.begin(), sub_group_sizes.end(), size) != sub_group_sizes.end();
}

std::span<const DeviceProfile> device_profiles() { return profiles(); }

const DeviceProfile *find_device_profile(std::string_view name) {
  for (const DeviceProfile &p : profiles())
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<std::string> kernel_unsupported_reasons(const EntryPoint &ep, uint32_t features,
                                                    const DeviceProfile &device) {
  std::vector<std::string> reasons;
  if (ep.required_sub_group_size && !device.supports_sub_group_size(*ep.required_sub_group_size))
    reasons.push_back(fmt::format("requires sub-group size {}, which device '{}' does not support (sizes: {})",
                                  *ep.required_sub_group_size, device.name, fmt::join(device.sub_group_sizes, ", ")));
  uint32_t missing = features & ~device.features;
  if (missing != 0)
    reasons.push_back(fmt::format("uses {}, which device '{}' does not support", feature_names(missing), device.name));
  return reasons;
}

} // namespace zeal::module_linker
