// UR entry points of kernels over zeal Kernels, one per device of the program: create, info, group and sub-group
// info, execution hints. The launch (urEnqueueKernelLaunchWithArgsExp) and the suggested local size, which need a
// queue, come with the queues.
#include "adapter/core/queue.hpp"
#include "adapter/ur/program_set.hpp"

#include <fmt/ranges.h>

namespace zeal::adapter::ur {
namespace {

static_assert(sizeof(size_t) == sizeof(uint64_t), "UR's size_t answers are the zeal ABI's uint64_t ones");

using R = Result<InfoValue>;

ur_result_t kernel_create(ur_program_handle_t hProgram, const char *name, ur_kernel_handle_t *out) {
  return run([&]() -> Outcome {
    UrProgram *program = nullptr;
    if (Outcome o = check_handle(hProgram, program); !o.ok()) return o;
    if (name == nullptr || out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urKernelCreate: pKernelName or phKernel is null");
    auto kernel = UrKernel::create(*program, name);
    if (!kernel.ok()) return std::move(kernel).error();
    *out = to_ur<ur_kernel_handle_t>(kernel.value());
    return {};
  });
}

// A native handle is a Level Zero kernel of one of the program's modules; zeal needs the program (UR lets an
// adapter require it) for the kernel's launch checks and info, and a program of one device, since Level Zero
// cannot say which module a kernel is of. Not owned unless the properties say so.
ur_result_t kernel_from_native(ur_native_handle_t native, ur_context_handle_t hContext, ur_program_handle_t hProgram,
                               const ur_kernel_native_properties_t *properties, ur_kernel_handle_t *out) {
  constexpr const char *entry = "urKernelCreateWithNativeHandle";
  return run([&]() -> Outcome {
    Context *context = nullptr;
    UrProgram *program = nullptr;
    if (Outcome o = check_handle(hContext, context); !o.ok()) return o;
    if (Outcome o = check_handle(hProgram, program); !o.ok()) return o;
    if (out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urKernelCreateWithNativeHandle: phKernel is null");
    if (&program->context() != context)
      return fail(UR_RESULT_ERROR_INVALID_CONTEXT,
                  fmt::format("{}: the {} is not of the given context", entry, program->describe()));
    if (program->programs().size() != 1)
      return fail(UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                  fmt::format("{}: the {} has a module for each device, and a Level Zero kernel does not say which one "
                              "it is of: give a program of one device",
                              entry, program->describe()));
    const bool owned = properties != nullptr && properties->isNativeHandleOwned;
    auto kernel = Kernel::adopt(program->first(), reinterpret_cast<ze_kernel_handle_t>(native), owned);
    if (!kernel.ok()) return std::move(kernel).error();
    *out = to_ur<ur_kernel_handle_t>(new UrKernel(*program, Ref<Kernel>(kernel.value(), false)));
    return {};
  });
}

// OpenCL's spelling of the attributes the source gave (clGetKernelInfo's CL_KERNEL_ATTRIBUTES).
std::string attributes(const Kernel &k) {
  std::vector<std::string> list;
  const auto &wg = k.limits().required_work_group_size;
  if (wg[0] != 0) list.push_back(fmt::format("reqd_work_group_size({},{},{})", wg[0], wg[1], wg[2]));
  if (k.limits().required_sub_group_size != 0)
    list.push_back(fmt::format("intel_reqd_sub_group_size({})", k.limits().required_sub_group_size));
  return fmt::format("{}", fmt::join(list, " "));
}

// The name, arguments and attributes are the image's, the same in each device's kernel.
const UrInfoRow<UrKernel, ur_kernel_info_t> kKernelInfo[] = {
    {UR_KERNEL_INFO_FUNCTION_NAME, "FUNCTION_NAME", [](const UrKernel &k) -> R { return k.first().info(ZEAL_KERNEL_INFO_NAME); }},
    {UR_KERNEL_INFO_NUM_ARGS, "NUM_ARGS", [](const UrKernel &k) -> R { return k.first().info(ZEAL_KERNEL_INFO_NUM_ARGS); }},
    {UR_KERNEL_INFO_REFERENCE_COUNT, "REFERENCE_COUNT", [](const UrKernel &k) -> R { return info_of<uint32_t>(k.ref_count()); }},
    {UR_KERNEL_INFO_CONTEXT, "CONTEXT",
     [](const UrKernel &k) -> R { return info_of(to_ur<ur_context_handle_t>(&k.program().context())); }},
    {UR_KERNEL_INFO_PROGRAM, "PROGRAM", [](const UrKernel &k) -> R { return info_of(to_ur<ur_program_handle_t>(&k.program())); }},
    {UR_KERNEL_INFO_ATTRIBUTES, "ATTRIBUTES", [](const UrKernel &k) -> R { return info_string(attributes(k.first())); }},
    // One value per device, as the driver reports each (zeKernelGetProperties' spillMemSize).
    {UR_KERNEL_INFO_SPILL_MEM_SIZE, "SPILL_MEM_SIZE",
     [](const UrKernel &k) -> R {
       std::vector<uint32_t> sizes;
       for (const Ref<Kernel> &kernel : k.kernels()) {
         if (kernel->refusal()) return Error(*kernel->refusal());
         sizes.push_back(kernel->properties().spillMemSize);
       }
       return info_array(std::span<const uint32_t>(sizes));
     }},
};

// A zeal uint64_t answer as UR's size_t.
R as_size(const Kernel &k, zeal_kernel_info_t key) {
  auto value = zeal_fact<uint64_t>(k, key);
  if (!value.ok()) return std::move(value).error();
  return info_of<size_t>(value.value());
}

// The sub-group size of the widest local range the kernel allows: the zeal MAX_SUB_GROUP_SIZE for that range.
R widest_sub_group(const Kernel &k) {
  const std::array<size_t, 3> range = k.widest_local_range();
  auto answer = k.sub_group_info(ZEAL_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE, range.data(), "urKernelGetGroupInfo");
  if (!answer.ok()) return std::move(answer).error();
  uint32_t size = 0;
  std::memcpy(&size, answer.value().bytes.data(), sizeof size);
  return info_of<size_t>(size);
}

// The largest global size a launch can have: the most groups of the largest local size, per dimension.
R global_work_size(const Kernel &k) {
  const DeviceLimits &d = k.program().device().limits();
  std::array<size_t, 3> most{};
  for (size_t i = 0; i < 3; ++i)
    if (__builtin_mul_overflow(d.max_group_count[i], d.max_work_item_sizes[i], &most[i])) most[i] = SIZE_MAX;
  return info_of(most);
}

const UrInfoRow<Kernel, ur_kernel_group_info_t> kGroupInfo[] = {
    {UR_KERNEL_GROUP_INFO_GLOBAL_WORK_SIZE, "GLOBAL_WORK_SIZE", global_work_size},
    {UR_KERNEL_GROUP_INFO_WORK_GROUP_SIZE, "WORK_GROUP_SIZE",
     [](const Kernel &k) -> R { return k.info(ZEAL_KERNEL_INFO_MAX_WORK_GROUP_SIZE); }},
    {UR_KERNEL_GROUP_INFO_COMPILE_WORK_GROUP_SIZE, "COMPILE_WORK_GROUP_SIZE",
     [](const Kernel &k) -> R { return k.info(ZEAL_KERNEL_INFO_COMPILE_WORK_GROUP_SIZE); }},
    {UR_KERNEL_GROUP_INFO_LOCAL_MEM_SIZE, "LOCAL_MEM_SIZE",
     [](const Kernel &k) -> R { return as_size(k, ZEAL_KERNEL_INFO_LOCAL_MEM_SIZE); }},
    {UR_KERNEL_GROUP_INFO_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, "PREFERRED_WORK_GROUP_SIZE_MULTIPLE", widest_sub_group},
    {UR_KERNEL_GROUP_INFO_PRIVATE_MEM_SIZE, "PRIVATE_MEM_SIZE",
     [](const Kernel &k) -> R { return as_size(k, ZEAL_KERNEL_INFO_PRIVATE_MEM_SIZE); }},
};

// The kernel of the device a device-specific query names.
Outcome kernel_on(ur_kernel_handle_t hKernel, ur_device_handle_t hDevice, std::string_view entry, Kernel *&kernel) {
  UrKernel *ur_kernel = nullptr;
  if (Outcome o = check_handle(hKernel, ur_kernel); !o.ok()) return o;
  Device *device = nullptr;
  if (Outcome o = check_handle(hDevice, device); !o.ok()) return o;
  return ur_kernel->of(*device, entry, kernel);
}

std::string kernel_what(const Kernel &k) { return "kernel '" + k.name() + "'"; }
std::string ur_kernel_what(const UrKernel &k) { return kernel_what(k.first()); }

ur_result_t get_group_info(ur_kernel_handle_t hKernel, ur_device_handle_t hDevice, ur_kernel_group_info_t key,
                           size_t size, void *value, size_t *size_ret) {
  return run([&]() -> Outcome {
    Kernel *kernel = nullptr;
    if (Outcome o = kernel_on(hKernel, hDevice, "urKernelGetGroupInfo", kernel); !o.ok()) return o;
    return answer_ur_info<Kernel, ur_kernel_group_info_t>(kGroupInfo, *kernel, key,
                                                          UR_KERNEL_GROUP_INFO_COMPILE_MAX_LINEAR_WORK_GROUP_SIZE, size,
                                                          value, size_ret, kernel_what(*kernel));
  });
}

// UR's sub-group keys are the zeal ABI's, numbered from 0. UR's MAX_SUB_GROUP_SIZE takes no local range: it is
// the answer for the widest one the kernel allows.
ur_result_t get_sub_group_info(ur_kernel_handle_t hKernel, ur_device_handle_t hDevice, ur_kernel_sub_group_info_t key,
                               size_t size, void *value, size_t *size_ret) {
  return run([&]() -> Outcome {
    Kernel *kernel = nullptr;
    if (Outcome o = kernel_on(hKernel, hDevice, "urKernelGetSubGroupInfo", kernel); !o.ok()) return o;
    const int32_t k = abi_value(key);
    if (k < UR_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE || k > UR_KERNEL_SUB_GROUP_INFO_SUB_GROUP_SIZE_INTEL)
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("{} sub-group info key {} is not a ur_kernel_sub_group_info_t", kernel_what(*kernel), k));
    static_assert(ZEAL_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE == UR_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE + 1 &&
                  ZEAL_KERNEL_SUB_GROUP_INFO_COMPILE_SUB_GROUP_SIZE == UR_KERNEL_SUB_GROUP_INFO_SUB_GROUP_SIZE_INTEL + 1);
    const std::array<size_t, 3> range = kernel->widest_local_range();
    auto answer = kernel->sub_group_info(k + 1, range.data(), "urKernelGetSubGroupInfo");
    if (!answer.ok()) return std::move(answer).error();
    return write_ur_info(answer.value(), size, value, size_ret, kernel_what(*kernel));
  });
}

// A hint's value must be exactly as large as its type.
Outcome check_hint_size(const Kernel &k, const char *hint, size_t size, size_t expected) {
  if (size == expected) return {};
  return fail(UR_RESULT_ERROR_INVALID_SIZE,
              fmt::format("urKernelSetExecInfo {} of {}: propSize is {}, not {}", hint, kernel_what(k), size, expected));
}

// A hint goes to each device's kernel.
template <class Set>
Outcome for_each_kernel(const UrKernel &k, Set &&set) {
  for (const Ref<Kernel> &kernel : k.kernels())
    if (Status s = set(*kernel); !s.ok()) return s;
  return {};
}

Outcome set_cache_config(const UrKernel &k, size_t size, const void *value) {
  if (Outcome o = check_hint_size(k.first(), "CACHE_CONFIG", size, sizeof(ur_kernel_cache_config_t)); !o.ok()) return o;
  int32_t config = 0;
  std::memcpy(&config, value, sizeof config);
  ze_cache_config_flags_t flags = 0;
  switch (config) {
  case UR_KERNEL_CACHE_CONFIG_DEFAULT: break;
  case UR_KERNEL_CACHE_CONFIG_LARGE_SLM: flags = ZE_CACHE_CONFIG_FLAG_LARGE_SLM; break;
  case UR_KERNEL_CACHE_CONFIG_LARGE_DATA: flags = ZE_CACHE_CONFIG_FLAG_LARGE_DATA; break;
  default:
    return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                fmt::format("urKernelSetExecInfo CACHE_CONFIG of {}: {} is not a ur_kernel_cache_config_t",
                            ur_kernel_what(k), config));
  }
  return for_each_kernel(k, [&](Kernel &kernel) { return kernel.set_cache_config(flags); });
}

ur_result_t set_exec_info(ur_kernel_handle_t hKernel, ur_kernel_exec_info_t key, size_t size,
                          const ur_kernel_exec_info_properties_t *, const void *value) {
  return run([&]() -> Outcome {
    UrKernel *kernel = nullptr;
    if (Outcome o = check_handle(hKernel, kernel); !o.ok()) return o;
    if (value == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urKernelSetExecInfo: pPropValue is null");
    switch (abi_value(key)) {
    case UR_KERNEL_EXEC_INFO_USM_INDIRECT_ACCESS: {
      if (Outcome o = check_hint_size(kernel->first(), "USM_INDIRECT_ACCESS", size, sizeof(ur_bool_t)); !o.ok()) return o;
      const bool indirect = *static_cast<const ur_bool_t *>(value) != 0;
      return for_each_kernel(*kernel, [&](Kernel &k) { return k.set_indirect_access(indirect); });
    }
    case UR_KERNEL_EXEC_INFO_USM_PTRS:
      // Level Zero has no per-pointer form: USM_INDIRECT_ACCESS is what makes allocations reachable indirectly.
      if (size % sizeof(void *) != 0)
        return fail(UR_RESULT_ERROR_INVALID_SIZE,
                    fmt::format("urKernelSetExecInfo USM_PTRS of {}: propSize {} is not a whole number of pointers",
                                ur_kernel_what(*kernel), size));
      return {};
    case UR_KERNEL_EXEC_INFO_CACHE_CONFIG: return set_cache_config(*kernel, size, value);
    }
    return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                fmt::format("urKernelSetExecInfo: property {} of {} is not a ur_kernel_exec_info_t", abi_value(key),
                            ur_kernel_what(*kernel)));
  });
}

// The Level Zero kernel of the program's first device, as for the program's native handle.
ur_result_t native_kernel(ur_kernel_handle_t hKernel, ur_native_handle_t *out) {
  return run([&]() -> Outcome {
    UrKernel *ur_kernel = nullptr;
    if (Outcome o = check_handle(hKernel, ur_kernel); !o.ok()) return o;
    if (out == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urKernelGetNativeHandle: phNativeKernel is null");
    const Kernel &kernel = ur_kernel->first();
    if (kernel.refusal()) return Error(*kernel.refusal()); // no Level Zero kernel was made
    *out = reinterpret_cast<ur_native_handle_t>(kernel.ze());
    return {};
  });
}

} // namespace

ur_result_t suggested_local_size(ur_kernel_handle_t handle, ur_queue_handle_t queue_handle, uint32_t work_dim,
                                 const size_t *offset, const size_t *global, size_t *out) {
  return run([&]() -> Outcome {
    UrKernel *ur_kernel = nullptr;
    Queue *queue = nullptr;
    if (Outcome o = check_handle(handle, ur_kernel); !o.ok()) return o;
    if (Outcome o = check_handle(queue_handle, queue); !o.ok()) return o;
    if (offset == nullptr || global == nullptr || out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urKernelGetSuggestedLocalWorkSize: pGlobalWorkOffset, "
                                                        "pGlobalWorkSize or pSuggestedLocalWorkSize is null");
    if (work_dim < 1 || work_dim > 3)
      return fail(UR_RESULT_ERROR_INVALID_WORK_DIMENSION,
                  fmt::format("urKernelGetSuggestedLocalWorkSize: numWorkDim is {}, not 1, 2 or 3", work_dim));
    Kernel *kernel = nullptr;
    if (Outcome o = ur_kernel->of(queue->device(), "urKernelGetSuggestedLocalWorkSize", kernel); !o.ok()) return o;
    auto local = kernel->suggest_local_size(work_dim, global);
    if (!local.ok()) return std::move(local).error();
    std::copy_n(local.value().begin(), work_dim, out);
    return {};
  });
}

// For a cooperative launch (UR_KERNEL_LAUNCH_FLAG_COOPERATIVE): how many work-groups of the local size may run
// at once on `device` (Kernel::max_cooperative_groups).
ur_result_t max_cooperative_groups(ur_kernel_handle_t handle, ur_device_handle_t device_handle, uint32_t work_dim,
                                   const size_t *local, size_t dynamic_local, uint32_t *out) {
  constexpr const char *entry = "urKernelSuggestMaxCooperativeGroupCount";
  return run([&]() -> Outcome {
    UrKernel *ur_kernel = nullptr;
    Device *device = nullptr;
    if (Outcome o = check_handle(handle, ur_kernel); !o.ok()) return o;
    if (Outcome o = check_handle(device_handle, device); !o.ok()) return o;
    if (local == nullptr || out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER,
                  fmt::format("{}: pLocalWorkSize or pGroupCountRet is null", entry));
    if (work_dim < 1 || work_dim > 3)
      return fail(UR_RESULT_ERROR_INVALID_WORK_DIMENSION,
                  fmt::format("{}: workDim is {}, not 1, 2 or 3", entry, work_dim));
    Kernel *kernel = nullptr;
    if (Outcome o = ur_kernel->of(*device, entry, kernel); !o.ok()) return o;
    auto count = kernel->max_cooperative_groups(work_dim, local, dynamic_local);
    if (!count.ok()) return std::move(count).error();
    *out = count.value();
    return {};
  });
}

void implement(ur_kernel_dditable_t &t) {
  t.pfnSuggestMaxCooperativeGroupCount = max_cooperative_groups;
  t.pfnCreate = kernel_create;
  t.pfnCreateWithNativeHandle = kernel_from_native;
  t.pfnRetain = retain<UrKernel>;
  t.pfnRelease = release<UrKernel>;
  t.pfnGetInfo = [](ur_kernel_handle_t k, ur_kernel_info_t key, size_t size, void *value, size_t *size_ret) {
    return get_info<UrKernel>(k, kKernelInfo, UR_KERNEL_INFO_SPILL_MEM_SIZE, key, size, value, size_ret,
                              ur_kernel_what);
  };
  t.pfnGetGroupInfo = get_group_info;
  t.pfnGetSubGroupInfo = get_sub_group_info;
  t.pfnSetExecInfo = set_exec_info;
  t.pfnGetNativeHandle = native_kernel;
  t.pfnGetSuggestedLocalWorkSize = suggested_local_size;
}

} // namespace zeal::adapter::ur
