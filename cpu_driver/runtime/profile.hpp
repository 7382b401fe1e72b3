// Device profiles (ZEAL_CPU_PROFILE): which device the CPU driver pretends to be, limits included.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace zeal::cpu {

struct Profile {
  const char *name;                 // the ZEAL_CPU_PROFILE value
  std::span<const uint32_t> subgroup_sizes;
  // The size kernels without intel_reqd_sub_group_size run with: 16 on every
  // profile, the size Intel's compiler picks most for compute kernels on these
  // GPUs and one a CPU's 512-bit vectors of floats hold exactly.
  uint32_t primary_subgroup_size;
  uint32_t max_group_size;          // maxTotalGroupSize and per dimension
  uint32_t local_memory_bytes;      // maxSharedLocalMemory
  uint32_t device_id;               // PCI device id of the real device; 0 for the host
  // Compute units as Level Zero counts them; zero means "from the host CPU".
  uint32_t slices, subslices_per_slice, eus_per_subslice, threads_per_eu, simd_width;
};

// The profile named `name`, or null.
const Profile *find_profile(std::string_view name);
// "host, pvc, dg2": for the message that rejects an unknown name.
std::string profile_names();

} // namespace zeal::cpu
