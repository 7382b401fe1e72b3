// Events and event pools (event.hpp), and the zeEventPool*/zeEvent* entry points.
#include "cuda_driver/runtime/event.hpp"
#include "cuda_driver/runtime/cuda_call.hpp"
#include "cuda_driver/runtime/ddi.hpp"
#include "cuda_driver/runtime/stream_feeder.hpp"

#include "common/log.hpp"
#include "ze_driver/shared_file.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

namespace zeal::cuda {
namespace {

// One word per event, each on a cache line of its own so that the device's writes do not share lines.
constexpr size_t event_stride = 64;

const Device &any_device(const Driver &driver) { return *driver.devices().front(); }

// A thread inside an operation on the slot, for its lifetime (EventSlot::users).
class SlotUse {
public:
  explicit SlotUse(EventSlot &slot) : slot_(slot) { slot_.users.fetch_add(1); }
  ~SlotUse() { slot_.users.fetch_sub(1); }
  SlotUse(const SlotUse &) = delete;
  SlotUse &operator=(const SlotUse &) = delete;

private:
  EventSlot &slot_;
};

} // namespace

void EventSlot::wait_unused() const {
  while (users.load() != 0) std::this_thread::yield();
}

ze_result_t Event::signal_on(const Device &device, CUstream stream, uint32_t value) {
  SlotUse use(slot_);
  const DriverApi &api = device.api();
  if (value == 0) {
    slot_.forget_signals();
    if (slot_.bridge_pending.load()) {
      if (api.cuEventQuery(slot_.bridged) == CUDA_SUCCESS) {
        slot_.bridge_pending.store(false);
      } else {
        // The word's late write for a recorded signal (use_word) lands before this reset.
        note_stream_wait();
        if (ze_result_t r = checked(api.cuStreamWaitEvent(stream, slot_.bridged, 0), "cuStreamWaitEvent");
            r != ZE_RESULT_SUCCESS)
          return r;
      }
    }
    return checked(api.cuStreamWriteValue32_v2(stream, slot_.device_word, 0, 0), "cuStreamWriteValue32");
  }
  ze_result_t r = ZE_RESULT_SUCCESS;
  bool recorded_now = false;
  if (!slot_.word_waited.load()) {
    std::lock_guard lock(slot_.switching);
    if (slot_.word_waited.load() || slot_.host_signalled.load()) {
      // use_word came first, or the host's signal is the last: write the word
    } else if (slot_.recorded.load()) {
      // A second signal with no reset between them: a CUDA event stands for its latest record only, so recording it
      // again would make the waits enqueued meanwhile wait for this signal instead of the first (a ping-pong of two
      // lists through two events would then wait for ever). Waits go to the first record; signals write the word
      // from now on.
      slot_.word_waited.store(true);
    } else {
      std::call_once(slot_.made, [&] {
        checked(api.cuEventCreate(&slot_.recorded_event, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
      });
      if (slot_.recorded_event != nullptr) {
        r = checked(api.cuEventRecord(slot_.recorded_event, stream), "cuEventRecord");
        recorded_now = r == ZE_RESULT_SUCCESS;
        if (recorded_now) slot_.recorded.store(true);
      }
    }
  }
  // A stream that began waiting on the word meanwhile (wait_on sets word_waited before it looks at `recorded`)
  // needs the word written: one of the two sees the other.
  if (r == ZE_RESULT_SUCCESS && (!recorded_now || slot_.word_waited.load()))
    r = checked(api.cuStreamWriteValue32_v2(stream, slot_.device_word, value, 0), "cuStreamWriteValue32");
  slot_.signal_stream.store(r == ZE_RESULT_SUCCESS ? stream : nullptr);
  if (r == ZE_RESULT_SUCCESS) slot_.signal_enqueued.store(true);
  return r;
}

bool Event::signal_unknown() const {
  if (slot_.shared) return std::atomic_ref<uint32_t>(*slot_.word).load(std::memory_order_acquire) == 0;
  return !slot_.signal_enqueued.load() && !slot_.host_signalled.load();
}

ze_result_t Event::wait_on(const Device &device, CUstream stream) const {
  SlotUse use(slot_);
  // The wait on the stream that signalled last is stream order already (a stream's commands are enqueued in the
  // application's order; use_word forgets the signalling stream, as a reset does, for work enqueued later).
  if (!would_wait_on(stream)) return ZE_RESULT_SUCCESS;
  // A signal not enqueued yet is waited for here, on the feeder's thread, until it is (or the host gives it): the
  // stream then waits only for work it already has. (On the application's thread, which must not wait, only when
  // another thread reset the event since the append looked: the stream waits for the word, as before.)
  if (on_feeder_thread())
    while (signal_unknown()) std::this_thread::sleep_for(std::chrono::microseconds(20));
  slot_.word_waited.store(true);
  note_stream_wait();
  if (slot_.recorded.load())
    return checked(device.api().cuStreamWaitEvent(stream, slot_.recorded_event, 0), "cuStreamWaitEvent");
  return checked(device.api().cuStreamWaitValue32_v2(stream, slot_.device_word, 1, CU_STREAM_WAIT_VALUE_GEQ),
                 "cuStreamWaitValue32");
}

ze_result_t Event::use_word(const Device &device) {
  std::lock_guard lock(slot_.switching);
  slot_.word_waited.store(true);
  slot_.signal_stream.store(nullptr); // the work may reset it before a wait enqueued sooner
  if (!slot_.recorded.load()) return ZE_RESULT_SUCCESS;
  const CUstream bridge = device.bridge_stream();
  if (bridge == nullptr) return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  device.make_current();
  const DriverApi &api = device.api();
  if (ze_result_t r = checked(api.cuStreamWaitEvent(bridge, slot_.recorded_event, 0), "cuStreamWaitEvent");
      r != ZE_RESULT_SUCCESS)
    return r;
  if (ze_result_t r = checked(api.cuStreamWriteValue32_v2(bridge, slot_.device_word, 1, 0), "cuStreamWriteValue32");
      r != ZE_RESULT_SUCCESS)
    return r;
  if (slot_.bridged == nullptr)
    if (ze_result_t r = checked(api.cuEventCreate(&slot_.bridged, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
        r != ZE_RESULT_SUCCESS)
      return r;
  if (ze_result_t r = checked(api.cuEventRecord(slot_.bridged, bridge), "cuEventRecord"); r != ZE_RESULT_SUCCESS)
    return r;
  slot_.bridge_pending.store(true);
  slot_.recorded.store(false);
  return ZE_RESULT_SUCCESS;
}

void Event::host_reset() {
  slot_.forget_signals();
  // A pending bridge write stands for a recorded signal: while that signal has not happened, it sets the event later
  // as the signal itself would; once it has, the write is imminent and must land before the reset.
  if (slot_.bridge_pending.load()) {
    const Device &device = any_device(pool_.driver());
    device.make_current();
    if (device.api().cuEventQuery(slot_.recorded_event) == CUDA_SUCCESS) {
      checked(device.api().cuEventSynchronize(slot_.bridged), "cuEventSynchronize");
      slot_.bridge_pending.store(false);
    }
  }
  std::atomic_ref<uint32_t>(*slot_.word).store(0, std::memory_order_release);
}

bool Event::signalled() const {
  if (std::atomic_ref<uint32_t>(*slot_.word).load(std::memory_order_acquire) != 0) return true;
  if (!slot_.recorded.load()) return false;
  const Device &device = any_device(pool_.driver());
  device.make_current();
  return device.api().cuEventQuery(slot_.recorded_event) == CUDA_SUCCESS;
}

ze_result_t Event::host_wait(uint64_t timeout) const {
  return poll_until(timeout, [this](unsigned attempt) {
    if (signalled()) return ZE_RESULT_SUCCESS;
    // A faulted kernel never lets its stream reach the signal: ask about the devices now and then (every ~10 ms).
    if (attempt % 512 == 511)
      for (const Device *device : pool_.driver().devices())
        if (device->lost()) return ZE_RESULT_ERROR_DEVICE_LOST;
    return ZE_RESULT_NOT_READY;
  });
}

EventPool::EventPool(Driver &driver, uint32_t count, ze_event_pool_flags_t flags, void *words,
                     CUdeviceptr device_words, int fd, bool opened)
    : driver_(driver), count_(count), flags_(flags), words_(words), fd_(fd), opened_(opened),
      slots_(new EventSlot[count]) {
  for (uint32_t i = 0; i < count_; ++i) {
    slots_[i].word = reinterpret_cast<uint32_t *>(static_cast<char *>(words_) + i * event_stride);
    slots_[i].device_word = device_words + i * event_stride;
    // Another process may wait on the word or signal through it: signals always write it.
    if (fd_ >= 0 || opened_) {
      slots_[i].word_waited.store(true);
      slots_[i].shared = true;
    }
  }
}

EventPool::~EventPool() {
  for (uint32_t i = 0; i < count_; ++i) slots_[i].wait_unused();
  const Device &device = any_device(driver_);
  device.make_current();
  for (uint32_t i = 0; i < count_; ++i) {
    EventSlot &slot = slots_[i];
    if (slot.bridged != nullptr) {
      // A bridge write still to come would land in freed memory; it waits only for a signal the application enqueued
      if (slot.bridge_pending.load()) checked(device.api().cuEventSynchronize(slot.bridged), "cuEventSynchronize");
      checked(device.api().cuEventDestroy_v2(slot.bridged), "cuEventDestroy_v2");
    }
    if (slot.recorded_event != nullptr)
      checked(device.api().cuEventDestroy_v2(slot.recorded_event), "cuEventDestroy_v2");
  }
  if (fd_ < 0 && !opened_) {
    checked(device.api().cuMemFreeHost(words_), "cuMemFreeHost");
    return;
  }
  checked(device.api().cuMemHostUnregister(words_), "cuMemHostUnregister");
  munmap(words_, words_size(count_));
  if (fd_ >= 0) close(fd_);
}

// The event's line: the state word, then the start and end stamps at 8 and 16 bytes.
uint64_t *Event::timestamps() const {
  return pool_.timestamps() ? reinterpret_cast<uint64_t *>(reinterpret_cast<char *>(slot_.word) + 8) : nullptr;
}

uint64_t *Event::device_timestamps() const {
  return pool_.timestamps() ? reinterpret_cast<uint64_t *>(slot_.device_word + 8) : nullptr;
}

size_t EventPool::words_size(uint32_t count) { return ze::whole_pages(size_t(count) * event_stride); }

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
  contents.size = words_size(count_);
  contents.count = count_;
  contents.flags = flags_;
  ze::encode_ipc(contents, out.data);
  return true;
}

Event *EventPool::create(uint32_t index) {
  std::lock_guard lock(mutex_);
  EventSlot &slot = slots_[index];
  if (!opened_) std::memset(slot.word, 0, 24); // state and stamps; another process's pool keeps its state
  slot.forget_signals();
  events_.push_back(std::make_unique<Event>(*this, index, slot));
  return events_.back().get();
}

void EventPool::forget(const Event *event) {
  slots_[event->index()].wait_unused();
  std::lock_guard lock(mutex_);
  auto it = std::find_if(events_.begin(), events_.end(), [&](const auto &e) { return e.get() == event; });
  if (it != events_.end()) events_.erase(it);
}

namespace {

// Memory of a memory file (made or opened), registered with CUDA so that streams write and wait on it: its address on
// the device, or 0 with the mapping undone.
CUdeviceptr register_words(const Device &device, void *words, size_t bytes) {
  device.make_current();
  const DriverApi &api = device.api();
  CUdeviceptr on_device = 0;
  if (checked(api.cuMemHostRegister_v2(words, bytes, CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP),
              "cuMemHostRegister") != ZE_RESULT_SUCCESS)
    return 0;
  if (checked(api.cuMemHostGetDevicePointer_v2(&on_device, words, 0), "cuMemHostGetDevicePointer") != ZE_RESULT_SUCCESS) {
    api.cuMemHostUnregister(words);
    return 0;
  }
  return on_device;
}

ze_result_t event_pool_create(ze_context_handle_t context, const ze_event_pool_desc_t *desc, uint32_t,
                              ze_device_handle_t *, ze_event_pool_handle_t *out) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->count == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  Driver &driver = Context::from(context)->driver();
  if ((desc->flags & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP) != 0)
    for (const Device *d : driver.devices()) d->load_timestamp_kernel();
  const Device &device = any_device(driver);
  device.make_current();
  if ((desc->flags & ZE_EVENT_POOL_FLAG_IPC) != 0) {
    // A memory file other processes map (zeEventPoolGetIpcHandle): it reads as zeros, every event clear.
    std::string why;
    int fd = -1;
    const size_t bytes = EventPool::words_size(desc->count);
    void *words = ze::map_new_memory_file("zeal-cuda-event-pool", bytes, 0, fd, why);
    if (words == nullptr) {
      zeal::logger("zeal-cuda").warn("zeEventPoolCreate: {}", why);
      return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    CUdeviceptr on_device = register_words(device, words, bytes);
    if (on_device == 0) {
      munmap(words, bytes);
      close(fd);
      return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    *out = new EventPool(driver, desc->count, desc->flags, words, on_device, fd, false);
    return ZE_RESULT_SUCCESS;
  }
  void *words = nullptr;
  ze_result_t result = checked(device.api().cuMemHostAlloc(&words, size_t(desc->count) * event_stride,
                                                           CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP),
                               "cuMemHostAlloc");
  if (result != ZE_RESULT_SUCCESS) return result;
  // Under unified addressing, the device sees memory of cuMemHostAlloc at the host's address.
  *out = new EventPool(driver, desc->count, desc->flags, words, CUdeviceptr(words), -1, false);
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_pool_get_ipc_handle(ze_event_pool_handle_t pool, ze_ipc_event_pool_handle_t *out) {
  if (pool == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::string why;
  if (!EventPool::from(pool)->ipc_handle(*out, why)) {
    zeal::logger("zeal-cuda").warn("zeEventPoolGetIpcHandle: {}", why);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_pool_open_ipc_handle(ze_context_handle_t context, ze_ipc_event_pool_handle_t handle,
                                       ze_event_pool_handle_t *out) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::string why;
  ze::IpcContents contents;
  void *words = nullptr;
  if (!ze::decode_ipc(handle.data, ze::IpcContents::Kind::event_pool, contents, why)) {
    zeal::logger("zeal-cuda").warn("zeEventPoolOpenIpcHandle: {}", why);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  if (contents.count == 0 || contents.size != EventPool::words_size(contents.count)) {
    zeal::logger("zeal-cuda").warn("zeEventPoolOpenIpcHandle: the handle says {} events in {} bytes, which do not go "
                                   "together", contents.count, contents.size);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  if (ze_result_t r = ze::map_ipc_range(contents, &words, why); r != ZE_RESULT_SUCCESS) {
    zeal::logger("zeal-cuda").warn("zeEventPoolOpenIpcHandle: {}", why);
    return r;
  }
  Driver &driver = Context::from(context)->driver();
  CUdeviceptr on_device = register_words(any_device(driver), words, contents.size);
  if (on_device == 0) {
    munmap(words, contents.size);
    return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  }
  *out = new EventPool(driver, contents.count, contents.flags, words, on_device, -1, true);
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_pool_close_ipc_handle(ze_event_pool_handle_t pool) {
  if (pool == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!EventPool::from(pool)->opened()) {
    zeal::logger("zeal-cuda").warn("zeEventPoolCloseIpcHandle: the pool was not opened from an IPC handle "
                                   "(zeEventPoolDestroy destroys it)");
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  delete EventPool::from(pool);
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_create(ze_event_pool_handle_t pool, const ze_event_desc_t *desc, ze_event_handle_t *out) {
  if (pool == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  EventPool *p = EventPool::from(pool);
  if (desc->index >= p->count()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  *out = p->create(desc->index);
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_destroy(ze_event_handle_t handle) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Event *event = Event::from(handle);
  event->pool().forget(event);
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_host_signal(ze_event_handle_t handle) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Event::from(handle)->host_signal();
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_host_reset(ze_event_handle_t handle) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Event::from(handle)->host_reset();
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_host_synchronize(ze_event_handle_t handle, uint64_t timeout) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return Event::from(handle)->host_wait(timeout);
}

ze_result_t event_query_kernel_timestamp(ze_event_handle_t handle, ze_kernel_timestamp_result_t *out) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Event *event = Event::from(handle);
  const uint64_t *stamps = event->timestamps();
  if (stamps == nullptr) return ZE_RESULT_ERROR_INVALID_ARGUMENT; // not of a timestamp pool
  if (!event->signalled()) return ZE_RESULT_NOT_READY;
  out->global = {stamps[0], stamps[1]};
  out->context = out->global;
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_query_status(ze_event_handle_t handle) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return Event::from(handle)->signalled() ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
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
  t.pfnDestroy = guarded<event_destroy>;
  t.pfnHostSignal = guarded<event_host_signal>;
  t.pfnHostReset = guarded<event_host_reset>;
  t.pfnHostSynchronize = guarded<event_host_synchronize>;
  t.pfnQueryStatus = guarded<event_query_status>;
  t.pfnQueryKernelTimestamp = guarded<event_query_kernel_timestamp>;
}

} // namespace zeal::cuda
