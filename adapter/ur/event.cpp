// UR entry points of events, over the same Event every command of a zeal queue signals.
#include "adapter/core/event_watcher.hpp"
#include "adapter/core/queue.hpp"
#include "adapter/ur/entry.hpp"

#include <mutex>
#include <set>

namespace zeal::adapter::ur {

Outcome wait_list(uint32_t count, const ur_event_handle_t *events, WaitList &out) {
  if ((events == nullptr) != (count == 0))
    return fail(UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST,
                fmt::format("the event wait list is {} but numEventsInWaitList is {}",
                            events == nullptr ? "null" : "given", count));
  for (uint32_t i = 0; i < count; ++i) {
    auto event = from_ur<Event>(events[i], "wait-list event");
    if (!event.ok()) return fail(UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST, std::move(event).error().message);
    out.push(event.value());
  }
  return {};
}

void return_event(Ref<Event> event, ur_event_handle_t *out) {
  if (out != nullptr) *out = to_ur<ur_event_handle_t>(event.detach());
}

Outcome hand_out(Result<Ref<Event>> made, bool blocking, ur_event_handle_t *out) {
  if (!made.ok()) return std::move(made).error();
  if (blocking)
    if (Status s = made.value()->wait(); !s.ok()) return s;
  return_event(std::move(made).value(), out);
  return {};
}

namespace {

ur_command_t command_type(Command command) {
  switch (command) {
  case Command::Launch: return UR_COMMAND_KERNEL_LAUNCH;
  case Command::Copy: return UR_COMMAND_USM_MEMCPY;
  case Command::Fill: return UR_COMMAND_USM_FILL;
  case Command::Barrier: return UR_COMMAND_EVENTS_WAIT_WITH_BARRIER;
  case Command::Marker: return UR_COMMAND_EVENTS_WAIT;
  case Command::Prefetch: return UR_COMMAND_USM_PREFETCH;
  case Command::Advise: return UR_COMMAND_USM_ADVISE;
  case Command::Read: return UR_COMMAND_MEM_BUFFER_READ;
  case Command::Write: return UR_COMMAND_MEM_BUFFER_WRITE;
  case Command::CopyBuffer: return UR_COMMAND_MEM_BUFFER_COPY;
  case Command::FillBuffer: return UR_COMMAND_MEM_BUFFER_FILL;
  case Command::Map: return UR_COMMAND_MEM_BUFFER_MAP;
  case Command::Unmap: return UR_COMMAND_MEM_UNMAP;
  case Command::ReadRect: return UR_COMMAND_MEM_BUFFER_READ_RECT;
  case Command::WriteRect: return UR_COMMAND_MEM_BUFFER_WRITE_RECT;
  case Command::CopyBufferRect: return UR_COMMAND_MEM_BUFFER_COPY_RECT;
  case Command::Copy2D: return UR_COMMAND_USM_MEMCPY_2D;
  case Command::Fill2D: return UR_COMMAND_USM_FILL_2D;
  case Command::HostTask: return UR_COMMAND_HOST_TASK_EXP;
  case Command::CommandBuffer: return UR_COMMAND_ENQUEUE_COMMAND_BUFFER_EXP;
  case Command::Timestamp: return UR_COMMAND_TIMESTAMP_RECORDING_EXP;
  case Command::Native: return UR_COMMAND_ENQUEUE_NATIVE_EXP;
  case Command::ImageRead: return UR_COMMAND_MEM_IMAGE_READ;
  case Command::ImageWrite: return UR_COMMAND_MEM_IMAGE_WRITE;
  case Command::ImageCopy: return UR_COMMAND_MEM_IMAGE_COPY;
  }
  return UR_COMMAND_EVENTS_WAIT;
}

using R = Result<InfoValue>;
const UrInfoRow<Event, ur_event_info_t> kEventInfo[] = {
    {UR_EVENT_INFO_COMMAND_QUEUE, "COMMAND_QUEUE",
     [](const Event &e) -> R {
       return info_of(e.queue() != nullptr ? to_ur<ur_queue_handle_t>(e.queue()) : ur_queue_handle_t{});
     }},
    {UR_EVENT_INFO_CONTEXT, "CONTEXT",
     [](const Event &e) -> R { return info_of(to_ur<ur_context_handle_t>(&e.context())); }},
    {UR_EVENT_INFO_COMMAND_TYPE, "COMMAND_TYPE", [](const Event &e) -> R { return info_of(command_type(e.command())); }},
    // A command the driver has not finished is SUBMITTED: zeal appends to immediate command lists, so nothing
    // waits in a host-side queue, and Level Zero does not tell running from waiting.
    {UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, "COMMAND_EXECUTION_STATUS",
     [](const Event &e) -> R {
       auto done = e.complete();
       if (!done.ok()) return std::move(done).error();
       return info_of<ur_event_status_t>(done.value() ? UR_EVENT_STATUS_COMPLETE : UR_EVENT_STATUS_SUBMITTED);
     }},
    {UR_EVENT_INFO_REFERENCE_COUNT, "REFERENCE_COUNT",
     [](const Event &e) -> R { return info_of<uint32_t>(e.ref_count()); }},
};

// Level Zero's kernel timestamps give the start and the end of a command on the device clock; zeal records no
// earlier time, so QUEUED and SUBMIT answer the start (nothing ran before it) and COMPLETE the end.
Result<InfoValue> profiling_time(const Event &e, bool end) {
  auto ns = e.timestamp_ns(end);
  if (!ns.ok()) return std::move(ns).error();
  return info_of<uint64_t>(ns.value());
}
const UrInfoRow<Event, ur_profiling_info_t> kProfilingInfo[] = {
    {UR_PROFILING_INFO_COMMAND_QUEUED, "COMMAND_QUEUED", [](const Event &e) { return profiling_time(e, false); }},
    {UR_PROFILING_INFO_COMMAND_SUBMIT, "COMMAND_SUBMIT", [](const Event &e) { return profiling_time(e, false); }},
    {UR_PROFILING_INFO_COMMAND_START, "COMMAND_START", [](const Event &e) { return profiling_time(e, false); }},
    {UR_PROFILING_INFO_COMMAND_END, "COMMAND_END", [](const Event &e) { return profiling_time(e, true); }},
    {UR_PROFILING_INFO_COMMAND_COMPLETE, "COMMAND_COMPLETE", [](const Event &e) { return profiling_time(e, true); }},
};

ur_result_t event_get_profiling_info(ur_event_handle_t handle, ur_profiling_info_t key, size_t size, void *value,
                                     size_t *size_ret) {
  return run([&]() -> Outcome {
    Event *event = nullptr;
    if (Outcome o = check_handle(handle, event); !o.ok()) return o;
    // UR has one code for "no profiling data": the queue was created without profiling (the object model's
    // INVALID_ARGUMENT) or the command has not finished (its NOT_READY).
    return answer_ur_info<Event, ur_profiling_info_t>(kProfilingInfo, *event, key, UR_PROFILING_INFO_COMMAND_COMPLETE,
                                                      size, value, size_ret, "event")
        .remap(UR_RESULT_ERROR_INVALID_VALUE, UR_RESULT_ERROR_PROFILING_INFO_NOT_AVAILABLE)
        .remap(to_ur_result(ZEAL_RESULT_NOT_READY), UR_RESULT_ERROR_PROFILING_INFO_NOT_AVAILABLE);
  });
}

ur_result_t event_wait(uint32_t count, const ur_event_handle_t *events) {
  return run([&]() -> Outcome {
    if (events == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urEventWait: phEventWaitList is null");
    if (count == 0) return fail(UR_RESULT_ERROR_INVALID_VALUE, "urEventWait: numEvents is 0");
    WaitList list;
    for (uint32_t i = 0; i < count; ++i) {
      Event *event = nullptr;
      if (Outcome o = check_handle(events[i], event); !o.ok()) return o;
      list.push(event);
    }
    for (Event *e : list.events())
      if (Status s = e->wait(); !s.ok()) return s;
    return {};
  });
}

// Commands are with the driver from the moment they are enqueued, so SUBMITTED has been reached when a callback
// can be set and is called at once. Level Zero does not tell running from waiting: RUNNING is called, like
// COMPLETE, once the command has completed (a state at or past the one asked for, as OpenCL allows).
ur_result_t event_set_callback(ur_event_handle_t handle, ur_execution_info_t state, ur_event_callback_t notify,
                               void *user_data) {
  return run([&]() -> Outcome {
    Event *event = nullptr;
    if (Outcome o = check_handle(handle, event); !o.ok()) return o;
    if (notify == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urEventSetCallback: pfnNotify is null");
    const int32_t s = abi_value(state);
    if (s == UR_EXECUTION_INFO_QUEUED)
      return fail(UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
                  "urEventSetCallback: QUEUED is the state an event starts in, and has no callback");
    if (s < UR_EXECUTION_INFO_COMPLETE || s > UR_EXECUTION_INFO_QUEUED)
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("urEventSetCallback: execStatus {} is not a ur_execution_info_t", s));
    if (s == UR_EXECUTION_INFO_SUBMITTED) {
      notify(handle, state, user_data);
      return {};
    }
    EventWatcher::instance().when_complete(Ref<Event>(event), [handle, state, notify, user_data] {
      notify(handle, state, user_data);
    });
    return {};
  });
}

// A native handle is a Level Zero event of the context's Level Zero context. Not owned unless the properties
// say so. A null handle asks for an event of the context with no command, complete from the start: what Intel's
// adapter makes of it, and what UR's conformance tests put in wait lists.
ur_result_t event_from_native(ur_native_handle_t native, ur_context_handle_t hContext,
                              const ur_event_native_properties_t *properties, ur_event_handle_t *out) {
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(hContext, context); !o.ok()) return o;
    if (out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urEventCreateWithNativeHandle: phEvent is null");
    if (native == 0) {
      auto event = Event::create_complete(*context);
      if (!event.ok()) return std::move(event).error();
      return_event(std::move(event).value(), out);
      return {};
    }
    const bool owned = properties != nullptr && properties->isNativeHandleOwned;
    auto event = Event::adopt(*context, reinterpret_cast<ze_event_handle_t>(native), owned);
    if (!event.ok()) return std::move(event).error();
    return_event(std::move(event).value(), out);
    return {};
  });
}

// urEventCreateExp: an event no command owns, signalled by the barriers it is given to (urEnqueueEventsWaitWithBarrierExt)
// and, with UR_EXP_EVENT_FLAG_IPC_EXP, shared with other processes.
ur_result_t event_create_exp(ur_context_handle_t hContext, ur_device_handle_t hDevice, const ur_exp_event_desc_t *desc,
                             ur_event_handle_t *out) {
  return run([&]() -> Outcome {
    Context *context = nullptr;
    Device *device = nullptr;
    if (Outcome o = check_handle(hContext, context); !o.ok()) return o;
    if (Outcome o = check_handle(hDevice, device); !o.ok()) return o;
    if (desc == nullptr || out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urEventCreateExp: pEventDesc or phEvent is null");
    if ((desc->flags & UR_EXP_EVENT_FLAGS_MASK) != 0)
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("urEventCreateExp: flags {:#x} have bits UR does not define", desc->flags));
    const bool profiling = (desc->flags & UR_EXP_EVENT_FLAG_ENABLE_PROFILING) != 0;
    const bool ipc = (desc->flags & UR_EXP_EVENT_FLAG_IPC_EXP) != 0;
    if (profiling && ipc)
      return fail(UR_RESULT_ERROR_INVALID_VALUE,
                  "urEventCreateExp: an IPC event cannot also record profiling timestamps (UR_EXP_EVENT_FLAG_IPC_EXP "
                  "with UR_EXP_EVENT_FLAG_ENABLE_PROFILING)");
    if (!context->has_device(device))
      return fail(UR_RESULT_ERROR_INVALID_DEVICE,
                  fmt::format("urEventCreateExp: device '{}' is not in the context", device->name()));
    auto event = Event::create_signalable(*context, *device, profiling, ipc);
    if (!event.ok()) return std::move(event).error();
    return_event(std::move(event).value(), out);
    return {};
  });
}

// IPC handle data: the Level Zero event pool's IPC handle, in a buffer the adapter owns until urIPCPutEventHandleExp.
std::mutex ipc_data_mutex;
std::set<const void *> ipc_data;

ur_result_t ipc_get_event_handle(ur_event_handle_t handle, void **data, size_t *size) {
  return run([&]() -> Outcome {
    Event *event = nullptr;
    if (Outcome o = check_handle(handle, event); !o.ok()) return o;
    if (data == nullptr || size == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER,
                  "urIPCGetEventHandleExp: ppIPCEventHandleData or pIPCEventHandleDataSizeRet is null");
    auto ipc = event->ipc_handle();
    if (!ipc.ok()) return with_code(UR_RESULT_ERROR_INVALID_EVENT, std::move(ipc).error());
    auto bytes = std::make_unique<ze_ipc_event_pool_handle_t>(ipc.value());
    std::lock_guard lock(ipc_data_mutex);
    ipc_data.insert(bytes.get());
    *size = sizeof(ze_ipc_event_pool_handle_t);
    *data = bytes.release();
    return {};
  });
}

ur_result_t ipc_put_event_handle(ur_context_handle_t hContext, void *data) {
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(hContext, context); !o.ok()) return o;
    if (data == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urIPCPutEventHandleExp: pIPCEventHandleData is null");
    std::lock_guard lock(ipc_data_mutex);
    if (ipc_data.erase(data) == 0)
      return fail(UR_RESULT_ERROR_INVALID_VALUE,
                  "urIPCPutEventHandleExp: the data was not returned by urIPCGetEventHandleExp, or was put already");
    delete static_cast<ze_ipc_event_pool_handle_t *>(data);
    return {};
  });
}

ur_result_t ipc_open_event_handle(ur_context_handle_t hContext, const void *data, size_t size,
                                  ur_event_handle_t *out) {
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(hContext, context); !o.ok()) return o;
    if (data == nullptr || out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urIPCOpenEventHandleExp: pIPCEventHandleData or phEvent is null");
    if (size != sizeof(ze_ipc_event_pool_handle_t))
      return fail(UR_RESULT_ERROR_INVALID_VALUE,
                  fmt::format("urIPCOpenEventHandleExp: IPC event handle data is {} bytes, not {}", size,
                              sizeof(ze_ipc_event_pool_handle_t)));
    ze_ipc_event_pool_handle_t handle{};
    std::memcpy(&handle, data, sizeof handle);
    auto event = Event::open_ipc(*context, handle);
    if (!event.ok()) return with_code(UR_RESULT_ERROR_INVALID_VALUE, std::move(event).error());
    return_event(std::move(event).value(), out);
    return {};
  });
}

} // namespace

void implement(ur_event_exp_dditable_t &t) { t.pfnCreateExp = event_create_exp; }

void implement(ur_ipc_exp_dditable_t &t) {
  t.pfnGetEventHandleExp = ipc_get_event_handle;
  t.pfnPutEventHandleExp = ipc_put_event_handle;
  t.pfnOpenEventHandleExp = ipc_open_event_handle;
}

void implement(ur_event_dditable_t &t) {
  t.pfnCreateWithNativeHandle = event_from_native;
  implement_object<Event, kEventInfo, UR_EVENT_INFO_REFERENCE_COUNT>(t);
  t.pfnGetProfilingInfo = event_get_profiling_info;
  t.pfnWait = event_wait;
  t.pfnSetCallback = event_set_callback;
  t.pfnGetNativeHandle = [](ur_event_handle_t handle, ur_native_handle_t *native) {
    return run([&]() -> Outcome {
      Event *event = nullptr;
      if (Outcome o = check_handle(handle, event); !o.ok()) return o;
      if (native == nullptr)
        return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urEventGetNativeHandle: the native handle pointer is null");
      *native = reinterpret_cast<ur_native_handle_t>(event->hand_out());
      return {};
    });
  };
}

} // namespace zeal::adapter::ur
