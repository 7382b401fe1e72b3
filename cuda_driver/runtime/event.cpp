// Events and event pools (event.hpp), and the zeEventPool*/zeEvent* entry points.
#include "cuda_driver/runtime/event.hpp"
#include "cuda_driver/runtime/cuda_call.hpp"
#include "cuda_driver/runtime/ddi.hpp"

#include <algorithm>
#include <cstring>

namespace zeal::cuda {
namespace {

// One word per event, each on a cache line of its own so that the device's writes do not share lines.
constexpr size_t event_stride = 64;

const Device &any_device(const Driver &driver) { return *driver.devices().front(); }

} // namespace

ze_result_t Event::signal_on(const Device &device, CUstream stream, uint32_t value) {
  const DriverApi &api = device.api();
  if (value == 0) {
    slot_.recorded.store(false);
    slot_.signal_stream.store(nullptr);
    return checked(api.cuStreamWriteValue32_v2(stream, CUdeviceptr(slot_.word), 0, 0), "cuStreamWriteValue32");
  }
  ze_result_t r = ZE_RESULT_SUCCESS;
  if (!slot_.word_waited.load()) {
    std::call_once(slot_.made, [&] {
      checked(api.cuEventCreate(&slot_.recorded_event, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    });
    if (slot_.recorded_event != nullptr) {
      r = checked(api.cuEventRecord(slot_.recorded_event, stream), "cuEventRecord");
      if (r == ZE_RESULT_SUCCESS) slot_.recorded.store(true);
    }
  }
  // A stream that began waiting on the word meanwhile (wait_on sets word_waited before it looks at `recorded`)
  // needs the word written: one of the two sees the other.
  if (r == ZE_RESULT_SUCCESS && (slot_.word_waited.load() || !slot_.recorded.load()))
    r = checked(api.cuStreamWriteValue32_v2(stream, CUdeviceptr(slot_.word), value, 0), "cuStreamWriteValue32");
  slot_.signal_stream.store(r == ZE_RESULT_SUCCESS ? stream : nullptr);
  return r;
}

ze_result_t Event::wait_on(const Device &device, CUstream stream) const {
  if (stream != nullptr && slot_.signal_stream.load() == stream) return ZE_RESULT_SUCCESS;
  slot_.word_waited.store(true);
  if (slot_.recorded.load())
    return checked(device.api().cuStreamWaitEvent(stream, slot_.recorded_event, 0), "cuStreamWaitEvent");
  return checked(device.api().cuStreamWaitValue32_v2(stream, CUdeviceptr(slot_.word), 1, CU_STREAM_WAIT_VALUE_GEQ),
                 "cuStreamWaitValue32");
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

EventPool::EventPool(Driver &driver, const ze_event_pool_desc_t &desc, void *words)
    : driver_(driver), count_(desc.count),
      timestamps_((desc.flags & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP) != 0),
      words_(words), slots_(new EventSlot[desc.count]) {
  for (uint32_t i = 0; i < count_; ++i)
    slots_[i].word = reinterpret_cast<uint32_t *>(static_cast<char *>(words_) + i * event_stride);
}

// The event's line: the state word, then the start and end stamps at 8 and 16 bytes.
uint64_t *Event::timestamps() const {
  return pool_.timestamps() ? reinterpret_cast<uint64_t *>(reinterpret_cast<char *>(slot_.word) + 8) : nullptr;
}

EventPool::~EventPool() {
  const Device &device = any_device(driver_);
  device.make_current();
  for (uint32_t i = 0; i < count_; ++i)
    if (slots_[i].recorded_event != nullptr)
      checked(device.api().cuEventDestroy_v2(slots_[i].recorded_event), "cuEventDestroy_v2");
  checked(device.api().cuMemFreeHost(words_), "cuMemFreeHost");
}

Event *EventPool::create(uint32_t index) {
  std::lock_guard lock(mutex_);
  EventSlot &slot = slots_[index];
  std::memset(slot.word, 0, 24); // state and stamps
  slot.signal_stream.store(nullptr);
  slot.recorded.store(false);
  events_.push_back(std::make_unique<Event>(*this, index, slot));
  return events_.back().get();
}

void EventPool::forget(const Event *event) {
  std::lock_guard lock(mutex_);
  auto it = std::find_if(events_.begin(), events_.end(), [&](const auto &e) { return e.get() == event; });
  if (it != events_.end()) events_.erase(it);
}

namespace {

ze_result_t event_pool_create(ze_context_handle_t context, const ze_event_pool_desc_t *desc, uint32_t,
                              ze_device_handle_t *, ze_event_pool_handle_t *out) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->count == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  Driver &driver = Context::from(context)->driver();
  any_device(driver).make_current();
  void *words = nullptr;
  ze_result_t result = checked(any_device(driver).api().cuMemHostAlloc(&words, size_t(desc->count) * event_stride,
                                                                   CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP),
                               "cuMemHostAlloc");
  if (result != ZE_RESULT_SUCCESS) return result;
  *out = new EventPool(driver, *desc, words);
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
