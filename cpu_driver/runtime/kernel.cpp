// Kernel arguments, group sizes and launch capture, and the zeKernel* entry points.
#include "cpu_driver/runtime/kernel.hpp"

#include "common/log.hpp"
#include "cpu_driver/runtime/ddi.hpp"
#include "cpu_driver/runtime/driver.hpp"
#include "cpu_driver/runtime/image.hpp"
#include "cpu_driver/runtime/module.hpp"
#include "ze_driver/kernel_attributes.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace zeal::cpu {
namespace {

std::string list_source_attributes(const KernelInfo &info) {
  return ze::source_attributes(info.required_group_size, info.group_size_hint, info.vec_type_hint,
                               info.required_subgroup_size);
}

} // namespace

Kernel::Kernel(std::shared_ptr<const Program> program, const KernelInfo &info, const Device &device)
    : program_(std::move(program)), info_(info), device_(device), arguments_(info.args.size()),
      source_attributes_(list_source_attributes(info)) {
  for (int d = 0; d < 3; ++d)
    if (info_.required_group_size[d] != 0) group_size_[d] = info_.required_group_size[d];
}

ze_result_t Kernel::set_argument(uint32_t index, size_t size, const void *value) {
  if (index >= info_.args.size()) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX;
  const ArgInfo &arg = info_.args[index];
  Argument next;
  next.set = true;
  switch (arg.kind) {
  case ArgKind::LocalPointer:
    // The size is the buffer to provide; the value is ignored (the spec asks for null).
    if (size == 0) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
    next.local_size = size;
    break;
  case ArgKind::GlobalPointer:
  case ArgKind::Value: {
    const size_t expected = arg.kind == ArgKind::GlobalPointer ? sizeof(void *) : arg.size;
    if (!ze::argument_size_accepted(arg.kind == ArgKind::Value, size, expected))
      return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
    // "If null then argument value is considered null": a null pointer, or a value of size zero bytes
    // (AdaptiveCpp passes a struct wrapping a null pointer so).
    next.value.assign(expected, std::byte{0});
    if (value != nullptr) std::memcpy(next.value.data(), value, size);
    break;
  }
  case ArgKind::Image:
  case ArgKind::Sampler: {
    // The value is the handle; the kernel gets the image's descriptor, or the sampler's bits, in its place.
    uint64_t passed = 0;
    std::string why;
    if (ze_result_t r = ze::ImageEntries<Images>::argument_value(arg.kind == ArgKind::Image, size, value, passed, why);
        r != ZE_RESULT_SUCCESS) {
      if (!why.empty()) {
        zeal::logger("zeal-cpu").warn("zeKernelSetArgumentValue: argument {} of kernel {} is {}", index, info_.name,
                                      why);
      }
      return r;
    }
    next.value.resize(sizeof passed);
    std::memcpy(next.value.data(), &passed, sizeof passed);
    break;
  }
  }
  std::lock_guard lock(mutex_);
  arguments_[index] = std::move(next);
  return ZE_RESULT_SUCCESS;
}

void Kernel::set_global_offset(uint32_t x, uint32_t y, uint32_t z) {
  std::lock_guard lock(mutex_);
  global_offset_[0] = x;
  global_offset_[1] = y;
  global_offset_[2] = z;
}

ze_result_t Kernel::set_group_size(uint32_t x, uint32_t y, uint32_t z) {
  const ze_device_compute_properties_t &limits = device_.compute_properties();
  const uint32_t size[3] = {x, y, z};
  const uint32_t max[3] = {limits.maxGroupSizeX, limits.maxGroupSizeY, limits.maxGroupSizeZ};
  for (int d = 0; d < 3; ++d) {
    if (size[d] == 0 || size[d] > max[d]) return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
    if (info_.required_group_size[d] != 0 && size[d] != info_.required_group_size[d]) {
      zeal::logger("zeal-cpu").warn("kernel {} requires work-group size {}x{}x{}, not {}x{}x{}", info_.name,
                                    info_.required_group_size[0], info_.required_group_size[1],
                                    info_.required_group_size[2], x, y, z);
      return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
    }
  }
  if (uint64_t{x} * y * z > limits.maxTotalGroupSize) return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
  std::lock_guard lock(mutex_);
  std::copy(size, size + 3, group_size_);
  return ZE_RESULT_SUCCESS;
}

void Kernel::suggest_group_size(const uint32_t global[3], uint32_t out[3]) const {
  if (info_.required_group_size[0] != 0) {
    std::copy(info_.required_group_size, info_.required_group_size + 3, out);
    return;
  }
  // Per dimension, the largest divisor of the global size that keeps the
  // product within a budget: 128 work-items amortize a group's start-up on a
  // CPU without leaving too few groups to spread over the threads.
  uint32_t budget = std::min<uint32_t>(128, device_.compute_properties().maxTotalGroupSize);
  for (int d = 0; d < 3; ++d) {
    uint32_t best = 1;
    for (uint32_t s = std::min(budget, global[d]); s > 1; --s) {
      if (global[d] % s == 0) {
        best = s;
        break;
      }
    }
    out[d] = best;
    budget /= best;
  }
}

void Kernel::properties(ze_kernel_properties_t &out) const {
  out.numKernelArgs = static_cast<uint32_t>(info_.args.size());
  out.requiredGroupSizeX = info_.required_group_size[0];
  out.requiredGroupSizeY = info_.required_group_size[1];
  out.requiredGroupSizeZ = info_.required_group_size[2];
  // No OpenCL C or SPIR-V attribute requires a number of sub-groups.
  out.requiredNumSubGroups = 0;
  out.requiredSubgroupSize = info_.required_subgroup_size;
  // The size the kernel's code runs with: the required one, else the primary size it was
  // compiled with (a native binary's may come from another build; loading checked it).
  out.maxSubgroupSize = info_.subgroup_size;
  // Of the largest work-group the kernel can run: its required size, else the device's limit.
  uint64_t items = uint64_t{info_.required_group_size[0]} * info_.required_group_size[1] * info_.required_group_size[2];
  if (items == 0) items = device_.compute_properties().maxTotalGroupSize;
  out.maxNumSubgroups = static_cast<uint32_t>((items + out.maxSubgroupSize - 1) / out.maxSubgroupSize);
  out.localMemSize = static_cast<uint32_t>(info_.static_local_bytes);
  out.privateMemSize = static_cast<uint32_t>(info_.private_bytes);
  out.spillMemSize = 0;
  std::memset(&out.uuid, 0, sizeof(out.uuid));
}

namespace {

struct AlignedBytesFree {
  void operator()(std::byte *p) const { ::operator delete[](p, std::align_val_t{128}); }
};

// Argument i at an offset aligned like its size (up to 128): the JIT may load vectors with aligned moves.
uint32_t aligned_offset(uint32_t offset, size_t size) {
  uint32_t align = std::min<uint32_t>(128, std::bit_ceil(static_cast<uint32_t>(std::max<size_t>(size, 1))));
  return (offset + align - 1) / align * align;
}

} // namespace

// A cooperative launch gives each group an OS thread of its own, so every group is resident while any waits for
// another, whatever else the device runs. Up to 64 such threads per device thread, and up to 1024 work-items per
// device thread: the work-items of a group with barriers each have a fiber stack. Never fewer than the device's
// threads, which the pool alone could keep busy.
uint32_t Kernel::max_cooperative_groups() const {
  uint64_t threads = device_.threads();
  uint64_t group_size;
  {
    std::lock_guard lock(mutex_);
    group_size = uint64_t{group_size_[0]} * group_size_[1] * group_size_[2];
  }
  uint64_t by_items = threads * max_cooperative_items_per_thread / group_size;
  return static_cast<uint32_t>(std::max(threads, std::min(threads * max_cooperative_groups_per_thread, by_items)));
}

ze_result_t Kernel::capture_launch(const ze_group_count_t &groups, KernelLaunch &out) const {
  // A kernel built from SPIR-V compiles at its first launch, on the appending thread.
  auto run = program_->entry(info_);
  if (!run) {
    zeal::logger("zeal-cpu").warn("launch of kernel {}: {}", info_.name, run.error().message);
    return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  }
  out.run = *run;
  std::lock_guard lock(mutex_);
  size_t n = arguments_.size();
  out.offsets.resize(n);
  out.local_sizes.resize(n);
  uint32_t total = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!arguments_[i].set) {
      zeal::logger("zeal-cpu").warn("launch of kernel {}: argument {} was never set", info_.name, i);
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    out.offsets[i] = aligned_offset(total, arguments_[i].value.size());
    total = out.offsets[i] + static_cast<uint32_t>(arguments_[i].value.size());
    out.local_sizes[i] = arguments_[i].local_size;
  }
  std::shared_ptr<std::byte[]> values(new (std::align_val_t{128}) std::byte[std::max(total, 1u)], AlignedBytesFree{});
  for (size_t i = 0; i < n; ++i)
    if (!arguments_[i].value.empty()) // local-memory arguments have no value bytes
      std::memcpy(values.get() + out.offsets[i], arguments_[i].value.data(), arguments_[i].value.size());
  out.values = std::move(values);
  out.program = program_;
  out.kernel = &info_;
  std::copy(group_size_, group_size_ + 3, out.group_size);
  std::copy(global_offset_, global_offset_ + 3, out.global_offset);
  out.group_count[0] = groups.groupCountX;
  out.group_count[1] = groups.groupCountY;
  out.group_count[2] = groups.groupCountZ;
  return ZE_RESULT_SUCCESS;
}

namespace {

ze_result_t kernel_create(ze_module_handle_t module, const ze_kernel_desc_t *desc, ze_kernel_handle_t *out) {
  if (module == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || desc->pKernelName == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Module *m = Module::from(module);
  std::shared_ptr<const Program> program = m->program();
  const KernelInfo *info = program->find_kernel(desc->pKernelName);
  if (info == nullptr) {
    zeal::logger("zeal-cpu").warn("zeKernelCreate: the module has no kernel named '{}'", desc->pKernelName);
    return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
  }
  // Before the link check: linking would not make a refused kernel runnable.
  if (!info->refusal.empty()) {
    zeal::logger("zeal-cpu").warn("zeKernelCreate: {}", info->refusal);
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  }
  if (!program->linked()) {
    zeal::logger("zeal-cpu").warn("zeKernelCreate: kernel '{}': the module imports '{}', which no "
                                  "zeModuleDynamicLink has resolved yet",
                                  desc->pKernelName, fmt::join(program->linkage().imports, "', '"));
    return ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED;
  }
  if (std::string_view why = program->link_refusal(*info); !why.empty()) {
    zeal::logger("zeal-cpu").warn("zeKernelCreate: {}", why);
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  }
  *out = new Kernel(std::move(program), *info, m->device());
  return ZE_RESULT_SUCCESS;
}

ze_result_t kernel_set_argument_value(ze_kernel_handle_t kernel, uint32_t index, size_t size, const void *value) {
  if (kernel == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return Kernel::from(kernel)->set_argument(index, size, value);
}

ze_result_t kernel_set_group_size(ze_kernel_handle_t kernel, uint32_t x, uint32_t y, uint32_t z) {
  if (kernel == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return Kernel::from(kernel)->set_group_size(x, y, z);
}

ze_result_t kernel_suggest_group_size(ze_kernel_handle_t kernel, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t *x,
                                      uint32_t *y, uint32_t *z) {
  if (kernel == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (x == nullptr || y == nullptr || z == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (gx == 0 || gy == 0 || gz == 0) return ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION;
  const uint32_t global[3] = {gx, gy, gz};
  uint32_t size[3];
  Kernel::from(kernel)->suggest_group_size(global, size);
  *x = size[0];
  *y = size[1];
  *z = size[2];
  return ZE_RESULT_SUCCESS;
}

ze_result_t kernel_get_properties(ze_kernel_handle_t kernel, ze_kernel_properties_t *out) {
  if (kernel == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Kernel::from(kernel)->properties(*out);
  return ZE_RESULT_SUCCESS;
}

ze_result_t kernel_get_name(ze_kernel_handle_t kernel, size_t *size, char *name) {
  if (kernel == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const std::string &n = Kernel::from(kernel)->info().name;
  return copy_string_out(n.c_str(), n.size(), size, name);
}


ze_result_t kernel_get_source_attributes(ze_kernel_handle_t kernel, uint32_t *size, char **string) {
  if (kernel == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return ze::copy_source_attributes(Kernel::from(kernel)->source_attributes(), size, string);
}

// Accepted and changes nothing: a CPU has no split between local memory and data cache to choose.
ze_result_t kernel_set_cache_config(ze_kernel_handle_t kernel, ze_cache_config_flags_t flags) {
  if (kernel == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  constexpr ze_cache_config_flags_t known = ZE_CACHE_CONFIG_FLAG_LARGE_SLM | ZE_CACHE_CONFIG_FLAG_LARGE_DATA;
  if ((flags & ~known) != 0) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  return ZE_RESULT_SUCCESS;
}

ze_result_t kernel_suggest_max_cooperative_group_count(ze_kernel_handle_t kernel, uint32_t *count) {
  if (kernel == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *count = Kernel::from(kernel)->max_cooperative_groups();
  return ZE_RESULT_SUCCESS;
}

ze_result_t kernel_set_global_offset_exp(ze_kernel_handle_t kernel, uint32_t x, uint32_t y, uint32_t z) {
  if (kernel == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Kernel::from(kernel)->set_global_offset(x, y, z);
  return ZE_RESULT_SUCCESS;
}

// ZE_experimental_scheduling_hints: the device supports none of the hints (zeDeviceGetModuleProperties says so),
// and the specification has unsupported hints ignored; unknown bits are refused.
ze_result_t kernel_scheduling_hint_exp(ze_kernel_handle_t kernel, ze_scheduling_hint_exp_desc_t *hint) {
  if (kernel == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (hint == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  constexpr ze_scheduling_hint_exp_flags_t known = ZE_SCHEDULING_HINT_EXP_FLAG_OLDEST_FIRST |
                                                   ZE_SCHEDULING_HINT_EXP_FLAG_ROUND_ROBIN |
                                                   ZE_SCHEDULING_HINT_EXP_FLAG_STALL_BASED_ROUND_ROBIN;
  if ((hint->flags & ~known) != 0) {
    zeal::logger("zeal-cpu").warn("zeKernelSchedulingHintExp: unknown hint flags {:#x} for kernel '{}'",
                                  hint->flags & ~known, Kernel::from(kernel)->info().name);
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  }
  return ZE_RESULT_SUCCESS;
}

} // namespace

void implement(ze_kernel_exp_dditable_t &t) {
  t.pfnSetGlobalOffsetExp = guarded<kernel_set_global_offset_exp>;
  t.pfnSchedulingHintExp = guarded<kernel_scheduling_hint_exp>;
}

void implement(ze_kernel_dditable_t &t) {
  t.pfnCreate = guarded<kernel_create>;
  t.pfnDestroy = guarded<destroy<Kernel>>;
  t.pfnSetArgumentValue = guarded<kernel_set_argument_value>;
  t.pfnSetGroupSize = guarded<kernel_set_group_size>;
  t.pfnSuggestGroupSize = guarded<kernel_suggest_group_size>;
  t.pfnGetProperties = guarded<kernel_get_properties>;
  t.pfnGetName = guarded<kernel_get_name>;
  t.pfnSetIndirectAccess = guarded<ze::set_indirect_access<Kernel>>;
  t.pfnGetIndirectAccess = guarded<ze::get_indirect_access<Kernel>>;
  t.pfnGetSourceAttributes = guarded<kernel_get_source_attributes>;
  t.pfnSetCacheConfig = guarded<kernel_set_cache_config>;
  t.pfnSuggestMaxCooperativeGroupCount = guarded<kernel_suggest_max_cooperative_group_count>;
}

} // namespace zeal::cpu
