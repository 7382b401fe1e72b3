// urEnqueueKernelLaunchWithArgsExp: UR's arguments and launch properties in zeal's terms, then the same
// Kernel::launch the zeal ABI uses, with its checks (required sub-group sizes, ranges, arguments).
#include "adapter/core/buffer.hpp"
#include "adapter/core/queue.hpp"
#include "adapter/ur/capture.hpp"
#include "adapter/ur/commands.hpp"
#include "adapter/ur/program_set.hpp"

#include <array>
#include <vector>

namespace zeal::adapter::ur {
namespace {

// Launch properties: serialising a queue is a hint zeal's queues need not take; a cooperative launch (all
// work-groups resident at once) is Kernel::launch's; clusters and dynamic work-group memory are not supported.
Outcome check_properties(const ur_kernel_launch_ext_properties_t *properties) {
  if (properties == nullptr) return {};
  if ((properties->flags & UR_KERNEL_LAUNCH_FLAGS_MASK) != 0)
    return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                fmt::format("urEnqueueKernelLaunchWithArgsExp: launch flags {:#x} have bits UR does not define",
                            properties->flags));
  for (const auto *next = static_cast<const ur_base_properties_t *>(properties->pNext); next != nullptr;
       next = static_cast<const ur_base_properties_t *>(next->pNext)) {
    if (next->stype == UR_STRUCTURE_TYPE_KERNEL_LAUNCH_WORKGROUP_PROPERTY &&
        reinterpret_cast<const ur_kernel_launch_workgroup_property_t *>(next)->workgroup_mem_size == 0)
      continue;
    return fail(UR_RESULT_ERROR_INVALID_OPERATION,
                fmt::format("urEnqueueKernelLaunchWithArgsExp: launch property of structure type {} is not "
                            "supported by zeal's devices",
                            abi_value(next->stype)));
  }
  return {};
}

ur_result_t launch(ur_queue_handle_t queue_handle, ur_kernel_handle_t kernel_handle, uint32_t work_dim,
                   const size_t *offset, const size_t *global, const size_t *local, uint32_t num_args,
                   const ur_exp_kernel_arg_properties_t *args, const ur_kernel_launch_ext_properties_t *properties,
                   uint32_t num_wait, const ur_event_handle_t *wait, ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    Queue *queue = nullptr;
    UrKernel *ur_kernel = nullptr;
    if (Outcome o = check_handle(queue_handle, queue); !o.ok()) return o;
    if (Outcome o = check_handle(kernel_handle, ur_kernel); !o.ok()) return o;
    Kernel *kernel = nullptr;
    if (Outcome o = ur_kernel->of(queue->device(), "urEnqueueKernelLaunchWithArgsExp", kernel); !o.ok()) return o;
    if (global == nullptr || (args == nullptr && num_args > 0))
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER,
                  "urEnqueueKernelLaunchWithArgsExp: pGlobalWorkSize is null, or pArgs is null with numArgs > 0");
    if (work_dim < 1 || work_dim > 3)
      return fail(UR_RESULT_ERROR_INVALID_WORK_DIMENSION,
                  fmt::format("urEnqueueKernelLaunchWithArgsExp: workDim is {}, not 1, 2 or 3", work_dim));
    // zeal reads an all-zero local size as "the adapter chooses"; UR says so with a null pointer only.
    for (uint32_t d = 0; local != nullptr && d < work_dim; ++d)
      if (local[d] == 0)
        return fail(UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE,
                    fmt::format("urEnqueueKernelLaunchWithArgsExp: the local size of dimension {} is 0", d));
    if (Outcome o = check_properties(properties); !o.ok()) return o;
    WaitList waits;
    if (Outcome o = wait_list(num_wait, wait, waits); !o.ok()) return o;

    zeal_launch_desc_t desc{};
    desc.work_dim = work_dim;
    for (uint32_t d = 0; d < work_dim; ++d) {
      desc.global_offset[d] = offset != nullptr ? offset[d] : 0;
      desc.global_size[d] = global[d];
      desc.local_size[d] = local != nullptr ? local[d] : 0;
    }
    // Arguments live on the stack for the common case, so a steady launch does not allocate.
    constexpr uint32_t kInlineArgs = 32;
    std::array<zeal_kernel_arg_t, kInlineArgs> inline_args;
    std::vector<zeal_kernel_arg_t> more;
    zeal_kernel_arg_t *converted = inline_args.data();
    if (num_args > kInlineArgs) {
      more.resize(num_args);
      converted = more.data();
    }
    for (uint32_t i = 0; i < num_args; ++i)
      if (Outcome o = convert_arg(args[i], converted[i], "urEnqueueKernelLaunchWithArgsExp"); !o.ok()) return o;
    desc.num_args = num_args;
    desc.args = converted;

    const bool cooperative = properties != nullptr && (properties->flags & UR_KERNEL_LAUNCH_FLAG_COOPERATIVE) != 0;
    auto graph = capture_target(*queue, waits.events());
    if (!graph.ok()) return std::move(graph).error();
    if (graph.value() != nullptr) {
      if (cooperative)
        return fail(UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                    fmt::format("urEnqueueKernelLaunchWithArgsExp: the queue captures into graph {}, which cannot "
                                "hold a cooperative launch",
                                graph.value()->id()));
      return capture_command(*graph.value(), *queue, Command::Launch, waits.events(), event, false,
                             [&](CommandBuffer &b, const CommandBuffer::Deps &d) -> Result<BufferCommand *> {
                               auto launch = record_launch(*ur_kernel, b.device(), work_dim, offset, global, local,
                                                           {converted, num_args}, "urEnqueueKernelLaunchWithArgsExp");
                               if (!launch.ok()) return std::move(launch).error();
                               return b.launch(std::move(launch).value(), d);
                             });
    }
    return hand_out(kernel->launch(*queue, desc, waits.events(), cooperative), false, event);
  });
}

} // namespace

Outcome convert_arg(const ur_exp_kernel_arg_properties_t &in, zeal_kernel_arg_t &out, const char *entry) {
  out.index = in.index;
  out.size = in.size;
  switch (in.type) {
  case UR_EXP_KERNEL_ARG_TYPE_VALUE:
    out.kind = ZEAL_KERNEL_ARG_VALUE;
    out.value = in.value.value;
    return {};
  case UR_EXP_KERNEL_ARG_TYPE_POINTER:
    out.kind = ZEAL_KERNEL_ARG_USM_POINTER;
    out.value = in.value.pointer;
    return {};
  case UR_EXP_KERNEL_ARG_TYPE_LOCAL:
    out.kind = ZEAL_KERNEL_ARG_LOCAL;
    out.value = nullptr;
    return {};
  case UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ: return mem_obj_arg(in.value.memObjTuple.hMem, in.index, out, entry);
  case UR_EXP_KERNEL_ARG_TYPE_SAMPLER: return sampler_arg(in.value.sampler, in.index, out, entry);
  default:
    return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                fmt::format("{}: argument {} has type {}, not a ur_exp_kernel_arg_type_t", entry, in.index,
                            abi_value(in.type)));
  }
}

void implement(ur_enqueue_exp_dditable_t &t) {
  t.pfnKernelLaunchWithArgsExp = launch;
  implement_queue_exp(t);
  implement_command_buffers(t);
  implement_graphs(t);
}

} // namespace zeal::adapter::ur
