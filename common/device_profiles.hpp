// The built-in device profiles (host, pvc, dg2): one table, read by module_linker's link checks and by the CPU driver.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace zeal {

// Header-only data, so that the CPU driver reads the table without linking module_linker (and SPIRV-Tools).
struct DeviceProfileRow {
  const char *name;                         // the ZEAL_CPU_PROFILE and --device-profile value
  std::span<const uint32_t> sub_group_sizes;  // ascending
  // The size kernels and functions without one are compiled for and run with: 16 on every profile, the
  // size Intel's compiler picks most for compute kernels on these GPUs and one a CPU's 512-bit vectors
  // of floats hold exactly.
  uint32_t primary_sub_group_size;
  // What the real device supports; the link checks refuse a kernel using more. The CPU driver runs fp64,
  // fp16 and 64-bit atomics on every profile (it emulates a device's limits, not its missing units).
  bool fp64, fp16, int64_atomics, sub_group_shuffle;
  uint32_t max_group_size;                  // maxTotalGroupSize and per dimension
  uint32_t local_memory_bytes;              // maxSharedLocalMemory
  uint32_t device_id;                       // PCI device id of the real device; 0 for the host
  // Compute units as Level Zero counts them; zero means "from the host CPU".
  uint32_t slices, subslices_per_slice, eus_per_subslice, threads_per_eu, simd_width;
};

namespace profile_detail {
inline constexpr uint32_t kHostSizes[] = {4, 8, 16, 32, 64};
inline constexpr uint32_t kPvcSizes[] = {16, 32};
inline constexpr uint32_t kDg2Sizes[] = {8, 16, 32};
} // namespace profile_detail

// Where the numbers come from:
// - host: zeal's CPU driver as it is: sub-group sizes 4..64, the FP16, FP64 and INT64_ATOMICS module flags.
// - pvc (Intel Data Center GPU Max 1550 as one device, a stack): the compute-runtime reports subGroupSizes
//   {16, 32}, fp64 and 64-bit atomics; 64 Xe-cores of 8 vector engines, 8 threads each, SIMD16, 128 KiB SLM.
// - dg2 (Intel Arc A770, Xe-HPG): subGroupSizes {8, 16, 32}; no native fp64 (the driver does not report
//   ZE_DEVICE_MODULE_FLAG_FP64), 64-bit integer atomics reported; 32 Xe-cores of 16 vector engines, 8 threads
//   each, SIMD8, 64 KiB SLM.
// All Intel GPUs implement cl_intel_subgroups, hence SubgroupShuffleINTEL.
inline constexpr DeviceProfileRow kDeviceProfiles[] = {
    {"host", profile_detail::kHostSizes, 16, true, true, true, true, 1024, 64 * 1024, 0, 0, 0, 0, 0, 0},
    {"pvc", profile_detail::kPvcSizes, 16, true, true, true, true, 1024, 128 * 1024, 0x0bd5, 1, 64, 8, 8, 16},
    {"dg2", profile_detail::kDg2Sizes, 16, false, true, true, true, 1024, 64 * 1024, 0x56a0, 8, 4, 16, 8, 8},
};

// The profile named `name`, or null.
inline const DeviceProfileRow *find_device_profile_row(std::string_view name) {
  for (const DeviceProfileRow &row : kDeviceProfiles)
    if (name == row.name) return &row;
  return nullptr;
}

// "host, pvc, dg2": for the messages that reject an unknown name.
inline std::string device_profile_names() {
  std::string names;
  for (const DeviceProfileRow &row : kDeviceProfiles) names += (names.empty() ? "" : ", ") + std::string(row.name);
  return names;
}

} // namespace zeal
