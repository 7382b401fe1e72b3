// The built-in device profiles and the per-kernel device check.
#include "module_linker/device_profile.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace zeal::module_linker {
namespace {

constexpr uint32_t kAll = kFeatureFp64 | kFeatureFp16 | kFeatureInt64Atomics | kFeatureSubgroupShuffle;

// Where the numbers come from:
// - host: zeal's own CPU driver (cpu_driver/runtime/device.cpp reports sub-group sizes 4..64 and
//   the FP16, FP64 and INT64_ATOMICS module flags); 16 is the size its compiler picks by default.
// - pvc (Intel Data Center GPU Max): the compute-runtime reports subGroupSizes {16, 32}, fp64 and
//   64-bit atomics; SIMD16 is its native width, so 16 is the primary size.
// - dg2 (Intel Arc A-series, Xe-HPG): subGroupSizes {8, 16, 32}; no native fp64 (the driver
//   does not report ZE_DEVICE_MODULE_FLAG_FP64); 64-bit integer atomics are reported; 16 is the
//   size IGC compiles SYCL kernels for when none is required.
// All Intel GPUs implement cl_intel_subgroups, hence SubgroupShuffleINTEL.
const std::vector<DeviceProfile> &profiles() {
  static const std::vector<DeviceProfile> table = {
      {"host", {4, 8, 16, 32, 64}, 16, kAll},
      {"pvc", {16, 32}, 16, kAll},
      {"dg2", {8, 16, 32}, 16, kAll & ~kFeatureFp64},
  };
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
