// The zeContext* entry points, residency included (host memory is always resident).
#include "cpu_driver/runtime/context.hpp"

#include "common/log.hpp"
#include "cpu_driver/runtime/ddi.hpp"
#include "cpu_driver/runtime/driver.hpp"
#include "cpu_driver/runtime/executor.hpp"

#include <atomic>

namespace zeal::cpu {

Context::Context(Driver &driver) : driver_(driver), allocations_(driver.cpu().memory_bytes) {}

void Context::add_stream(Executor &stream) {
  std::lock_guard lock(streams_mutex_);
  streams_.push_back(&stream);
}

void Context::remove_stream(Executor &stream) {
  std::unique_lock lock(streams_mutex_);
  streams_cv_.wait(lock, [&] { return finishing_ == 0; });
  std::erase(streams_, &stream);
}

void Context::finish_submitted() {
  std::vector<Executor *> streams;
  {
    std::lock_guard lock(streams_mutex_);
    streams = streams_;
    ++finishing_;
  }
  for (Executor *stream : streams) stream->synchronize(UINT64_MAX);
  {
    std::lock_guard lock(streams_mutex_);
    --finishing_;
  }
  streams_cv_.notify_all();
}

namespace {

ze_result_t context_create(ze_driver_handle_t driver, const ze_context_desc_t *desc, ze_context_handle_t *out) {
  if (driver == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *out = new Context(*Driver::from(driver));
  return ZE_RESULT_SUCCESS;
}

ze_result_t context_create_ex(ze_driver_handle_t driver, const ze_context_desc_t *desc, uint32_t device_count,
                              ze_device_handle_t *devices, ze_context_handle_t *out) {
  if (device_count > 0 && devices == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (driver == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  // A device of another of the library's drivers (ZEAL_CPU_DRIVERS) has no place in this driver's context.
  for (uint32_t i = 0; i < device_count; ++i) {
    if (devices[i] == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!Driver::from(driver)->has(Device::from(devices[i]))) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  return context_create(driver, desc, out);
}

ze_result_t context_get_status(ze_context_handle_t context) {
  return context == nullptr ? ZE_RESULT_ERROR_INVALID_NULL_HANDLE : ZE_RESULT_SUCCESS;
}

// Writes from elsewhere land in host memory, which the CPU sees coherently: a full fence is all there is to do.
ze_result_t context_system_barrier(ze_context_handle_t context, ze_device_handle_t device) {
  if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return ZE_RESULT_SUCCESS;
}

// Host memory is always resident, so making a range resident or evictable only checks
// that it lies in one allocation of the context. The spec names no error for a range
// that does not: INVALID_ARGUMENT (its generic one) when ptr is in no allocation,
// INVALID_SIZE when the range runs past the end of its allocation.
ze_result_t check_resident_range(const char *entry_point, ze_context_handle_t context, ze_device_handle_t device,
                                 const void *ptr, size_t size) {
  if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (ptr == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Allocation a;
  if (!Context::from(context)->allocations().find(ptr, a)) {
    zeal::logger("zeal-cpu").warn("{}: {} is not in an allocation of this context", entry_point, ptr);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  if (size > a.base + a.size - reinterpret_cast<uintptr_t>(ptr)) {
    zeal::logger("zeal-cpu").warn("{}: {} bytes from {} run past the end of its allocation of {} bytes at {:#x}",
                                  entry_point, size, ptr, a.size, a.base);
    return ZE_RESULT_ERROR_INVALID_SIZE;
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t context_make_memory_resident(ze_context_handle_t context, ze_device_handle_t device, void *ptr,
                                         size_t size) {
  return check_resident_range("zeContextMakeMemoryResident", context, device, ptr, size);
}

ze_result_t context_evict_memory(ze_context_handle_t context, ze_device_handle_t device, void *ptr, size_t size) {
  return check_resident_range("zeContextEvictMemory", context, device, ptr, size);
}

} // namespace

void implement(ze_context_dditable_t &t) {
  t.pfnCreate = guarded<context_create>;
  t.pfnCreateEx = guarded<context_create_ex>;
  t.pfnDestroy = guarded<destroy<Context>>;
  t.pfnGetStatus = guarded<context_get_status>;
  t.pfnSystemBarrier = guarded<context_system_barrier>;
  t.pfnMakeMemoryResident = guarded<context_make_memory_resident>;
  t.pfnEvictMemory = guarded<context_evict_memory>;
}

} // namespace zeal::cpu
