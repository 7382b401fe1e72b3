// Kernel arguments, group sizes and launch capture, and the zeKernel* entry points.
#include "cpu_driver/runtime/kernel.hpp"

#include "common/log.hpp"
#include "cpu_driver/runtime/ddi.hpp"
#include "cpu_driver/runtime/driver.hpp"
#include "cpu_driver/runtime/module.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>

namespace zeal::cpu {

Kernel::Kernel(std::shared_ptr<const Program> program, const KernelInfo &info, const Device &device)
    : program_(std::move(program)), info_(info), device_(device), arguments_(info.args.size()) {
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
    // The size is the buffer to provide; the value must be null and is ignored.
    if (size == 0) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
    next.local_size = size;
    break;
  case ArgKind::GlobalPointer:
    if (size != sizeof(void *)) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
    next.value.resize(sizeof(void *)); // a null value means a null pointer: zeros
    if (value != nullptr) std::memcpy(next.value.data(), value, sizeof(void *));
    break;
  case ArgKind::Value:
    if (size != arg.size) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
    if (value == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    next.value.resize(size);
    std::memcpy(next.value.data(), value, size);
    break;
  }
  std::lock_guard lock(mutex_);
  arguments_[index] = std::move(next);
  return ZE_RESULT_SUCCESS;
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
  if (!program->linked()) {
    zeal::logger("zeal-cpu").warn("zeKernelCreate: kernel '{}': the module has imports that zeModuleDynamicLink "
                                  "has not resolved yet", desc->pKernelName);
    return ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED;
  }
  *out = new Kernel(std::move(program), *info, m->device());
  return ZE_RESULT_SUCCESS;
}

ze_result_t kernel_destroy(ze_kernel_handle_t kernel) {
  if (kernel == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete Kernel::from(kernel);
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

} // namespace

void implement(ze_kernel_dditable_t &t) {
  t.pfnCreate = guarded<kernel_create>;
  t.pfnDestroy = guarded<kernel_destroy>;
  t.pfnSetArgumentValue = guarded<kernel_set_argument_value>;
  t.pfnSetGroupSize = guarded<kernel_set_group_size>;
  t.pfnSuggestGroupSize = guarded<kernel_suggest_group_size>;
  t.pfnGetProperties = guarded<kernel_get_properties>;
  t.pfnGetName = guarded<kernel_get_name>;
}

} // namespace zeal::cpu
