// The contract between the CPU driver's compiler and its runtime: how a JIT-compiled kernel is called.
#pragma once

#include "ze_driver/image_abi.hpp"

#include <cstdint>

namespace zeal::cpu {

// What one work-group launch needs to know. The runtime fills one per
// work-group it runs (reusing it across groups on the same thread); the
// compiled work-group function only reads it.
struct GroupContext {
  uint32_t work_dim = 1;        // 1, 2 or 3
  uint32_t group_id[3] = {};    // the first work-group's id in each dimension
  uint32_t group_count = 1;     // work-groups this call runs: that one, then the next ones (x fastest)
  uint32_t num_groups[3] = {1, 1, 1};
  uint32_t local_size[3] = {1, 1, 1};
  uint64_t global_offset[3] = {};
  void *local_memory = nullptr; // kernel-scope `local` variables, KernelInfo::static_local_bytes bytes
};

// Runs every work-item of ctx->group_count work-groups, one after another
// (local memory is reused: a group's kernel-scope variables start undefined).
// args[i] points to the bytes of kernel argument i: for a value argument its
// value; for a pointer argument, global or local alike, a variable holding the
// pointer (so args[i] is a T**). For a local-memory argument that pointer is
// the address of this work-group's buffer for it, which the runtime provides.
using WorkGroupFn = void (*)(const void *const *args, const GroupContext *ctx);

} // namespace zeal::cpu

namespace zeal::cpu {

// Images and samplers: the layout every zeal driver's kernels share (ze_driver/image_abi.hpp).
using ze::ImageDescriptor;
using ze::ImageFast;
using ze::SamplerBits;
using ze::SamplerNormalized;
using ze::SamplerAddressMask;
using ze::SamplerAddressNone;
using ze::SamplerAddressClampToEdge;
using ze::SamplerAddressClamp;
using ze::SamplerAddressRepeat;
using ze::SamplerAddressMirroredRepeat;
using ze::SamplerFilterNearest;
using ze::SamplerFilterLinear;

} // namespace zeal::cpu
