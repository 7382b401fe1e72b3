// Launch checks: each failure is a code with a sentence carrying the numbers that were wrong.
#include "adapter/core/launch_checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>

namespace zeal::adapter {
namespace {

std::string dims_text(const std::array<size_t, 3> &v, uint32_t dims) {
  return fmt::format("{{{}}}", fmt::join(v.begin(), v.begin() + dims, ", "));
}

} // namespace

Status check_sub_group_size(const KernelLimits &kernel, const DeviceLimits &device) {
  if (kernel.required_sub_group_size == 0) return {};
  const auto &sizes = device.sub_group_sizes;
  if (std::find(sizes.begin(), sizes.end(), kernel.required_sub_group_size) != sizes.end()) return {};
  return make_error(ZEAL_RESULT_ERROR_KERNEL_NOT_SUPPORTED,
                    fmt::format("sub-group size {} required by kernel '{}' is not supported by device '{}' "
                                "(supported: {})",
                                kernel.required_sub_group_size, kernel.name, device.name, fmt::join(sizes, ", ")));
}

std::vector<KernelRefusal> refused_kernels(std::span<const KernelRequirements> kernels, const DeviceLimits &device) {
  std::vector<KernelRefusal> refused;
  for (const KernelRequirements &k : kernels) {
    KernelLimits limits;
    limits.name = k.name;
    limits.required_sub_group_size = k.sub_group_size;
    if (Status s = check_sub_group_size(limits, device); !s.ok()) refused.push_back({k.name, std::move(s).error()});
  }
  return refused;
}

Result<NdRange> normalise_nd_range(uint32_t work_dim, const size_t global[3], const size_t local[3],
                                   const size_t offset[3]) {
  if (work_dim < 1 || work_dim > 3)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ND_RANGE,
                      fmt::format("work_dim {} is not 1, 2 or 3", work_dim));
  NdRange r;
  r.work_dim = work_dim;
  for (uint32_t d = 0; d < work_dim; ++d) {
    if (global[d] == 0)
      return make_error(ZEAL_RESULT_ERROR_INVALID_ND_RANGE,
                        fmt::format("global size {} has a zero in dimension {}",
                                    dims_text({global[0], global[1], global[2]}, work_dim), d));
    if (offset[d] > std::numeric_limits<size_t>::max() - global[d])
      return make_error(ZEAL_RESULT_ERROR_INVALID_ND_RANGE,
                        fmt::format("global offset {} plus global size {} overflows in dimension {}", offset[d],
                                    global[d], d));
    r.global[d] = global[d];
    r.local[d] = local[d];
    r.offset[d] = offset[d];
  }
  return r;
}

Status check_local_size(const NdRange &r, const KernelLimits &kernel, const DeviceLimits &device) {
  const uint32_t n = r.work_dim;
  size_t total = 1;
  for (uint32_t d = 0; d < n; ++d) {
    if (r.local[d] == 0)
      return make_error(ZEAL_RESULT_ERROR_INVALID_WORK_GROUP_SIZE,
                        fmt::format("local size {} of kernel '{}' has a zero in dimension {}",
                                    dims_text(r.local, n), kernel.name, d));
    if (r.local[d] > device.max_work_item_sizes[d])
      return make_error(ZEAL_RESULT_ERROR_INVALID_WORK_GROUP_SIZE,
                        fmt::format("local size {} of kernel '{}' is over the limit of {} in dimension {} on device '{}'",
                                    dims_text(r.local, n), kernel.name, device.max_work_item_sizes[d], d, device.name));
    if (r.global[d] % r.local[d] != 0)
      return make_error(ZEAL_RESULT_ERROR_INVALID_WORK_GROUP_SIZE,
                        fmt::format("global size {} is not a multiple of local size {} for kernel '{}'",
                                    dims_text(r.global, n), dims_text(r.local, n), kernel.name));
    total *= r.local[d];
  }
  size_t limit = device.max_work_group_size;
  if (kernel.max_work_group_size != 0) limit = std::min(limit, kernel.max_work_group_size);
  if (total > limit)
    return make_error(ZEAL_RESULT_ERROR_INVALID_WORK_GROUP_SIZE,
                      fmt::format("local size {} ({} work-items) of kernel '{}' is over the maximum work-group size "
                                  "{} on device '{}'",
                                  dims_text(r.local, n), total, kernel.name, limit, device.name));
  const auto &req = kernel.required_work_group_size;
  if (req[0] != 0) {
    std::array<size_t, 3> local3 = r.local;
    for (uint32_t d = n; d < 3; ++d) local3[d] = 1;
    if (local3 != req)
      return make_error(ZEAL_RESULT_ERROR_INVALID_WORK_GROUP_SIZE,
                        fmt::format("local size {} does not match the work-group size {} required by kernel '{}'",
                                    dims_text(local3, 3), dims_text(req, 3), kernel.name));
  }
  return {};
}

Result<std::array<uint32_t, 3>> group_counts(const NdRange &r, const DeviceLimits &device) {
  std::array<uint32_t, 3> counts{1, 1, 1};
  for (uint32_t d = 0; d < r.work_dim; ++d) {
    size_t count = r.global[d] / r.local[d];
    size_t limit = std::min<size_t>(device.max_group_count[d], std::numeric_limits<uint32_t>::max());
    if (count > limit)
      return make_error(ZEAL_RESULT_ERROR_INVALID_ND_RANGE,
                        fmt::format("{} work-groups in dimension {} (global {} / local {}) are over the maximum group "
                                    "count of {} on device '{}'",
                                    count, d, r.global[d], r.local[d], limit, device.name));
    counts[d] = static_cast<uint32_t>(count);
  }
  return counts;
}

size_t largest_divisor_up_to(size_t global, size_t suggested) {
  for (size_t s = std::min(global, std::max<size_t>(suggested, 1)); s > 1; --s)
    if (global % s == 0) return s;
  return 1;
}

} // namespace zeal::adapter
