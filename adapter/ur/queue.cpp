// UR entry points of queues and of the commands that need no memory object: USM copies and fills, prefetch and
// advice, markers and barriers. The commands themselves are the Queue's, as for the zeal ABI.
#include "adapter/core/buffer.hpp"
#include "adapter/core/queue.hpp"
#include "adapter/ur/capture.hpp"
#include "adapter/ur/program.hpp"

#include <bit>

namespace zeal::adapter::ur {
namespace {

// UR flags that change nothing on zeal's queues: scheduling hints, CUDA streams, discarded events (zeal still
// makes them; a caller that asks for none simply gets none), low-power events.
constexpr ur_queue_flags_t kHintFlags =
    UR_QUEUE_FLAG_DISCARD_EVENTS | UR_QUEUE_FLAG_PRIORITY_LOW | UR_QUEUE_FLAG_PRIORITY_HIGH |
    UR_QUEUE_FLAG_SUBMISSION_BATCHED | UR_QUEUE_FLAG_SUBMISSION_IMMEDIATE | UR_QUEUE_FLAG_USE_DEFAULT_STREAM |
    UR_QUEUE_FLAG_SYNC_WITH_DEFAULT_STREAM | UR_QUEUE_FLAG_LOW_POWER_EVENTS_SUPPORT_EXP;

Outcome queue_flags(const ur_queue_properties_t *properties, uint32_t &zeal_flags) {
  const ur_queue_flags_t flags = properties != nullptr ? properties->flags : 0;
  if ((flags & UR_QUEUE_FLAGS_MASK) != 0)
    return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                fmt::format("urQueueCreate: flags {:#x} has bits UR does not define", flags));
  auto both = [&](ur_queue_flags_t a, ur_queue_flags_t b) { return (flags & a) != 0 && (flags & b) != 0; };
  if (both(UR_QUEUE_FLAG_PRIORITY_LOW, UR_QUEUE_FLAG_PRIORITY_HIGH) ||
      both(UR_QUEUE_FLAG_SUBMISSION_BATCHED, UR_QUEUE_FLAG_SUBMISSION_IMMEDIATE))
    return fail(UR_RESULT_ERROR_INVALID_QUEUE_PROPERTIES,
                fmt::format("urQueueCreate: flags {:#x} ask for both of two exclusive properties", flags));
  if ((flags & (UR_QUEUE_FLAG_ON_DEVICE | UR_QUEUE_FLAG_ON_DEVICE_DEFAULT)) != 0)
    return fail(UR_RESULT_ERROR_INVALID_QUEUE_PROPERTIES,
                "urQueueCreate: device-side queues (ON_DEVICE) are not supported by zeal");
  zeal_flags = 0;
  if ((flags & UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0) zeal_flags |= ZEAL_QUEUE_FLAG_OUT_OF_ORDER;
  if ((flags & UR_QUEUE_FLAG_PROFILING_ENABLE) != 0) zeal_flags |= ZEAL_QUEUE_FLAG_PROFILING;
  return {};
}

ur_result_t queue_create(ur_context_handle_t context, ur_device_handle_t device,
                         const ur_queue_properties_t *properties, ur_queue_handle_t *out) {
  return run([&]() -> Outcome {
    Context *c = nullptr;
    Device *d = nullptr;
    if (Outcome o = check_handles(context, c, device, d); !o.ok()) return o;
    if (out == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urQueueCreate: phQueue is null");
    uint32_t flags = 0;
    if (Outcome o = queue_flags(properties, flags); !o.ok()) return o;
    auto queue = Queue::create(*c, *d, flags);
    if (!queue.ok()) return Outcome(std::move(queue).error()).remap(UR_RESULT_ERROR_INVALID_VALUE,
                                                                    UR_RESULT_ERROR_INVALID_DEVICE);
    *out = to_ur<ur_queue_handle_t>(queue.value());
    return {};
  });
}

// A native handle is an immediate command list (what urQueueGetNativeHandle gives); not owned unless the
// properties say so. The device defaults to the context's first.
ur_result_t queue_from_native(ur_native_handle_t native, ur_context_handle_t context, ur_device_handle_t device,
                              const ur_queue_native_properties_t *properties, ur_queue_handle_t *out) {
  return run([&]() -> Outcome {
    Context *c = nullptr;
    Device *d = nullptr;
    if (Outcome o = check_handle(context, c); !o.ok()) return o;
    if (device != nullptr) {
      if (Outcome o = check_handle(device, d); !o.ok()) return o;
    } else {
      d = c->devices().front();
    }
    if (out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urQueueCreateWithNativeHandle: phQueue is null");
    const bool owned = properties != nullptr && properties->isNativeHandleOwned;
    auto queue = Queue::adopt(*c, *d, reinterpret_cast<ze_command_list_handle_t>(native), 0, owned);
    if (!queue.ok())
      return Outcome(std::move(queue).error()).remap(UR_RESULT_ERROR_INVALID_VALUE, UR_RESULT_ERROR_INVALID_DEVICE);
    *out = to_ur<ur_queue_handle_t>(queue.value());
    return {};
  });
}

// The flags a queue answers with: the properties zeal keeps (scheduling hints are not kept).
ur_queue_flags_t ur_flags(const Queue &q) {
  ur_queue_flags_t flags = 0;
  if ((q.flags() & ZEAL_QUEUE_FLAG_OUT_OF_ORDER) != 0) flags |= UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE;
  if (q.profiling()) flags |= UR_QUEUE_FLAG_PROFILING_ENABLE;
  return flags;
}

using R = Result<InfoValue>;
Result<InfoValue> not_on_device(const Queue &) {
  return make_error(ZEAL_RESULT_ERROR_INVALID_HANDLE, "the queue is not a device-side queue (ON_DEVICE)");
}
const UrInfoRow<Queue, ur_queue_info_t> kQueueInfo[] = {
    {UR_QUEUE_INFO_CONTEXT, "CONTEXT", [](const Queue &q) -> R { return info_of(to_ur<ur_context_handle_t>(&q.context())); }},
    {UR_QUEUE_INFO_DEVICE, "DEVICE", [](const Queue &q) -> R { return info_of(to_ur<ur_device_handle_t>(&q.device())); }},
    {UR_QUEUE_INFO_DEVICE_DEFAULT, "DEVICE_DEFAULT", not_on_device},
    {UR_QUEUE_INFO_FLAGS, "FLAGS", [](const Queue &q) -> R { return info_of(ur_flags(q)); }},
    {UR_QUEUE_INFO_REFERENCE_COUNT, "REFERENCE_COUNT", [](const Queue &q) -> R { return info_of<uint32_t>(q.ref_count()); }},
    {UR_QUEUE_INFO_SIZE, "SIZE", not_on_device},
    {UR_QUEUE_INFO_EMPTY, "EMPTY",
     [](const Queue &q) -> R { return info_of<ur_bool_t>(const_cast<Queue &>(q).idle()); }},
};

ur_result_t queue_get_info(ur_queue_handle_t handle, ur_queue_info_t key, size_t size, void *value, size_t *size_ret) {
  // A handle UR calls INVALID_QUEUE for a query the queue cannot answer (SIZE, DEVICE_DEFAULT).
  return run([&]() -> Outcome {
    Queue *queue = nullptr;
    if (Outcome o = check_handle(handle, queue); !o.ok()) return o;
    return answer_ur_info<Queue, ur_queue_info_t>(kQueueInfo, *queue, key, UR_QUEUE_INFO_EMPTY, size, value,
                                                  size_ret, "queue")
        .remap(UR_RESULT_ERROR_INVALID_NULL_HANDLE, UR_RESULT_ERROR_INVALID_QUEUE);
  });
}

ur_result_t queue_finish(ur_queue_handle_t handle) {
  return run([&]() -> Outcome {
    Queue *queue = nullptr;
    if (Outcome o = check_handle(handle, queue); !o.ok()) return o;
    return queue->finish();
  });
}

// Commands go to immediate command lists, so they are with the driver as soon as they are enqueued.
ur_result_t queue_flush(ur_queue_handle_t handle) {
  return run([&]() -> Outcome {
    Queue *queue = nullptr;
    return check_handle(handle, queue);
  });
}

// A command on a queue handle: the handle checked, then enqueue_command.
template <class Run>
Outcome on_queue(ur_queue_handle_t handle, uint32_t num_wait, const ur_event_handle_t *wait, ur_event_handle_t *event,
                 bool blocking, Run &&run) {
  Queue *queue = nullptr;
  if (Outcome o = check_handle(handle, queue); !o.ok()) return o;
  return enqueue_command(*queue, num_wait, wait, event, blocking, std::forward<Run>(run));
}

// The same for a command a graph captures (enqueue_or_capture).
template <class Run, class Record>
Outcome on_queue(ur_queue_handle_t handle, uint32_t num_wait, const ur_event_handle_t *wait, ur_event_handle_t *event,
                 bool blocking, Command kind, Run &&run, Record &&record) {
  Queue *queue = nullptr;
  if (Outcome o = check_handle(handle, queue); !o.ok()) return o;
  return enqueue_or_capture(*queue, num_wait, wait, event, blocking, kind, std::forward<Run>(run),
                            std::forward<Record>(record));
}

using Deps = CommandBuffer::Deps;

ur_result_t usm_memcpy(ur_queue_handle_t queue, bool blocking, void *dst, const void *src, size_t size,
                       uint32_t num_wait, const ur_event_handle_t *wait, ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    if (dst == nullptr || src == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urEnqueueUSMMemcpy: pDst or pSrc is null");
    if (size == 0) return fail(UR_RESULT_ERROR_INVALID_SIZE, "urEnqueueUSMMemcpy: size is 0");
    return on_queue(
        queue, num_wait, wait, event, blocking, Command::Copy,
        [&](Queue &q, std::span<Event *const> w) { return q.copy(dst, src, size, w); },
        [&](CommandBuffer &b, const Deps &d) { return b.copy(dst, src, size, d); });
  });
}

// UR's bound for 2-D USM commands: pitch * height bytes from `ptr` in its allocation (Queue::check_extent).
Outcome check_2d_extent(const Queue &queue, const void *ptr, size_t pitch, size_t height, const char *name,
                        const char *entry = "urEnqueueUSMMemcpy2D") {
  size_t bytes = 0;
  if (__builtin_mul_overflow(pitch, height, &bytes)) bytes = SIZE_MAX; // no allocation holds that many
  const std::string what = fmt::format("{}: {} rows of pitch {} from the {}", entry, height, pitch, name);
  return with_code(UR_RESULT_ERROR_INVALID_SIZE, queue.check_extent(ptr, bytes, what.c_str()));
}

ur_result_t usm_memcpy_2d(ur_queue_handle_t handle, bool blocking, void *dst, size_t dst_pitch, const void *src,
                          size_t src_pitch, size_t width, size_t height, uint32_t num_wait,
                          const ur_event_handle_t *wait, ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    Queue *queue = nullptr;
    if (Outcome o = check_handle(handle, queue); !o.ok()) return o;
    if (dst == nullptr || src == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urEnqueueUSMMemcpy2D: pDst or pSrc is null");
    if (dst_pitch == 0 || src_pitch == 0 || height == 0 || width == 0 || dst_pitch < width || src_pitch < width)
      return fail(UR_RESULT_ERROR_INVALID_SIZE,
                  fmt::format("urEnqueueUSMMemcpy2D: {} rows of {} bytes cannot be copied with pitches {} "
                              "(destination) and {} (source): each must be at least the width, and none 0",
                              height, width, dst_pitch, src_pitch));
    if (Outcome o = check_2d_extent(*queue, dst, dst_pitch, height, "destination"); !o.ok()) return o;
    if (Outcome o = check_2d_extent(*queue, src, src_pitch, height, "source"); !o.ok()) return o;
    // One slice: its slice pitch is never read.
    const Pitched to{dst, dst_pitch, 0}, from{const_cast<void *>(src), src_pitch, 0};
    return enqueue_or_capture(
        *queue, num_wait, wait, event, blocking, Command::Copy2D,
        [&](Queue &q, std::span<Event *const> w) { return q.copy_rect(to, from, width, height, 1, w, Command::Copy2D); },
        [&](CommandBuffer &b, const Deps &d) { return b.copy_rect(to, from, width, height, 1, d, Command::Copy2D); });
  });
}

// UR's checks of a 2-D fill, then Queue::fill_rect. SYCL's fill2d writes whole values, so each row holds a whole
// number of patterns; a pattern running on from one row into the next is refused as unsupported unless the rows
// touch (then the fill is one run of bytes).
ur_result_t usm_fill_2d(ur_queue_handle_t handle, void *mem, size_t pitch, size_t pattern_size, const void *pattern,
                        size_t width, size_t height, uint32_t num_wait, const ur_event_handle_t *wait,
                        ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    Queue *queue = nullptr;
    if (Outcome o = check_handle(handle, queue); !o.ok()) return o;
    if (mem == nullptr || pattern == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urEnqueueUSMFill2D: pMem or pPattern is null");
    size_t area = 0;
    if (pitch == 0 || pitch < width || width == 0 || height == 0 || pattern_size == 0 ||
        !std::has_single_bit(pattern_size) || __builtin_mul_overflow(width, height, &area) || pattern_size > area ||
        area % pattern_size != 0)
      return fail(UR_RESULT_ERROR_INVALID_SIZE,
                  fmt::format("urEnqueueUSMFill2D: {} rows of {} bytes, pitch {}, cannot take a pattern of {} bytes "
                              "(UR: pitch and sizes not 0, pitch at least the width, the pattern a power of two "
                              "dividing width * height)",
                              height, width, pitch, pattern_size));
    if (Outcome o = check_2d_extent(*queue, mem, pitch, height, "destination", "urEnqueueUSMFill2D"); !o.ok()) return o;
    if (width % pattern_size != 0 && pitch != width && height > 1)
      return fail(UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                  fmt::format("urEnqueueUSMFill2D: rows of {} bytes do not hold a whole number of {}-byte patterns, and "
                              "zeal fills each row from the pattern's start",
                              width, pattern_size));
    return enqueue_or_capture(
        *queue, num_wait, wait, event, false, Command::Fill2D,
        [&](Queue &q, std::span<Event *const> w) {
          return q.fill_rect(mem, pitch, pattern, pattern_size, width, height, w, Command::Fill2D);
        },
        [&](CommandBuffer &b, const Deps &d) {
          return b.fill_rect(mem, pitch, pattern, pattern_size, width, height, d, Command::Fill2D);
        });
  });
}

ur_result_t usm_fill(ur_queue_handle_t queue, void *ptr, size_t pattern_size, const void *pattern, size_t size,
                     uint32_t num_wait, const ur_event_handle_t *wait, ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    if (ptr == nullptr || pattern == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urEnqueueUSMFill: pMem or pPattern is null");
    if (size == 0) return fail(UR_RESULT_ERROR_INVALID_SIZE, "urEnqueueUSMFill: size is 0");
    return on_queue(
        queue, num_wait, wait, event, false, Command::Fill,
        [&](Queue &q, std::span<Event *const> w) { return q.fill(ptr, pattern, pattern_size, size, w); },
        [&](CommandBuffer &b, const Deps &d) { return b.fill_rect(ptr, size, pattern, pattern_size, size, 1, d); });
  });
}

// A command that only orders (Queue::barrier, CommandBuffer::marker): a barrier, a marker, a hint.
Outcome enqueue_marker(Command kind, ur_queue_handle_t handle, uint32_t num_wait, const ur_event_handle_t *wait,
                       ur_event_handle_t *event) {
  return on_queue(
      handle, num_wait, wait, event, false, kind,
      [&](Queue &q, std::span<Event *const> w) { return q.barrier(kind, w); },
      [&](CommandBuffer &b, const Deps &d) { return b.marker(d, kind); });
}

// Prefetch and advice are hints; the CPU's shared memory is the host's, so each is a marker in the queue's order.
ur_result_t usm_prefetch(ur_queue_handle_t queue, const void *ptr, size_t size, ur_usm_migration_flags_t flags,
                         uint32_t num_wait, const ur_event_handle_t *wait, ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    if (ptr == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urEnqueueUSMPrefetch: pMem is null");
    if ((flags & UR_USM_MIGRATION_FLAGS_MASK) != 0)
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("urEnqueueUSMPrefetch: flags {:#x} has bits UR does not define", flags));
    if (size == 0) return fail(UR_RESULT_ERROR_INVALID_SIZE, "urEnqueueUSMPrefetch: size is 0");
    return enqueue_marker(Command::Prefetch, queue, num_wait, wait, event);
  });
}

ur_result_t usm_advise(ur_queue_handle_t queue, const void *ptr, size_t size, ur_usm_advice_flags_t advice,
                       ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    if (ptr == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urEnqueueUSMAdvise: pMem is null");
    if ((advice & UR_USM_ADVICE_FLAGS_MASK) != 0)
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("urEnqueueUSMAdvise: advice {:#x} has bits UR does not define", advice));
    if (size == 0) return fail(UR_RESULT_ERROR_INVALID_SIZE, "urEnqueueUSMAdvise: size is 0");
    return enqueue_marker(Command::Advise, queue, 0, nullptr, event);
  });
}

ur_result_t events_wait(ur_queue_handle_t queue, uint32_t num_wait, const ur_event_handle_t *wait,
                        ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    return enqueue_marker(Command::Marker, queue, num_wait, wait, event);
  });
}

ur_result_t barrier(ur_queue_handle_t queue, uint32_t num_wait, const ur_event_handle_t *wait,
                    ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    return enqueue_marker(Command::Barrier, queue, num_wait, wait, event);
  });
}

// The only property is low-power events, a hint.
// The only property is low-power events, a hint. An event made by urEventCreateExp in *phEvent is signalled by the
// barrier, and stays the caller's handle; any other value there is an output, as for every enqueue.
ur_result_t barrier_ext(ur_queue_handle_t handle, const ur_exp_enqueue_ext_properties_t *properties,
                        uint32_t num_wait, const ur_event_handle_t *wait, ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    if (properties != nullptr && (properties->flags & UR_EXP_ENQUEUE_EXT_FLAGS_MASK) != 0)
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("urEnqueueEventsWaitWithBarrierExt: flags {:#x} have bits UR does not define",
                              properties->flags));
    // Anything else in *phEvent (null, another command's event, a handle already released) is overwritten.
    Event *reusable = event != nullptr ? Event::signalable_by_ur_handle(*event) : nullptr;
    if (reusable == nullptr) return enqueue_marker(Command::Barrier, handle, num_wait, wait, event);
    for (uint32_t i = 0; i < num_wait && wait != nullptr; ++i)
      if (wait[i] == *event)
        return fail(UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST,
                    "urEnqueueEventsWaitWithBarrierExt: the event to signal is in the wait list too");
    return on_queue(handle, num_wait, wait, nullptr, false, [&](Queue &q, std::span<Event *const> w) {
      return q.barrier(Command::Barrier, w, reusable);
    });
  });
}

// A device global is the program's global variable of that name on the queue's device (SYCL names it by its unique
// id, which DPC++ gives the variable's HostAccessINTEL decoration); reads and writes are copies in the queue's order.
Outcome device_global_copy(ur_queue_handle_t handle, ur_program_handle_t program_handle, const char *name,
                           bool blocking, size_t count, size_t offset, void *host, bool to_device, uint32_t num_wait,
                           const ur_event_handle_t *wait, ur_event_handle_t *event) {
  const char *entry = to_device ? "urEnqueueDeviceGlobalVariableWrite" : "urEnqueueDeviceGlobalVariableRead";
  Queue *queue = nullptr;
  if (Outcome o = check_handle(handle, queue); !o.ok()) return o;
  UrProgram *programs = nullptr;
  if (Outcome o = check_handle(program_handle, programs); !o.ok()) return o;
  if (name == nullptr || host == nullptr)
    return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER,
                fmt::format("{}: name or {} is null", entry, to_device ? "pSrc" : "pDst"));
  Program *program = programs->of(queue->device());
  if (program == nullptr)
    return fail(UR_RESULT_ERROR_INVALID_DEVICE,
                fmt::format("{}: the program is not for the queue's device '{}'", entry, queue->device().name()));
  auto global = program->global_pointer(name);
  if (!global.ok())
    return Outcome(std::move(global).error())
        .remap(to_ur_result(ZEAL_RESULT_ERROR_INVALID_GLOBAL_NAME), UR_RESULT_ERROR_INVALID_VALUE);
  const auto [base, size] = global.value();
  if (count == 0 || offset > size || count > size - offset)
    return fail(UR_RESULT_ERROR_INVALID_SIZE,
                fmt::format("{}: {} bytes at offset {} do not lie within the {} bytes of device global '{}'", entry,
                            count, offset, size, name));
  void *device = static_cast<uint8_t *>(base) + offset;
  return enqueue_command(*queue, num_wait, wait, event, blocking, [&](Queue &q, std::span<Event *const> w) {
    return to_device ? q.copy(device, host, count, w) : q.copy(host, device, count, w);
  });
}

ur_result_t device_global_write(ur_queue_handle_t queue, ur_program_handle_t program, const char *name, bool blocking,
                                size_t count, size_t offset, const void *src, uint32_t num_wait,
                                const ur_event_handle_t *wait, ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    return device_global_copy(queue, program, name, blocking, count, offset, const_cast<void *>(src), true, num_wait,
                              wait, event);
  });
}

ur_result_t device_global_read(ur_queue_handle_t queue, ur_program_handle_t program, const char *name, bool blocking,
                               size_t count, size_t offset, void *dst, uint32_t num_wait, const ur_event_handle_t *wait,
                               ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    return device_global_copy(queue, program, name, blocking, count, offset, dst, false, num_wait, wait, event);
  });
}

// SYCL's host_task: the function runs on the queue's host-task thread, in the queue's order (Queue::host_task).
ur_result_t host_task(ur_queue_handle_t queue, ur_exp_host_task_function_t function, void *data,
                      const ur_exp_host_task_properties_t *properties, uint32_t num_wait,
                      const ur_event_handle_t *wait, ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    if (function == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urEnqueueHostTaskExp: pfnHostTask is null");
    if (properties != nullptr && (properties->flags & UR_EXP_HOST_TASK_FLAGS_MASK) != 0)
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("urEnqueueHostTaskExp: flags {:#x} has bits UR does not define", properties->flags));
    return on_queue(queue, num_wait, wait, event, false, [&](Queue &q, std::span<Event *const> w) {
      return q.host_task(function, data, w);
    });
  });
}

// SYCL's enqueue_native_command with Level Zero: the function appends to the queue's immediate list, which it
// gets from urQueueGetNativeHandle, in the queue's order (Queue::native). Memory objects it names are zeal
// buffers, already device-accessible USM: nothing moves.
ur_result_t native_command(ur_queue_handle_t queue, ur_exp_enqueue_native_command_function_t function, void *data,
                           uint32_t num_mems, const ur_mem_handle_t *mems,
                           const ur_exp_enqueue_native_command_properties_t *properties, uint32_t num_wait,
                           const ur_event_handle_t *wait, ur_event_handle_t *event) {
  constexpr const char *entry = "urEnqueueNativeCommandExp";
  return run([&]() -> Outcome {
    if (function == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: pfnNativeEnqueue is null", entry));
    if (properties != nullptr && (properties->flags & UR_EXP_ENQUEUE_NATIVE_COMMAND_FLAGS_MASK) != 0)
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("{}: flags {:#x} have bits UR does not define", entry, properties->flags));
    if (mems == nullptr && num_mems > 0)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: phMemList is null with {} objects", entry, num_mems));
    for (uint32_t i = 0; i < num_mems; ++i) {
      Buffer *buffer = nullptr;
      if (Outcome o = check_handle(mems[i], buffer); !o.ok()) return o;
    }
    return on_queue(queue, num_wait, wait, event, false, [&](Queue &q, std::span<Event *const> w) {
      return q.native([&] { function(queue, data); }, w);
    });
  });
}

// A device timestamp in the queue's order, as the event's profiling times (Queue::record_timestamp).
ur_result_t timestamp_recording(ur_queue_handle_t queue, bool blocking, uint32_t num_wait,
                                const ur_event_handle_t *wait, ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    if (event == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urEnqueueTimestampRecordingExp: phEvent is null");
    return on_queue(queue, num_wait, wait, event, blocking,
                    [&](Queue &q, std::span<Event *const> w) { return q.record_timestamp(w); });
  });
}

} // namespace

void implement_queue_exp(ur_enqueue_exp_dditable_t &t) {
  t.pfnNativeCommandExp = native_command;
  t.pfnHostTaskExp = host_task;
  t.pfnTimestampRecordingExp = timestamp_recording;
}

void implement(ur_queue_dditable_t &t) {
  t.pfnCreate = queue_create;
  t.pfnGetInfo = queue_get_info;
  t.pfnRetain = retain<Queue>;
  t.pfnRelease = release<Queue>;
  t.pfnGetNativeHandle = [](ur_queue_handle_t q, ur_queue_native_desc_t *, ur_native_handle_t *native) {
    return native_handle<Queue>(q, native, "urQueueGetNativeHandle");
  };
  t.pfnCreateWithNativeHandle = queue_from_native;
  t.pfnFinish = queue_finish;
  t.pfnFlush = queue_flush;
}

void implement(ur_enqueue_dditable_t &t) {
  t.pfnDeviceGlobalVariableWrite = device_global_write;
  t.pfnDeviceGlobalVariableRead = device_global_read;
  t.pfnUSMMemcpy = usm_memcpy;
  t.pfnUSMFill = usm_fill;
  t.pfnUSMMemcpy2D = usm_memcpy_2d;
  t.pfnUSMFill2D = usm_fill_2d;
  t.pfnUSMPrefetch = usm_prefetch;
  t.pfnUSMAdvise = usm_advise;
  t.pfnEventsWait = events_wait;
  t.pfnEventsWaitWithBarrier = barrier;
  t.pfnEventsWaitWithBarrierExt = barrier_ext;
  implement_buffer_commands(t);
  implement_image_commands(t);
}

} // namespace zeal::adapter::ur
