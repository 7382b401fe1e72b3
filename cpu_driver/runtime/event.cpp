// Event pools (their slots on the heap or in a shared memory file) and the zeEventPool* and zeEvent* entry points.
#include "cpu_driver/runtime/event.hpp"

#include "common/log.hpp"
#include "cpu_driver/runtime/context.hpp"
#include "cpu_driver/runtime/ddi.hpp"
#include "ze_driver/shared_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <new>
#include <sys/mman.h>
#include <unistd.h>

namespace zeal::cpu {
namespace {

size_t slots_file_size(uint32_t count) { return ze::whole_pages(size_t(count) * sizeof(EventSlot)); }

} // namespace

ze_result_t EventPool::create(Context &context, const ze_event_pool_desc_t &desc, EventPool **out,
                              std::string &why) {
  if ((desc.flags & ZE_EVENT_POOL_FLAG_IPC) == 0) {
    auto *slots = new (std::nothrow) EventSlot[desc.count];
    if (slots == nullptr) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    *out = new EventPool(context, desc.flags, desc.count, slots, -1, false);
    return ZE_RESULT_SUCCESS;
  }
  // A memory file reads as zeros: every slot starts clear, as its constructor would make it.
  int fd = -1;
  void *p = ze::map_new_memory_file("zeal-event-pool", slots_file_size(desc.count), 0, fd, why);
  if (p == nullptr) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  auto *slots = static_cast<EventSlot *>(p);
  for (uint32_t i = 0; i < desc.count; ++i) new (&slots[i]) EventSlot;
  *out = new EventPool(context, desc.flags, desc.count, slots, fd, false);
  return ZE_RESULT_SUCCESS;
}

ze_result_t EventPool::open(Context &context, const ze_ipc_event_pool_handle_t &handle, EventPool **out,
                            std::string &why) {
  ze::IpcContents contents;
  if (!ze::decode_ipc(handle.data, ze::IpcContents::Kind::event_pool, contents, why))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (contents.count == 0 || contents.size != slots_file_size(contents.count)) {
    why = fmt::format("the IPC event pool handle says {} events in {} bytes, which do not go together", contents.count,
                      contents.size);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  void *p = nullptr;
  if (ze_result_t r = ze::map_ipc_range(contents, &p, why); r != ZE_RESULT_SUCCESS) return r;
  // The exporter constructed the slots; they are plain words, seen here as they are.
  *out = new EventPool(context, contents.flags, contents.count, static_cast<EventSlot *>(p), -1, true);
  return ZE_RESULT_SUCCESS;
}

EventPool::~EventPool() {
  if (fd_ < 0 && !opened_) {
    delete[] slots_;
    return;
  }
  munmap(slots_, file_size());
  if (fd_ >= 0) close(fd_);
}

size_t EventPool::file_size() const { return slots_file_size(count_); }

bool EventPool::ipc_handle(ze_ipc_event_pool_handle_t &out, std::string &why) const {
  if (opened_) {
    why = "the event pool was opened from another process's handle; that process exports it";
    return false;
  }
  if (fd_ < 0) {
    why = "the event pool was not created with ZE_EVENT_POOL_FLAG_IPC";
    return false;
  }
  ze::IpcContents contents;
  contents.fd = fd_;
  contents.kind = ze::IpcContents::Kind::event_pool;
  contents.size = file_size();
  contents.count = count_;
  contents.flags = flags_;
  ze::encode_ipc(contents, out.data);
  return true;
}

namespace {

ze_result_t event_pool_create(ze_context_handle_t context, const ze_event_pool_desc_t *desc, uint32_t device_count,
                              ze_device_handle_t *devices, ze_event_pool_handle_t *out) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (device_count > 0 && devices == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->count == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  std::string why;
  EventPool *pool = nullptr;
  ze_result_t r = EventPool::create(*Context::from(context), *desc, &pool, why);
  if (r != ZE_RESULT_SUCCESS) zeal::logger("zeal-cpu").warn("zeEventPoolCreate: {}", why);
  else *out = pool;
  return r;
}

ze_result_t event_create(ze_event_pool_handle_t pool, const ze_event_desc_t *desc, ze_event_handle_t *out) {
  if (pool == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  EventPool *p = EventPool::from(pool);
  if (desc->index >= p->count()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  auto *event = new Event(*p, desc->index);
  // A new event starts clear, except in a pool opened from another process: there the exporter's events are
  // the state being shared, and may already be signalled.
  if (!p->opened()) {
    EventSlot &slot = p->slot(desc->index);
    slot.signal.reset();
    slot.start.store(0, std::memory_order_relaxed);
    slot.end.store(0, std::memory_order_relaxed);
  }
  *out = event;
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_host_signal(ze_event_handle_t event) {
  if (event == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Event::from(event)->signal();
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_host_synchronize(ze_event_handle_t event, uint64_t timeout_ns) {
  if (event == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Event *e = Event::from(event);
  if (!e->wait(timeout_ns)) return ZE_RESULT_NOT_READY;
  return e->device_lost() ? ZE_RESULT_ERROR_DEVICE_LOST : ZE_RESULT_SUCCESS;
}

ze_result_t event_query_status(ze_event_handle_t event) {
  if (event == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Event *e = Event::from(event);
  if (!e->is_signaled()) return ZE_RESULT_NOT_READY;
  return e->device_lost() ? ZE_RESULT_ERROR_DEVICE_LOST : ZE_RESULT_SUCCESS;
}

ze_result_t event_host_reset(ze_event_handle_t event) {
  if (event == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Event::from(event)->reset();
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_query_kernel_timestamp(ze_event_handle_t event, ze_kernel_timestamp_result_t *out) {
  if (event == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Event *e = Event::from(event);
  if (!e->is_signaled()) return ZE_RESULT_NOT_READY;
  *out = e->timestamps();
  return ZE_RESULT_SUCCESS;
}

// ZE_experimental_event_query_timestamps: one result per part of the device that ran the signalling command.
// This driver never splits a launch over sub-devices (a root device runs it whole on its own threads, a sub-device
// on its own), so there is one for any device: the kernel timestamps zeEventQueryKernelTimestamp answers.
ze_result_t event_query_timestamps_exp(ze_event_handle_t event, ze_device_handle_t device, uint32_t *count,
                                       ze_kernel_timestamp_result_t *out) {
  if (event == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Event *e = Event::from(event);
  if (!e->is_signaled()) return ZE_RESULT_NOT_READY;
  constexpr uint32_t available = 1;
  if (*count == 0) { // asks how many there are
    *count = available;
    return ZE_RESULT_SUCCESS;
  }
  *count = std::min(*count, available);
  if (out != nullptr) out[0] = e->timestamps();
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_pool_get_ipc_handle(ze_event_pool_handle_t pool, ze_ipc_event_pool_handle_t *out) {
  if (pool == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::string why;
  if (!EventPool::from(pool)->ipc_handle(*out, why)) {
    zeal::logger("zeal-cpu").warn("zeEventPoolGetIpcHandle: {}", why);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_pool_open_ipc_handle(ze_context_handle_t context, ze_ipc_event_pool_handle_t handle,
                                       ze_event_pool_handle_t *out) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::string why;
  EventPool *pool = nullptr;
  ze_result_t r = EventPool::open(*Context::from(context), handle, &pool, why);
  if (r != ZE_RESULT_SUCCESS) zeal::logger("zeal-cpu").warn("zeEventPoolOpenIpcHandle: {}", why);
  else *out = pool;
  return r;
}

ze_result_t event_pool_close_ipc_handle(ze_event_pool_handle_t pool) {
  if (pool == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!EventPool::from(pool)->opened()) {
    zeal::logger("zeal-cpu").warn("zeEventPoolCloseIpcHandle: the event pool was not opened with "
                                  "zeEventPoolOpenIpcHandle (destroy it with zeEventPoolDestroy)");
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  delete EventPool::from(pool);
  return ZE_RESULT_SUCCESS;
}

} // namespace

void implement(ze_event_pool_dditable_t &t) {
  t.pfnCreate = guarded<event_pool_create>;
  t.pfnDestroy = guarded<destroy<EventPool>>;
  t.pfnGetIpcHandle = guarded<event_pool_get_ipc_handle>;
  t.pfnOpenIpcHandle = guarded<event_pool_open_ipc_handle>;
  t.pfnCloseIpcHandle = guarded<event_pool_close_ipc_handle>;
}

void implement(ze_event_dditable_t &t) {
  t.pfnCreate = guarded<event_create>;
  t.pfnDestroy = guarded<destroy<Event>>;
  t.pfnHostSignal = guarded<event_host_signal>;
  t.pfnHostSynchronize = guarded<event_host_synchronize>;
  t.pfnQueryStatus = guarded<event_query_status>;
  t.pfnHostReset = guarded<event_host_reset>;
  t.pfnQueryKernelTimestamp = guarded<event_query_kernel_timestamp>;
}

void implement(ze_event_exp_dditable_t &t) { t.pfnQueryTimestampsExp = guarded<event_query_timestamps_exp>; }

} // namespace zeal::cpu
