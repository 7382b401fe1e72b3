// Pure checks of a launch against kernel and device limits (no Level Zero; unit-tested on their own).
#pragma once

#include "adapter/core/metadata.hpp"
#include "common/result.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace zeal::adapter {

struct DeviceLimits {
  std::string name;
  size_t max_work_group_size = 0;
  std::array<size_t, 3> max_work_item_sizes{};
  std::array<size_t, 3> max_group_count{};
  std::vector<uint32_t> sub_group_sizes;
};

struct KernelLimits {
  std::string name;
  size_t max_work_group_size = 0;                 // 0: only the device limit applies
  std::array<size_t, 3> required_work_group_size{}; // zeros: none required
  uint32_t required_sub_group_size = 0;           // 0: none required
};

struct NdRange {
  uint32_t work_dim = 1;
  std::array<size_t, 3> global{1, 1, 1};
  std::array<size_t, 3> local{1, 1, 1};  // zeros in the used dimensions: the adapter chooses
  std::array<size_t, 3> offset{0, 0, 0};
  bool has_local() const {
    for (uint32_t d = 0; d < work_dim; ++d)
      if (local[d] != 0) return true;
    return false;
  }
};

// "sub-group size 64 required by kernel 'k' is not supported by device 'D' (supported: 8, 16, 32)".
Status check_sub_group_size(const KernelLimits &kernel, const DeviceLimits &device);

// A kernel left out of its module because the device cannot honour it, and what its launches answer.
struct KernelRefusal {
  std::string name;
  Error reason;
};

// The kernels the device cannot honour, decided from the image's metadata (which holds the SPIR-V's own
// SubgroupSize execution modes) before any driver sees the module: a driver refuses the whole module for
// one such kernel, so the others build only if it is left out first.
std::vector<KernelRefusal> refused_kernels(std::span<const KernelRequirements> kernels, const DeviceLimits &device);

// Dimensions, global sizes and offsets; unused dimensions are normalised to size 1, offset 0.
Result<NdRange> normalise_nd_range(uint32_t work_dim, const size_t global[3], const size_t local[3],
                                   const size_t offset[3]);

// A chosen or given local size against limits, divisibility and requirements.
Status check_local_size(const NdRange &range, const KernelLimits &kernel, const DeviceLimits &device);

// The group counts of a range with its local size set; over the device maximum is INVALID_ND_RANGE.
Result<std::array<uint32_t, 3>> group_counts(const NdRange &range, const DeviceLimits &device);

// The largest divisor of `global` not above `suggested` (at least 1).
size_t largest_divisor_up_to(size_t global, size_t suggested);

} // namespace zeal::adapter
