// Command lists and the zeCommandList* entry points (appends capture everything they need).
#include "cpu_driver/runtime/command_list.hpp"

#include "common/log.hpp"
#include "cpu_driver/runtime/command_queue.hpp"
#include "cpu_driver/runtime/context.hpp"
#include "cpu_driver/runtime/copy_region.hpp"
#include "cpu_driver/runtime/ddi.hpp"
#include "cpu_driver/runtime/driver.hpp"
#include "cpu_driver/runtime/event.hpp"
#include "cpu_driver/runtime/image.hpp"
#include "cpu_driver/runtime/kernel.hpp"

#include <fmt/format.h>

#include <cstring>

namespace zeal::cpu {

CommandList::CommandList(Context &context, std::unique_ptr<Executor> immediate, uint32_t group, bool synchronous)
    : context_(context), immediate_(std::move(immediate)), group_(group), synchronous_(synchronous),
      commands_(std::make_shared<std::vector<Command>>()) {
  if (immediate_ != nullptr) context_.add_stream(*immediate_);
}

CommandList::~CommandList() {
  if (immediate_ != nullptr) context_.remove_stream(*immediate_);
}

ze_result_t CommandList::append(Command command) {
  if (immediate_ != nullptr) {
    if (immediate_->health().lost()) return ZE_RESULT_ERROR_DEVICE_LOST; // nothing runs on a lost device
    immediate_->submit(std::make_shared<const std::vector<Command>>(1, std::move(command)));
    if (synchronous_) immediate_->synchronize(UINT64_MAX);
    return synchronous_ && immediate_->health().lost() ? ZE_RESULT_ERROR_DEVICE_LOST : ZE_RESULT_SUCCESS;
  }
  std::lock_guard lock(mutex_);
  if (closed_) {
    zeal::logger("zeal-cpu").warn("append to a closed command list; reset it first");
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  commands_->push_back(std::move(command));
  return ZE_RESULT_SUCCESS;
}

void CommandList::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
}

void CommandList::reset() {
  if (immediate_ != nullptr) immediate_->synchronize(UINT64_MAX);
  std::lock_guard lock(mutex_);
  commands_ = std::make_shared<std::vector<Command>>();
  closed_ = false;
}

Executor::Batch CommandList::recorded() const {
  std::lock_guard lock(mutex_);
  return closed_ ? commands_ : nullptr;
}

ze_result_t make_command(Operation op, ze_event_handle_t signal, uint32_t wait_count, ze_event_handle_t *waits,
                         Command &out) {
  if (wait_count > 0 && waits == nullptr) return ZE_RESULT_ERROR_INVALID_SIZE;
  out.op = std::move(op);
  out.signal = signal != nullptr ? Event::from(signal) : nullptr;
  out.waits.reserve(wait_count);
  for (uint32_t i = 0; i < wait_count; ++i) {
    if (waits[i] == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    out.waits.push_back(Event::from(waits[i]));
  }
  return ZE_RESULT_SUCCESS;
}

namespace {

// The tail every append shares: wrap the operation with its events and append it.
ze_result_t append(ze_command_list_handle_t list, Operation op, ze_event_handle_t signal, uint32_t wait_count,
                   ze_event_handle_t *waits) {
  Command command;
  if (ze_result_t r = make_command(std::move(op), signal, wait_count, waits, command); r != ZE_RESULT_SUCCESS)
    return r;
  return CommandList::from(list)->append(std::move(command));
}

ze_result_t list_create(ze_context_handle_t context, ze_device_handle_t device, const ze_command_list_desc_t *desc,
                        ze_command_list_handle_t *out) {
  if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->commandQueueGroupOrdinal >= queue_group_count) {
    zeal::logger("zeal-cpu").warn("zeCommandListCreate: queue group {} does not exist; the device has groups 0 "
                                  "(compute) and 1 (copy)",
                                  desc->commandQueueGroupOrdinal);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  *out = new CommandList(*Context::from(context), nullptr, desc->commandQueueGroupOrdinal, false);
  return ZE_RESULT_SUCCESS;
}

ze_result_t list_create_immediate(ze_context_handle_t context, ze_device_handle_t device,
                                  const ze_command_queue_desc_t *desc, ze_command_list_handle_t *out) {
  if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ze_result_t r = check_queue_desc(*desc); r != ZE_RESULT_SUCCESS) return r;
  Context *c = Context::from(context);
  Device *d = Device::from(device);
  *out = new CommandList(*c, std::make_unique<Executor>(d->pool(), d->health(), priority_of(*desc)), desc->ordinal,
                         desc->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  return ZE_RESULT_SUCCESS;
}

ze_result_t list_close(ze_command_list_handle_t list) {
  if (list == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  CommandList::from(list)->close();
  return ZE_RESULT_SUCCESS;
}

ze_result_t list_reset(ze_command_list_handle_t list) {
  if (list == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  CommandList::from(list)->reset();
  return ZE_RESULT_SUCCESS;
}

ze_result_t append_barrier(ze_command_list_handle_t list, ze_event_handle_t signal, uint32_t wait_count,
                           ze_event_handle_t *waits) {
  if (list == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return append(list, NoOp{}, signal, wait_count, waits);
}

ze_result_t append_memory_ranges_barrier(ze_command_list_handle_t list, uint32_t range_count, const size_t *sizes,
                                         const void **ranges, ze_event_handle_t signal, uint32_t wait_count,
                                         ze_event_handle_t *waits) {
  if (list == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (range_count > 0 && (sizes == nullptr || ranges == nullptr)) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return append(list, NoOp{}, signal, wait_count, waits); // host memory is coherent: ranges need nothing
}

ze_result_t append_memory_copy(ze_command_list_handle_t list, void *dst, const void *src, size_t size,
                               ze_event_handle_t signal, uint32_t wait_count, ze_event_handle_t *waits) {
  if (list == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (dst == nullptr || src == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return append(list, MemoryCopy{dst, src, size}, signal, wait_count, waits);
}

ze_result_t append_memory_copy_region(ze_command_list_handle_t list, void *dst, const ze_copy_region_t *dst_region,
                                      uint32_t dst_pitch, uint32_t dst_slice_pitch, const void *src,
                                      const ze_copy_region_t *src_region, uint32_t src_pitch, uint32_t src_slice_pitch,
                                      ze_event_handle_t signal, uint32_t wait_count, ze_event_handle_t *waits) {
  if (list == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (dst == nullptr || dst_region == nullptr || src == nullptr || src_region == nullptr)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return Images::append_copy(list, {dst, *dst_region, dst_pitch, dst_slice_pitch},
                             {src, *src_region, src_pitch, src_slice_pitch}, signal, wait_count, waits);
}

// Every context's allocations are host memory of this process: a copy from another context is a copy.
ze_result_t append_memory_copy_from_context(ze_command_list_handle_t list, void *dst, ze_context_handle_t src_context,
                                            const void *src, size_t size, ze_event_handle_t signal,
                                            uint32_t wait_count, ze_event_handle_t *waits) {
  if (src_context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return append_memory_copy(list, dst, src, size, signal, wait_count, waits);
}

ze_result_t append_memory_fill(ze_command_list_handle_t list, void *dst, const void *pattern, size_t pattern_size,
                               size_t size, ze_event_handle_t signal, uint32_t wait_count, ze_event_handle_t *waits) {
  if (list == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (dst == nullptr || pattern == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // A power of two no larger than maxMemoryFillPatternSize (128), as the queue group reports.
  if (pattern_size == 0 || pattern_size > 128 || (pattern_size & (pattern_size - 1)) != 0)
    return ZE_RESULT_ERROR_INVALID_SIZE;
  MemoryFill fill{dst, std::vector<std::byte>(pattern_size), size};
  std::memcpy(fill.pattern.data(), pattern, pattern_size); // captured now: the caller may reuse it
  return append(list, std::move(fill), signal, wait_count, waits);
}

ze_result_t append_memory_prefetch(ze_command_list_handle_t list, const void *ptr, size_t) {
  if (list == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return ptr == nullptr ? ZE_RESULT_ERROR_INVALID_NULL_POINTER : ZE_RESULT_SUCCESS; // already in host memory
}

// A hint only; host memory has no placement or caching to change, so a valid advice changes nothing.
ze_result_t append_mem_advise(ze_command_list_handle_t list, ze_device_handle_t device, const void *ptr, size_t,
                              ze_memory_advice_t advice) {
  if (list == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (ptr == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (advice > ZE_MEMORY_ADVICE_BIAS_UNCACHED) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  return ZE_RESULT_SUCCESS;
}

ze_result_t append_write_global_timestamp(ze_command_list_handle_t list, uint64_t *dst, ze_event_handle_t signal,
                                          uint32_t wait_count, ze_event_handle_t *waits) {
  if (list == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (dst == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return append(list, TimestampWrite{dst}, signal, wait_count, waits);
}

ze_result_t append_query_kernel_timestamps(ze_command_list_handle_t list, uint32_t count, ze_event_handle_t *events,
                                           void *dst, const size_t *offsets, ze_event_handle_t signal,
                                           uint32_t wait_count, ze_event_handle_t *waits) {
  if (list == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (events == nullptr || dst == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  KernelTimestampQuery query{{}, static_cast<std::byte *>(dst), {}};
  query.events.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    if (events[i] == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    query.events.push_back(Event::from(events[i]));
  }
  if (offsets != nullptr) query.offsets.assign(offsets, offsets + count);
  return append(list, std::move(query), signal, wait_count, waits);
}

ze_result_t append_signal_event(ze_command_list_handle_t list, ze_event_handle_t event) {
  if (list == nullptr || event == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return append(list, NoOp{}, event, 0, nullptr);
}

ze_result_t append_wait_on_events(ze_command_list_handle_t list, uint32_t count, ze_event_handle_t *events) {
  if (list == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (events == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return append(list, NoOp{}, nullptr, count, events);
}

ze_result_t append_event_reset(ze_command_list_handle_t list, ze_event_handle_t event) {
  if (list == nullptr || event == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return append(list, EventReset{Event::from(event)}, nullptr, 0, nullptr);
}

// What every launch checks first: its handles, its group counts, and that its list is of the compute group (a
// copy-only list refuses launches).
ze_result_t check_launch(const char *entry_point, ze_command_list_handle_t list, ze_kernel_handle_t kernel,
                         const void *groups) {
  if (list == nullptr || kernel == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (groups == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (CommandList::from(list)->group() == compute_group) return ZE_RESULT_SUCCESS;
  zeal::logger("zeal-cpu").warn("{}: the command list belongs to the copy-only queue group {}, which runs no kernels",
                                entry_point, CommandList::from(list)->group());
  return ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

ze_result_t append_launch_kernel(ze_command_list_handle_t list, ze_kernel_handle_t kernel,
                                 const ze_group_count_t *groups, ze_event_handle_t signal, uint32_t wait_count,
                                 ze_event_handle_t *waits) {
  if (ze_result_t r = check_launch("zeCommandListAppendLaunchKernel", list, kernel, groups); r != ZE_RESULT_SUCCESS)
    return r;
  KernelLaunch launch;
  if (ze_result_t r = Kernel::from(kernel)->capture_launch(*groups, launch); r != ZE_RESULT_SUCCESS) return r;
  return append(list, std::move(launch), signal, wait_count, waits);
}

// Launches of `kernels`, kernel i with groups[i], whose group counts (and, given `count`, how many of the
// kernels run) are read when the command runs; until then the caller may still write them.
ze_result_t append_indirect(const char *entry_point, ze_command_list_handle_t list,
                            std::span<const ze_kernel_handle_t> kernels, const uint32_t *count,
                            const ze_group_count_t *groups, ze_event_handle_t signal, uint32_t wait_count,
                            ze_event_handle_t *waits) {
  IndirectLaunches indirect{std::vector<KernelLaunch>(kernels.size()), groups, count};
  for (size_t i = 0; i < kernels.size(); ++i) {
    if (ze_result_t r = check_launch(entry_point, list, kernels[i], groups); r != ZE_RESULT_SUCCESS) return r;
    if (ze_result_t r = Kernel::from(kernels[i])->capture_launch({1, 1, 1}, indirect.launches[i]);
        r != ZE_RESULT_SUCCESS)
      return r;
  }
  return append(list, std::move(indirect), signal, wait_count, waits);
}

ze_result_t append_launch_kernel_indirect(ze_command_list_handle_t list, ze_kernel_handle_t kernel,
                                          const ze_group_count_t *groups, ze_event_handle_t signal,
                                          uint32_t wait_count, ze_event_handle_t *waits) {
  return append_indirect("zeCommandListAppendLaunchKernelIndirect", list, std::span(&kernel, 1), nullptr, groups,
                         signal, wait_count, waits);
}

// Up to `kernel_count` kernels, as many as *count says when the command runs.
ze_result_t append_launch_multiple_kernels_indirect(ze_command_list_handle_t list, uint32_t kernel_count,
                                                    ze_kernel_handle_t *kernels, const uint32_t *count,
                                                    const ze_group_count_t *groups, ze_event_handle_t signal,
                                                    uint32_t wait_count, ze_event_handle_t *waits) {
  if (list == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (kernels == nullptr || count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return append_indirect("zeCommandListAppendLaunchMultipleKernelsIndirect", list, std::span(kernels, kernel_count),
                         count, groups, signal, wait_count, waits);
}

// A cooperative launch's groups may wait for each other, so they must all run at once: each gets a thread of its
// own when the command runs, up to zeKernelSuggestMaxCooperativeGroupCount's number of them.
ze_result_t append_launch_cooperative_kernel(ze_command_list_handle_t list, ze_kernel_handle_t kernel,
                                             const ze_group_count_t *groups, ze_event_handle_t signal,
                                             uint32_t wait_count, ze_event_handle_t *waits) {
  if (ze_result_t r = check_launch("zeCommandListAppendLaunchCooperativeKernel", list, kernel, groups);
      r != ZE_RESULT_SUCCESS)
    return r;
  const uint64_t count = uint64_t{groups->groupCountX} * groups->groupCountY * groups->groupCountZ;
  const uint32_t limit = Kernel::from(kernel)->max_cooperative_groups();
  if (count > limit) {
    zeal::logger("zeal-cpu").warn("zeCommandListAppendLaunchCooperativeKernel: {} groups of kernel '{}' cannot all "
                                  "run at once: at most {} of its group size can (zeKernelSuggestMaxCooperativeGroupCount)",
                                  count, Kernel::from(kernel)->info().name, limit);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  KernelLaunch launch;
  if (ze_result_t r = Kernel::from(kernel)->capture_launch(*groups, launch); r != ZE_RESULT_SUCCESS) return r;
  launch.cooperative = true;
  return append(list, std::move(launch), signal, wait_count, waits);
}

} // namespace

// A box of bytes between two pitched layouts: zeCommandListAppendMemoryCopyRegion's, and the image copies'
// (ze_driver/image_entries.hpp: regions of the images' bytes).
ze_result_t Images::append_copy(ze_command_list_handle_t list, const ze::PitchedSide &dst,
                                const ze::PitchedSide &src, ze_event_handle_t signal, uint32_t count,
                                ze_event_handle_t *waits) {
  MemoryCopyRegion copy;
  if (ze_result_t r = plan_region_copy({dst.base, dst.region, dst.row_pitch, dst.slice_pitch},
                                       {src.base, src.region, src.row_pitch, src.slice_pitch}, copy);
      r != ZE_RESULT_SUCCESS)
    return r;
  return append(list, copy, signal, count, waits);
}

void implement(ze_command_list_dditable_t &t) {
  t.pfnCreate = guarded<list_create>;
  t.pfnCreateImmediate = guarded<list_create_immediate>;
  t.pfnDestroy = guarded<destroy<CommandList>>;
  t.pfnClose = guarded<list_close>;
  t.pfnReset = guarded<list_reset>;
  t.pfnAppendBarrier = guarded<append_barrier>;
  t.pfnAppendMemoryRangesBarrier = guarded<append_memory_ranges_barrier>;
  t.pfnAppendMemoryCopy = guarded<append_memory_copy>;
  t.pfnAppendMemoryCopyRegion = guarded<append_memory_copy_region>;
  ze::implement_image_copies<Images>(t); // the shared entries over Images::append_copy below
  t.pfnAppendMemoryCopyFromContext = guarded<append_memory_copy_from_context>;
  t.pfnAppendMemoryFill = guarded<append_memory_fill>;
  t.pfnAppendMemAdvise = guarded<append_mem_advise>;
  t.pfnAppendWriteGlobalTimestamp = guarded<append_write_global_timestamp>;
  t.pfnAppendQueryKernelTimestamps = guarded<append_query_kernel_timestamps>;
  t.pfnAppendMemoryPrefetch = guarded<append_memory_prefetch>;
  t.pfnAppendSignalEvent = guarded<append_signal_event>;
  t.pfnAppendWaitOnEvents = guarded<append_wait_on_events>;
  t.pfnAppendEventReset = guarded<append_event_reset>;
  t.pfnAppendLaunchKernel = guarded<append_launch_kernel>;
  t.pfnAppendLaunchCooperativeKernel = guarded<append_launch_cooperative_kernel>;
  t.pfnAppendLaunchKernelIndirect = guarded<append_launch_kernel_indirect>;
  t.pfnAppendLaunchMultipleKernelsIndirect = guarded<append_launch_multiple_kernels_indirect>;
}

} // namespace zeal::cpu
