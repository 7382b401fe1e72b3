// Kernels: arguments, group sizes and launches recorded for cuLaunchKernel; the zeKernel* entry points.
#include "cuda_driver/runtime/kernel.hpp"
#include "cuda_driver/runtime/cuda_call.hpp"
#include "cuda_driver/runtime/ddi.hpp"
#include "cuda_driver/runtime/image.hpp"
#include "cuda_driver/runtime/joint_module.hpp"

#include "common/log.hpp"
#include "ze_driver/kernel_attributes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>

namespace zeal::cuda {

Kernel::Kernel(Module &module, const KernelFacts &facts, CUfunction function)
    : module_(module), facts_(facts), function_(function), resolved_(function != nullptr),
      values_(facts.kernel.args.size()),
      local_sizes_(facts.kernel.args.size()), set_(facts.kernel.args.size()),
      source_attributes_(ze::source_attributes(facts.kernel.required_group_size, facts.kernel.group_size_hint, "",
                                               facts.kernel.required_subgroup_size)) {
  const uint32_t *required = facts.kernel.required_group_size;
  if (required[0] != 0) group_size_ = {required[0], required[1], required[2]};
}

CUfunction Kernel::function() const {
  if (!module_.joined()) {
    if (resolved_.load(std::memory_order_acquire)) return function_;
    const CUmodule loaded = module_.cu_module(); // waits for the code loader
    std::lock_guard lock(function_mutex_);
    if (!resolved_.load(std::memory_order_relaxed) && loaded != nullptr) {
      module_.device().make_current();
      if (checked(module_.device().api().cuModuleGetFunction(&function_, loaded, facts_.kernel.name.c_str()),
                  "cuModuleGetFunction") == ZE_RESULT_SUCCESS)
        resolved_.store(true, std::memory_order_release);
    }
    return resolved_.load(std::memory_order_relaxed) ? function_ : nullptr;
  }
  std::lock_guard lock(function_mutex_);
  module_.device().joint().refresh(module_, facts_.kernel.name, function_, generation_);
  return function_;
}

int Kernel::function_attribute(FunctionAttribute which) const {
  int value = 0;
  module_.device().api().cuFuncGetAttribute(&value, int(which), function());
  return value;
}

ze_result_t Kernel::set_argument(uint32_t index, size_t size, const void *value) {
  const auto &args = facts_.kernel.args;
  if (index >= args.size()) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX;
  const PtxArg &arg = args[index];
  if (arg.kind == PtxArgKind::LocalPointer) {
    if (value != nullptr || size == 0) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    local_sizes_[index] = size;
  } else if (arg.kind == PtxArgKind::Image || arg.kind == PtxArgKind::Sampler) {
    // A handle: the image's descriptor in device memory, or the sampler's bits.
    uint64_t passed = 0;
    std::string why;
    if (ze_result_t r = ze::ImageEntries<Images>::argument_value(arg.kind == PtxArgKind::Image, size, value, passed,
                                                                 why);
        r != ZE_RESULT_SUCCESS) {
      if (!why.empty()) {
        zeal::logger("zeal-cuda").warn("zeKernelSetArgumentValue: argument {} of kernel {} is {}", index,
                                       facts_.kernel.name, why);
      }
      return r;
    }
    values_[index].assign(sizeof passed, 0);
    std::memcpy(values_[index].data(), &passed, sizeof passed);
  } else {
    if (!ze::argument_size_accepted(arg.kind == PtxArgKind::Value, size, arg.size))
      return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
    values_[index].assign(arg.size, 0);
    // A null value is a null pointer (or zeros), as the spec allows for pointer arguments.
    if (value != nullptr) std::memcpy(values_[index].data(), value, size);
  }
  set_[index] = true;
  return ZE_RESULT_SUCCESS;
}

ze_result_t Kernel::set_group_size(uint32_t x, uint32_t y, uint32_t z) {
  const ze_device_compute_properties_t &limits = module_.device().compute_properties();
  if (x == 0 || y == 0 || z == 0 || x > limits.maxGroupSizeX || y > limits.maxGroupSizeY ||
      z > limits.maxGroupSizeZ || uint64_t(x) * y * z > limits.maxTotalGroupSize)
    return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
  const uint32_t *required = facts_.kernel.required_group_size;
  if (required[0] != 0 && (x != required[0] || y != required[1] || z != required[2]))
    return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
  group_size_ = {x, y, z};
  return ZE_RESULT_SUCCESS;
}

namespace {

void append(std::vector<uint8_t> &bytes, std::vector<size_t> &offsets, const void *value, size_t size) {
  size_t at = (bytes.size() + 7) & ~size_t{7};
  offsets.push_back(at);
  bytes.resize(at + size);
  std::memcpy(bytes.data() + at, value, size);
}

// OpenCL's work dimensions as far as a launch shows them: the highest dimension with more than one work-item.
uint32_t work_dimensions(const ze_group_count_t &groups, const std::array<uint32_t, 3> &size) {
  if (uint64_t(groups.groupCountZ) * size[2] > 1) return 3;
  if (uint64_t(groups.groupCountY) * size[1] > 1) return 2;
  return 1;
}

} // namespace

ze_result_t Kernel::record(const ze_group_count_t &groups, Launch &launch, std::string &why) const {
  const auto &args = facts_.kernel.args;
  // The joint module's load number first: a load after it makes run() find the function again, at worst once more.
  const uint64_t generation = module_.joined() ? module_.device().joint().generation() : 0;
  const bool ready = function_ready();
  launch = Launch{ready ? function() : nullptr, &module_.device(),
                  {groups.groupCountX, groups.groupCountY, groups.groupCountZ}, group_size_, 0, {}, {}};
  if (!ready) launch.pending = this;
  if (module_.joined()) {
    launch.member = &module_;
    launch.kernel_name = &facts_.kernel.name;
    launch.generation = generation;
  }
  // Room for every parameter at once (each at most 7 bytes of padding; the hidden ones are four of 8 bytes or less),
  // so that recording allocates twice, not at each parameter.
  size_t room = 4 * 8;
  for (size_t i = 0; i < args.size(); ++i)
    room += (args[i].kind == PtxArgKind::LocalPointer ? sizeof(uint32_t) : values_[i].size()) + 7;
  launch.bytes.reserve(room);
  launch.offsets.reserve(args.size() + 4);
  // Compiled kernels keep their hidden values at the start of dynamic shared memory (ptx_compiler.hpp).
  uint64_t shared = facts_.hidden_params ? ptx_reserved_shared_bytes : 0;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!set_[i]) {
      why = fmt::format("argument {} of kernel {} was never set", i, facts_.kernel.name);
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if (args[i].kind != PtxArgKind::LocalPointer) {
      append(launch.bytes, launch.offsets, values_[i].data(), values_[i].size());
      continue;
    }
    // Each local buffer aligned as its largest OpenCL type could need (at most a 128-byte double16).
    const uint64_t align = std::min<uint64_t>(128, std::bit_ceil(local_sizes_[i]));
    shared = (shared + align - 1) / align * align;
    const auto offset = uint32_t(shared);
    append(launch.bytes, launch.offsets, &offset, sizeof offset);
    shared += local_sizes_[i];
  }
  const uint64_t limit = module_.device().compute_properties().maxSharedLocalMemory - facts_.kernel.static_local_bytes;
  if (shared > limit) {
    why = fmt::format("kernel {} asks for {} bytes of local memory in its arguments; {} has {} beside the kernel's own",
                      facts_.kernel.name, shared, module_.device().properties().name, limit);
    return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  launch.shared_bytes = uint32_t(shared);
  if (facts_.hidden_params) {
    for (uint64_t o : offset_) append(launch.bytes, launch.offsets, &o, sizeof o);
    const uint32_t dims = work_dimensions(groups, group_size_);
    append(launch.bytes, launch.offsets, &dims, sizeof dims);
    launch.dims_at = int(launch.offsets.size() - 1);
  }
  return ZE_RESULT_SUCCESS;
}

void Launch::set_groups(const ze_group_count_t &count) {
  groups = {count.groupCountX, count.groupCountY, count.groupCountZ};
  if (dims_at < 0) return;
  const uint32_t dims = work_dimensions(count, group_size);
  std::memcpy(bytes.data() + offsets[size_t(dims_at)], &dims, sizeof dims);
}

ze_result_t Launch::run(CUstream stream) const {
  CUfunction target = function;
  if (target == nullptr && pending != nullptr) {
    target = pending->function();
    if (target == nullptr) {
      zeal::logger("zeal-cuda").error("kernel {}: its module did not load (above), the launch is not enqueued",
                                      pending->facts().name);
      return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    }
  }
  if (member != nullptr) {
    uint64_t recorded = generation;
    member->device().joint().refresh(*member, *kernel_name, target, recorded);
  }
  // The parameters' addresses, on the stack for all but kernels of very many parameters.
  constexpr size_t kOnStack = 64;
  std::array<void *, kOnStack> on_stack;
  std::vector<void *> on_heap;
  void **params = on_stack.data();
  if (offsets.size() > kOnStack) {
    on_heap.resize(offsets.size());
    params = on_heap.data();
  }
  for (size_t i = 0; i < offsets.size(); ++i) params[i] = const_cast<uint8_t *>(bytes.data() + offsets[i]);
  const DriverApi &api = device->api();
  // Above 48 KiB, dynamic shared memory must be asked for per function (CUDA's opt-in).
  if (shared_bytes > 48 * 1024) {
    ze_result_t r = checked(api.cuFuncSetAttribute(target, int(FunctionAttribute::MaxDynamicSharedSizeBytes),
                                                   int(shared_bytes)),
                            "cuFuncSetAttribute");
    if (r != ZE_RESULT_SUCCESS) return r;
  }
  if (cooperative)
    return checked(api.cuLaunchCooperativeKernel(target, groups[0], groups[1], groups[2], group_size[0],
                                                 group_size[1], group_size[2], shared_bytes, stream, params),
                   "cuLaunchCooperativeKernel");
  return checked(api.cuLaunchKernel(target, groups[0], groups[1], groups[2], group_size[0], group_size[1],
                                    group_size[2], shared_bytes, stream, params, nullptr),
                 "cuLaunchKernel");
}

namespace {

ze_result_t kernel_create(ze_module_handle_t handle, const ze_kernel_desc_t *desc, ze_kernel_handle_t *out) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr || desc->pKernelName == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Module *module = Module::from(handle);
  if (module->unlinked()) {
    zeal::logger("zeal-cuda").error("zeKernelCreate: the module imports {} and more, not linked yet "
                                    "(zeModuleDynamicLink)", module->symbols().imports.front());
    return ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED;
  }
  const KernelFacts *facts = module->find(desc->pKernelName);
  if (facts == nullptr) {
    zeal::logger("zeal-cuda").error("zeKernelCreate: the module has no kernel named '{}'", desc->pKernelName);
    return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
  }
  if (!facts->kernel.refusal.empty()) {
    zeal::logger("zeal-cuda").error("zeKernelCreate: {}", facts->kernel.refusal);
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  }
  module->device().make_current();
  CUfunction function = nullptr;
  if (module->loading()) {
    // Found at its first launch, once the code loader has loaded the module (code_loader.hpp).
  } else if (module->joined()) {
    uint64_t generation = 0;
    if (ze_result_t r = module->device().joint().function(*module, desc->pKernelName, function, generation);
        r != ZE_RESULT_SUCCESS)
      return r;
  } else if (ze_result_t r = checked(module->device().api().cuModuleGetFunction(&function, module->cu_module(),
                                                                                desc->pKernelName),
                                     "cuModuleGetFunction");
             r != ZE_RESULT_SUCCESS) {
    return r == ZE_RESULT_ERROR_UNKNOWN ? ZE_RESULT_ERROR_INVALID_KERNEL_NAME : r;
  }
  *out = new Kernel(*module, *facts, function);
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

// The largest size of each dimension that divides the global size and fits the device's (and the kernel's) limit,
// x first.
ze_result_t kernel_suggest_group_size(ze_kernel_handle_t handle, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t *x,
                                      uint32_t *y, uint32_t *z) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (x == nullptr || y == nullptr || z == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Kernel *kernel = Kernel::from(handle);
  const uint32_t *required = kernel->facts().required_group_size;
  if (required[0] != 0) {
    *x = required[0], *y = required[1], *z = required[2];
    return ZE_RESULT_SUCCESS;
  }
  // CUDA's own limit of threads per block is never under 256 on this driver's cards (64 Ki registers a block, at
  // most 255 a thread), so a kernel whose module still loads need not wait for it here.
  uint32_t budget = 256;
  if (kernel->function_ready())
    budget = std::min(budget, uint32_t(kernel->function_attribute(FunctionAttribute::MaxThreadsPerBlock)));
  const ze_device_compute_properties_t &limits = kernel->module().device().compute_properties();
  // The largest divisor of `global` within what is left of the budget and the dimension's limit.
  auto pick = [&](uint32_t global, uint32_t dimension_limit) {
    uint32_t best = 1;
    for (uint32_t s = std::min({global, budget, dimension_limit}); s > 1; --s)
      if (global % s == 0) {
        best = s;
        break;
      }
    budget /= best;
    return best;
  };
  *x = pick(std::max(gx, 1u), limits.maxGroupSizeX);
  *y = pick(std::max(gy, 1u), limits.maxGroupSizeY);
  *z = pick(std::max(gz, 1u), limits.maxGroupSizeZ);
  return ZE_RESULT_SUCCESS;
}

// How many work-groups of the kernel's group size fit on the device at once: what a cooperative launch may take.
ze_result_t kernel_suggest_max_cooperative_group_count(ze_kernel_handle_t handle, uint32_t *count) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Kernel *kernel = Kernel::from(handle);
  const Device &device = kernel->module().device();
  device.make_current();
  const auto &size = kernel->group_size();
  int per_multiprocessor = 0;
  ze_result_t r = checked(device.api().cuOccupancyMaxActiveBlocksPerMultiprocessor(
                              &per_multiprocessor, kernel->function(), int(size[0] * size[1] * size[2]), 0),
                          "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  *count = r == ZE_RESULT_SUCCESS ? uint32_t(per_multiprocessor * device.facts().multiprocessors) : 0;
  return r;
}

ze_result_t kernel_get_properties(ze_kernel_handle_t handle, ze_kernel_properties_t *out) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Kernel *kernel = Kernel::from(handle);
  const PtxKernel &k = kernel->facts();
  out->numKernelArgs = uint32_t(k.args.size());
  out->requiredGroupSizeX = k.required_group_size[0];
  out->requiredGroupSizeY = k.required_group_size[1];
  out->requiredGroupSizeZ = k.required_group_size[2];
  out->requiredNumSubGroups = 0;
  out->requiredSubgroupSize = k.required_subgroup_size;
  out->maxSubgroupSize = k.subgroup_size;
  out->maxNumSubgroups = uint32_t(kernel->function_attribute(FunctionAttribute::MaxThreadsPerBlock)) / k.subgroup_size;
  out->localMemSize = uint32_t(kernel->function_attribute(FunctionAttribute::SharedSizeBytes));
  // CUDA's local memory per thread holds both private arrays and register spills (its scratch), one figure: both.
  out->privateMemSize = uint32_t(kernel->function_attribute(FunctionAttribute::LocalSizeBytes));
  out->spillMemSize = out->privateMemSize;
  std::memset(&out->uuid, 0, sizeof out->uuid);
  return ZE_RESULT_SUCCESS;
}

ze_result_t kernel_get_name(ze_kernel_handle_t handle, size_t *size, char *name) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const std::string &n = Kernel::from(handle)->facts().name;
  return copy_string_out(n.c_str(), n.size(), size, name);
}


ze_result_t kernel_get_source_attributes(ze_kernel_handle_t handle, uint32_t *size, char **string) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return ze::copy_source_attributes(Kernel::from(handle)->source_attributes(), size, string);
}

ze_result_t kernel_set_cache_config(ze_kernel_handle_t handle, ze_cache_config_flags_t) {
  return handle == nullptr ? ZE_RESULT_ERROR_INVALID_NULL_HANDLE : ZE_RESULT_SUCCESS; // a hint
}

ze_result_t kernel_set_global_offset(ze_kernel_handle_t handle, uint32_t x, uint32_t y, uint32_t z) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Kernel::from(handle)->set_global_offset(x, y, z);
  return ZE_RESULT_SUCCESS;
}

} // namespace

void implement(ze_kernel_dditable_t &t) {
  t.pfnCreate = guarded<kernel_create>;
  t.pfnDestroy = guarded<destroy<Kernel>>;
  t.pfnSetArgumentValue = guarded<kernel_set_argument_value>;
  t.pfnSetGroupSize = guarded<kernel_set_group_size>;
  t.pfnSuggestGroupSize = guarded<kernel_suggest_group_size>;
  t.pfnGetProperties = guarded<kernel_get_properties>;
  t.pfnGetName = guarded<kernel_get_name>;
  t.pfnSuggestMaxCooperativeGroupCount = guarded<kernel_suggest_max_cooperative_group_count>;
  t.pfnSetIndirectAccess = guarded<ze::set_indirect_access<Kernel>>;
  t.pfnGetIndirectAccess = guarded<ze::get_indirect_access<Kernel>>;
  t.pfnGetSourceAttributes = guarded<kernel_get_source_attributes>;
  t.pfnSetCacheConfig = guarded<kernel_set_cache_config>;
}

void implement(ze_kernel_exp_dditable_t &t) { t.pfnSetGlobalOffsetExp = guarded<kernel_set_global_offset>; }

} // namespace zeal::cuda
