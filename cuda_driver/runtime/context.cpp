// Contexts: the allocations each holds, and the zeContext* entry points.
#include "cuda_driver/runtime/context.hpp"
#include "cuda_driver/runtime/cuda_call.hpp"
#include "cuda_driver/runtime/ddi.hpp"

namespace zeal::cuda {

Context::~Context() {
  // Level Zero leaves freeing to the application; what it forgot goes with the context.
  for (auto &[start, allocation] : allocations_) release(driver_, allocation);
  virtual_memory_.release(driver_);
}

void Context::add(const Allocation &allocation) {
  std::lock_guard lock(mutex_);
  allocations_[allocation.start] = allocation;
}

std::optional<Allocation> Context::find(const void *pointer) const {
  auto at = reinterpret_cast<uintptr_t>(pointer);
  std::lock_guard lock(mutex_);
  auto it = allocations_.upper_bound(at);
  if (it == allocations_.begin()) return std::nullopt;
  --it;
  // A zero-byte allocation still owns its first address.
  if (at >= it->second.start + std::max<size_t>(it->second.size, 1)) return std::nullopt;
  return it->second;
}

std::optional<Allocation> Context::take(const void *pointer) {
  std::lock_guard lock(mutex_);
  auto it = allocations_.find(reinterpret_cast<uintptr_t>(pointer));
  if (it == allocations_.end()) return std::nullopt;
  Allocation allocation = it->second;
  allocations_.erase(it);
  return allocation;
}

namespace {

ze_result_t context_create(ze_driver_handle_t driver, const ze_context_desc_t *desc, ze_context_handle_t *out) {
  if (driver == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *out = new Context(*Driver::from(driver));
  return ZE_RESULT_SUCCESS;
}

ze_result_t context_create_ex(ze_driver_handle_t driver, const ze_context_desc_t *desc, uint32_t count,
                              ze_device_handle_t *devices, ze_context_handle_t *out) {
  if (driver == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (count > 0 && devices == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  for (uint32_t i = 0; i < count; ++i)
    if (devices[i] == nullptr || !Driver::from(driver)->has(Device::from(devices[i])))
      return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return context_create(driver, desc, out);
}

// Everything submitted to the device so far is done and visible to the host (every stream of its primary context).
ze_result_t context_system_barrier(ze_context_handle_t context, ze_device_handle_t device) {
  if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const Device &d = *Device::from(device);
  d.make_current();
  return checked(d.api().cuCtxSynchronize(), "cuCtxSynchronize");
}

ze_result_t context_get_status(ze_context_handle_t context) {
  return context == nullptr ? ZE_RESULT_ERROR_INVALID_NULL_HANDLE : ZE_RESULT_SUCCESS;
}

} // namespace

void implement(ze_context_dditable_t &t) {
  t.pfnCreate = guarded<context_create>;
  t.pfnCreateEx = guarded<context_create_ex>;
  t.pfnDestroy = guarded<destroy<Context>>;
  t.pfnGetStatus = guarded<context_get_status>;
  t.pfnSystemBarrier = guarded<context_system_barrier>;
}

} // namespace zeal::cuda
