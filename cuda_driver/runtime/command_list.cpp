// Command lists (command_list.hpp) and the zeCommandList* entry points: launches, copies, fills, barriers, events.
#include "cuda_driver/runtime/command_list.hpp"
#include "cuda_driver/runtime/command_queue.hpp"
#include "cuda_driver/runtime/indirect_launch.hpp"
#include "cuda_driver/runtime/cuda_call.hpp"
#include "cuda_driver/runtime/ddi.hpp"
#include "cuda_driver/runtime/event.hpp"
#include "cuda_driver/runtime/image.hpp"
#include "cuda_driver/runtime/kernel.hpp"

#include "common/log.hpp"

#include <algorithm>
#include <cstring>

namespace zeal::cuda {

CommandList::CommandList(Device &device, const Context &context, CUstream stream, uint32_t group, bool synchronous)
    : device_(device), context_(context), stream_(stream), group_(group), synchronous_(synchronous),
      feeder_(stream != nullptr ? std::make_unique<StreamFeeder>(device, stream) : nullptr) {}

CommandList::~CommandList() {
  if (stream_ == nullptr) return;
  feeder_.reset(); // once everything is enqueued
  device_.make_current();
  wait_for_stream(device_, stream_, UINT64_MAX);
  checked(device_.api().cuStreamDestroy_v2(stream_), "cuStreamDestroy_v2");
}

void CommandList::reset() {
  commands_.clear();
  events_.clear();
  waited_.clear();
  recorded_ = WorkTraits{.commands = 0};
  closed_ = false;
}

namespace {

void add_once(std::vector<Event *> &to, Event *e) {
  if (std::find(to.begin(), to.end(), e) == to.end()) to.push_back(e);
}

} // namespace

ze_result_t CommandList::append(Command command, const std::vector<Event *> &events, size_t waited,
                                WorkTraits traits) {
  if (!immediate()) {
    if (closed_) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    commands_.push_back(std::move(command));
    traits.host_waits = false; // as the events are when the list is executed (traits())
    recorded_.add(traits);
    for (Event *e : events) add_once(events_, e);
    for (size_t i = events.size() - waited; i < events.size(); ++i) add_once(waited_, events[i]);
    return ZE_RESULT_SUCCESS;
  }
  const char *what = "an immediate command list's command";
  ze_result_t result = feeder_->submit(std::move(command), traits, what, [&] {
    for (Event *e : events)
      if (ze_result_t r = e->use_word(device_); r != ZE_RESULT_SUCCESS) return r;
    return ZE_RESULT_SUCCESS;
  });
  if (result == ZE_RESULT_SUCCESS && synchronous_) result = feeder_->synchronize(UINT64_MAX);
  return result;
}

WorkTraits CommandList::traits() const {
  WorkTraits traits = recorded_;
  for (const Event *e : waited_) traits.host_waits = traits.host_waits || e->signal_unknown();
  return traits;
}

ze_result_t CommandList::use_words() const {
  for (Event *e : events_)
    if (ze_result_t r = e->use_word(device_); r != ZE_RESULT_SUCCESS) return r;
  return ZE_RESULT_SUCCESS;
}

ze_result_t CommandList::replay(CUstream stream) const {
  for (const Command &command : commands_)
    if (ze_result_t result = command(stream); result != ZE_RESULT_SUCCESS) return result;
  return ZE_RESULT_SUCCESS;
}

ze_result_t wait_for_stream(const Device &device, CUstream stream, uint64_t timeout) {
  device.make_current();
  if (timeout == UINT64_MAX) return checked(device.api().cuStreamSynchronize(stream), "cuStreamSynchronize");
  ze_result_t result = poll_until(timeout, [&](unsigned) {
    CUresult r = device.api().cuStreamQuery(stream);
    return r == CUDA_ERROR_NOT_READY ? ZE_RESULT_NOT_READY : checked(r, "cuStreamQuery");
  });
  if (result == ZE_RESULT_SUCCESS && device.prints()) // the stream is idle: this prints what its kernels wrote
    result = checked(device.api().cuStreamSynchronize(stream), "cuStreamSynchronize");
  return result;
}

ze_result_t new_stream(const Device &device, CUstream &stream, ze_command_queue_priority_t priority) {
  device.make_current();
  // CUDA's default is its least priority, so a low-priority queue is a default stream; a high one gets CUDA's
  // greatest, and its work is scheduled before the others' as it becomes ready.
  if (priority == ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH) {
    int least = 0, greatest = 0;
    if (ze_result_t r = checked(device.api().cuCtxGetStreamPriorityRange(&least, &greatest),
                                "cuCtxGetStreamPriorityRange");
        r != ZE_RESULT_SUCCESS)
      return r;
    return checked(device.api().cuStreamCreateWithPriority(&stream, CU_STREAM_NON_BLOCKING, greatest),
                   "cuStreamCreateWithPriority");
  }
  return checked(device.api().cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
}

namespace {

// Whether `pointer` is none of the list's context's allocations: pageable host memory (or another context's, taken
// for it), which CUDA copies from or into only once the stream has run what is before the copy, on the enqueuing
// thread (a command that copies it "drains": stream_feeder.hpp).
bool pageable(const CommandList &list, const void *pointer) { return !list.context().find(pointer).has_value(); }

// Whether a copy of `bytes` between `dst` and `src` drains: one side is pageable.
bool copy_drains(const CommandList &list, const void *dst, const void *src, size_t bytes) {
  return bytes > 0 && (pageable(list, dst) || pageable(list, src));
}

// A command with its events: waits for `waits`, runs `body`, signals `signal`, all in stream order.
// `traits`: what the body itself needs of the feeder (stream_feeder.hpp); the waits add theirs.
ze_result_t append_with_events(CommandList &list, Command body, ze_event_handle_t signal, uint32_t count,
                               ze_event_handle_t *waits, WorkTraits traits = {}) {
  if (count > 0 && waits == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // The event it signals (if any), then those it waits for: what the list is told the command uses.
  Event *signalled = signal != nullptr ? Event::from(signal) : nullptr;
  const size_t first_wait = signalled != nullptr ? 1 : 0;
  std::vector<Event *> events;
  events.reserve(first_wait + count);
  if (signalled != nullptr) events.push_back(signalled);
  for (uint32_t i = 0; i < count; ++i) {
    if (waits[i] == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    Event *e = Event::from(waits[i]);
    events.push_back(e);
    // Whether enqueueing it may put a wait on the stream, and whether that wait is for a signal no stream holds
    // yet (stream_feeder.hpp); a wait on an immediate list's own last signal is left out (Event::wait_on). A regular
    // list looks at its waits again when it is executed.
    if (e->would_wait_on(list.stream())) {
      traits.waits = true;
      traits.host_waits = traits.host_waits || e->signal_unknown();
    }
  }
  const Device *device = &list.device();
  uint64_t *stamps = signalled != nullptr ? signalled->device_timestamps() : nullptr;
  Command command = [=, body = std::move(body)](CUstream stream) {
    for (size_t i = first_wait; i < events.size(); ++i)
      if (ze_result_t r = events[i]->wait_on(*device, stream); r != ZE_RESULT_SUCCESS) return r;
    // A timestamp event's command is bracketed by stamps: from when its waits are over to when it is done.
    if (stamps != nullptr)
      if (ze_result_t r = device->write_timestamp(stream, &stamps[0]); r != ZE_RESULT_SUCCESS) return r;
    if (body)
      if (ze_result_t r = body(stream); r != ZE_RESULT_SUCCESS) return r;
    if (stamps != nullptr)
      if (ze_result_t r = device->write_timestamp(stream, &stamps[1]); r != ZE_RESULT_SUCCESS) return r;
    return signalled != nullptr ? signalled->signal_on(*device, stream) : ZE_RESULT_SUCCESS;
  };
  return list.append(std::move(command), events, count, traits);
}

// A list of the copy-only queue group runs no kernels.
ze_result_t check_compute(const char *entry_point, const CommandList &list) {
  if (list.group() == compute_group) return ZE_RESULT_SUCCESS;
  zeal::logger("zeal-cuda").error("{}: the command list belongs to the copy-only queue group {}, which runs no "
                                  "kernels", entry_point, list.group());
  return ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

ze_result_t append_launch_as(bool cooperative, ze_command_list_handle_t handle, ze_kernel_handle_t kernel,
                             const ze_group_count_t *groups, ze_event_handle_t signal, uint32_t count,
                             ze_event_handle_t *waits) {
  if (handle == nullptr || kernel == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (groups == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ze_result_t r = check_compute("zeCommandListAppendLaunchKernel", *CommandList::from(handle));
      r != ZE_RESULT_SUCCESS)
    return r;
  auto launch = std::make_shared<Launch>();
  std::string why;
  if (ze_result_t r = Kernel::from(kernel)->record(*groups, *launch, why); r != ZE_RESULT_SUCCESS) {
    zeal::logger("zeal-cuda").error("zeCommandListAppendLaunchKernel: {}", why);
    return r;
  }
  launch->cooperative = cooperative;
  if (groups->groupCountX == 0 || groups->groupCountY == 0 || groups->groupCountZ == 0) launch.reset(); // nothing
  Command body;
  if (launch) body = [launch](CUstream stream) { return launch->run(stream); };
  return append_with_events(*CommandList::from(handle), std::move(body), signal, count, waits);
}

// Indirect launches: the group counts (and, for several kernels, how many of them run) are read when the commands
// before are done, by the stream's feeder (indirect_launch.hpp); the arguments are those at the append.
ze_result_t append_launches_indirect(ze_command_list_handle_t handle, uint32_t kernel_count,
                                     ze_kernel_handle_t *kernels, const uint32_t *count_at,
                                     const ze_group_count_t *groups_at, ze_event_handle_t signal, uint32_t count,
                                     ze_event_handle_t *waits) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (kernels == nullptr || groups_at == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ze_result_t r = check_compute("zeCommandListAppendLaunchKernelIndirect", *CommandList::from(handle));
      r != ZE_RESULT_SUCCESS)
    return r;
  std::vector<std::shared_ptr<Launch>> launches;
  for (uint32_t i = 0; i < kernel_count; ++i) {
    if (kernels[i] == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    auto launch = std::make_shared<Launch>();
    std::string why;
    if (ze_result_t r = Kernel::from(kernels[i])->record(ze_group_count_t{1, 1, 1}, *launch, why);
        r != ZE_RESULT_SUCCESS) {
      zeal::logger("zeal-cuda").error("zeCommandListAppendLaunchKernelIndirect: {}", why);
      return r;
    }
    launches.push_back(std::move(launch));
  }
  const Device *device = &CommandList::from(handle)->device();
  IndirectLaunches work{std::move(launches), count_at, groups_at};
  Command body = [device, work = std::move(work)](CUstream stream) { return launch_indirect(*device, stream, work); };
  return append_with_events(*CommandList::from(handle), std::move(body), signal, count, waits, {.syncs = true});
}

ze_result_t append_launch_indirect(ze_command_list_handle_t handle, ze_kernel_handle_t kernel,
                                   const ze_group_count_t *groups, ze_event_handle_t signal, uint32_t count,
                                   ze_event_handle_t *waits) {
  if (kernel == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return append_launches_indirect(handle, 1, &kernel, nullptr, groups, signal, count, waits);
}

ze_result_t append_launch_multiple_indirect(ze_command_list_handle_t handle, uint32_t kernel_count,
                                            ze_kernel_handle_t *kernels, const uint32_t *count_at,
                                            const ze_group_count_t *groups, ze_event_handle_t signal,
                                            uint32_t count, ze_event_handle_t *waits) {
  if (count_at == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return append_launches_indirect(handle, kernel_count, kernels, count_at, groups, signal, count, waits);
}

ze_result_t append_launch(ze_command_list_handle_t handle, ze_kernel_handle_t kernel, const ze_group_count_t *groups,
                          ze_event_handle_t signal, uint32_t count, ze_event_handle_t *waits) {
  return append_launch_as(false, handle, kernel, groups, signal, count, waits);
}

ze_result_t append_launch_cooperative(ze_command_list_handle_t handle, ze_kernel_handle_t kernel,
                                      const ze_group_count_t *groups, ze_event_handle_t signal, uint32_t count,
                                      ze_event_handle_t *waits) {
  return append_launch_as(true, handle, kernel, groups, signal, count, waits);
}

ze_result_t append_copy(ze_command_list_handle_t handle, void *dst, const void *src, size_t size,
                        ze_event_handle_t signal, uint32_t count, ze_event_handle_t *waits) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (dst == nullptr || src == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const Device *device = &CommandList::from(handle)->device();
  Command body;
  if (size > 0)
    body = [=](CUstream stream) {
      return checked(device->api().cuMemcpyAsync(CUdeviceptr(dst), CUdeviceptr(src), size, stream), "cuMemcpyAsync");
    };
  CommandList &list = *CommandList::from(handle);
  return append_with_events(list, std::move(body), signal, count, waits,
                            {.drains = copy_drains(list, dst, src, size)});
}

// Every context of the driver is the device's primary CUDA context, so another context's allocation is reached as
// this one's are: a copy from another context is a copy.
ze_result_t append_copy_from_context(ze_command_list_handle_t handle, void *dst, ze_context_handle_t src_context,
                                     const void *src, size_t size, ze_event_handle_t signal, uint32_t count,
                                     ze_event_handle_t *waits) {
  if (src_context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return append_copy(handle, dst, src, size, signal, count, waits);
}

// A box of `region` (width in bytes, height rows, depth slices) between two pitched layouts: one 2-D copy per slice.
ze_result_t append_copy_region(ze_command_list_handle_t handle, void *dst, const ze_copy_region_t *dst_region,
                               uint32_t dst_pitch, uint32_t dst_slice_pitch, const void *src,
                               const ze_copy_region_t *src_region, uint32_t src_pitch, uint32_t src_slice_pitch,
                               ze_event_handle_t signal, uint32_t count, ze_event_handle_t *waits) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (dst == nullptr || src == nullptr || dst_region == nullptr || src_region == nullptr)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (dst_region->width != src_region->width || dst_region->height != src_region->height ||
      dst_region->depth != src_region->depth) {
    zeal::logger("zeal-cuda").warn("zeCommandListAppendMemoryCopyRegion: the destination region is {}x{}x{} bytes, "
                                   "the source region {}x{}x{}", dst_region->width, dst_region->height,
                                   dst_region->depth, src_region->width, src_region->height, src_region->depth);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  // A pitch of 0 means rows (and slices) lie back to back.
  const size_t width = src_region->width, height = std::max(src_region->height, 1u),
               depth = std::max(src_region->depth, 1u);
  const size_t sp = src_pitch != 0 ? src_pitch : width, dp = dst_pitch != 0 ? dst_pitch : width;
  const size_t ss = src_slice_pitch != 0 ? src_slice_pitch : sp * height,
               ds = dst_slice_pitch != 0 ? dst_slice_pitch : dp * height;
  const auto s_at = CUdeviceptr(src) + src_region->originZ * ss + src_region->originY * sp + src_region->originX;
  const auto d_at = CUdeviceptr(dst) + dst_region->originZ * ds + dst_region->originY * dp + dst_region->originX;
  const Device *device = &CommandList::from(handle)->device();
  Command body;
  if (width > 0)
    body = [=](CUstream stream) {
      for (size_t z = 0; z < depth; ++z) {
        Memcpy2D copy;
        copy.src_device = s_at + z * ss;
        copy.src_pitch = sp;
        copy.dst_device = d_at + z * ds;
        copy.dst_pitch = dp;
        copy.width_bytes = width;
        copy.height = height;
        if (ze_result_t r = checked(device->api().cuMemcpy2DAsync_v2(&copy, stream), "cuMemcpy2DAsync_v2");
            r != ZE_RESULT_SUCCESS)
          return r;
      }
      return ZE_RESULT_SUCCESS;
    };
  CommandList &list = *CommandList::from(handle);
  return append_with_events(list, std::move(body), signal, count, waits,
                            {.drains = copy_drains(list, dst, src, width)});
}

// Patterns of 1, 2 and 4 bytes (aligned) are CUDA's memsets; a longer one is copied once from the host, then
// doubled by copies within the destination.
// Whether a fill of `size` bytes at `at` with an `n`-byte pattern copies the pattern from host memory (else one of
// CUDA's memsets writes it).
bool fill_copies_pattern(CUdeviceptr at, size_t n, size_t size) {
  return !(n == 1 || (n == 2 && at % 2 == 0 && size % 2 == 0) || (n == 4 && at % 4 == 0 && size % 4 == 0));
}

ze_result_t fill(const Device &device, CUstream stream, char *dst, const std::vector<uint8_t> &pattern, size_t size) {
  const DriverApi &api = device.api();
  const size_t n = pattern.size();
  const auto at = CUdeviceptr(dst);
  if (n == 1) return checked(api.cuMemsetD8Async(at, pattern[0], size, stream), "cuMemsetD8Async");
  if (n == 2 && at % 2 == 0 && size % 2 == 0) {
    uint16_t v;
    std::memcpy(&v, pattern.data(), 2);
    return checked(api.cuMemsetD16Async(at, v, size / 2, stream), "cuMemsetD16Async");
  }
  if (n == 4 && at % 4 == 0 && size % 4 == 0) {
    uint32_t v;
    std::memcpy(&v, pattern.data(), 4);
    return checked(api.cuMemsetD32Async(at, v, size / 4, stream), "cuMemsetD32Async");
  }
  size_t done = std::min(n, size);
  // From pageable memory, CUDA has taken the bytes when the call returns.
  ze_result_t r = checked(api.cuMemcpyAsync(at, CUdeviceptr(pattern.data()), done, stream), "cuMemcpyAsync");
  while (r == ZE_RESULT_SUCCESS && done < size) {
    const size_t step = std::min(done, size - done);
    r = checked(api.cuMemcpyAsync(at + done, at, step, stream), "cuMemcpyAsync");
    done += step;
  }
  return r;
}

ze_result_t append_fill(ze_command_list_handle_t handle, void *ptr, const void *pattern, size_t pattern_size,
                        size_t size, ze_event_handle_t signal, uint32_t count, ze_event_handle_t *waits) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (ptr == nullptr || pattern == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (pattern_size == 0 || pattern_size > 128 || (pattern_size & (pattern_size - 1)) != 0)
    return ZE_RESULT_ERROR_INVALID_SIZE;
  const Device *device = &CommandList::from(handle)->device();
  auto bytes = std::make_shared<std::vector<uint8_t>>(static_cast<const uint8_t *>(pattern),
                                                      static_cast<const uint8_t *>(pattern) + pattern_size);
  Command body;
  if (size > 0) body = [=](CUstream stream) { return fill(*device, stream, static_cast<char *>(ptr), *bytes, size); };
  // The pattern is copied from pageable memory (the command's own): CUDA may wait for the stream to take it.
  const bool drains = size > 0 && fill_copies_pattern(CUdeviceptr(ptr), pattern_size, size);
  return append_with_events(*CommandList::from(handle), std::move(body), signal, count, waits, {.drains = drains});
}

ze_result_t append_barrier(ze_command_list_handle_t handle, ze_event_handle_t signal, uint32_t count,
                           ze_event_handle_t *waits) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  // A list's commands already run in order on one stream: a barrier is its waits and its signal.
  return append_with_events(*CommandList::from(handle), {}, signal, count, waits);
}

ze_result_t append_memory_ranges_barrier(ze_command_list_handle_t handle, uint32_t, const size_t *, const void **,
                                         ze_event_handle_t signal, uint32_t count, ze_event_handle_t *waits) {
  return append_barrier(handle, signal, count, waits);
}

ze_result_t append_signal_event(ze_command_list_handle_t handle, ze_event_handle_t event) {
  if (handle == nullptr || event == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return append_with_events(*CommandList::from(handle), {}, event, 0, nullptr);
}

ze_result_t append_wait_on_events(ze_command_list_handle_t handle, uint32_t count, ze_event_handle_t *events) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return append_with_events(*CommandList::from(handle), {}, nullptr, count, events);
}

ze_result_t append_event_reset(ze_command_list_handle_t handle, ze_event_handle_t event) {
  if (handle == nullptr || event == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const Device *device = &CommandList::from(handle)->device();
  Event *e = Event::from(event);
  return CommandList::from(handle)->append([=](CUstream stream) { return e->signal_on(*device, stream, 0); }, {e}, 0,
                                           WorkTraits{});
}

ze_result_t append_write_global_timestamp(ze_command_list_handle_t handle, uint64_t *at, ze_event_handle_t signal,
                                          uint32_t count, ze_event_handle_t *waits) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (at == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const Device *device = &CommandList::from(handle)->device();
  return append_with_events(*CommandList::from(handle),
                            [=](CUstream stream) { return device->write_timestamp(stream, at); }, signal, count,
                            waits);
}

// Each event's stamps copied out as a ze_kernel_timestamp_result_t (global, then context: the same clock), at the
// offsets given or one after another; in stream order, so after the commands that wrote them.
ze_result_t append_query_kernel_timestamps(ze_command_list_handle_t handle, uint32_t count, ze_event_handle_t *events,
                                           void *dst, const size_t *offsets, ze_event_handle_t signal,
                                           uint32_t wait_count, ze_event_handle_t *waits) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (dst == nullptr || (count > 0 && events == nullptr)) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::vector<std::pair<CUdeviceptr, CUdeviceptr>> copies; // (from the event's stamps, to the result)
  for (uint32_t i = 0; i < count; ++i) {
    if (events[i] == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    const uint64_t *stamps = Event::from(events[i])->timestamps();
    if (stamps == nullptr) return ZE_RESULT_ERROR_INVALID_ARGUMENT; // not of a timestamp pool
    const size_t at = offsets != nullptr ? offsets[i] : i * sizeof(ze_kernel_timestamp_result_t);
    copies.emplace_back(CUdeviceptr(stamps), CUdeviceptr(static_cast<char *>(dst) + at));
  }
  const Device *device = &CommandList::from(handle)->device();
  Command body = [=](CUstream stream) {
    for (auto [from, to] : copies)
      for (size_t half : {size_t{0}, size_t{16}}) // global, then context
        if (ze_result_t r = checked(device->api().cuMemcpyAsync(to + half, from, 16, stream), "cuMemcpyAsync");
            r != ZE_RESULT_SUCCESS)
          return r;
    return ZE_RESULT_SUCCESS;
  };
  const bool drains = count > 0 && pageable(*CommandList::from(handle), dst);
  return append_with_events(*CommandList::from(handle), std::move(body), signal, wait_count, waits,
                            {.drains = drains});
}

ze_result_t append_memory_prefetch(ze_command_list_handle_t handle, const void *ptr, size_t) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return ptr == nullptr ? ZE_RESULT_ERROR_INVALID_NULL_POINTER : ZE_RESULT_SUCCESS; // a hint
}

ze_result_t append_mem_advise(ze_command_list_handle_t handle, ze_device_handle_t device, const void *ptr, size_t,
                              ze_memory_advice_t) {
  if (handle == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return ptr == nullptr ? ZE_RESULT_ERROR_INVALID_NULL_POINTER : ZE_RESULT_SUCCESS; // a hint
}

ze_result_t list_create(ze_context_handle_t context, ze_device_handle_t device, const ze_command_list_desc_t *desc,
                        ze_command_list_handle_t *out) {
  if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (std::string why; !valid_queue(*Device::from(device), desc->commandQueueGroupOrdinal, 0, why)) {
    zeal::logger("zeal-cuda").error("zeCommandListCreate: {}", why);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  *out = new CommandList(*Device::from(device), *Context::from(context), nullptr, desc->commandQueueGroupOrdinal,
                         false);
  return ZE_RESULT_SUCCESS;
}

ze_result_t list_create_immediate(ze_context_handle_t context, ze_device_handle_t device,
                                  const ze_command_queue_desc_t *desc, ze_command_list_handle_t *out) {
  if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (std::string why; !valid_queue(*Device::from(device), desc->ordinal, desc->index, why)) {
    zeal::logger("zeal-cuda").error("zeCommandListCreateImmediate: {}", why);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  CUstream stream = nullptr;
  if (ze_result_t r = new_stream(*Device::from(device), stream, desc->priority); r != ZE_RESULT_SUCCESS) return r;
  *out = new CommandList(*Device::from(device), *Context::from(context), stream, desc->ordinal,
                         desc->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  return ZE_RESULT_SUCCESS;
}

ze_result_t list_close(ze_command_list_handle_t handle) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  CommandList::from(handle)->close();
  return ZE_RESULT_SUCCESS;
}

ze_result_t list_reset(ze_command_list_handle_t handle) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  CommandList *list = CommandList::from(handle);
  if (list->immediate()) return list->synchronize();
  list->reset();
  return ZE_RESULT_SUCCESS;
}

} // namespace

ze_result_t append_pitched_copy(ze_command_list_handle_t list, void *dst, const ze_copy_region_t *dst_region,
                                uint32_t dst_pitch, uint32_t dst_slice_pitch, const void *src,
                                const ze_copy_region_t *src_region, uint32_t src_pitch, uint32_t src_slice_pitch,
                                ze_event_handle_t signal, uint32_t count, ze_event_handle_t *waits) {
  return append_copy_region(list, dst, dst_region, dst_pitch, dst_slice_pitch, src, src_region, src_pitch,
                            src_slice_pitch, signal, count, waits);
}

void implement(ze_command_list_dditable_t &t) {
  t.pfnCreate = guarded<list_create>;
  t.pfnCreateImmediate = guarded<list_create_immediate>;
  t.pfnDestroy = guarded<destroy<CommandList>>;
  t.pfnClose = guarded<list_close>;
  t.pfnReset = guarded<list_reset>;
  t.pfnAppendLaunchKernel = guarded<append_launch>;
  t.pfnAppendLaunchKernelIndirect = guarded<append_launch_indirect>;
  t.pfnAppendLaunchMultipleKernelsIndirect = guarded<append_launch_multiple_indirect>;
  t.pfnAppendMemoryCopy = guarded<append_copy>;
  t.pfnAppendMemoryCopyFromContext = guarded<append_copy_from_context>;
  t.pfnAppendMemoryCopyRegion = guarded<append_copy_region>;
  t.pfnAppendLaunchCooperativeKernel = guarded<append_launch_cooperative>;
  t.pfnAppendMemoryFill = guarded<append_fill>;
  t.pfnAppendBarrier = guarded<append_barrier>;
  t.pfnAppendMemoryRangesBarrier = guarded<append_memory_ranges_barrier>;
  t.pfnAppendSignalEvent = guarded<append_signal_event>;
  t.pfnAppendWaitOnEvents = guarded<append_wait_on_events>;
  t.pfnAppendEventReset = guarded<append_event_reset>;
  t.pfnAppendMemoryPrefetch = guarded<append_memory_prefetch>;
  t.pfnAppendWriteGlobalTimestamp = guarded<append_write_global_timestamp>;
  t.pfnAppendQueryKernelTimestamps = guarded<append_query_kernel_timestamps>;
  t.pfnAppendMemAdvise = guarded<append_mem_advise>;
  ze::implement_image_copies<Images>(t); // the shared entries over Images::append_copy (image.cpp)
}

} // namespace zeal::cuda
