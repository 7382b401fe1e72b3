// USM allocations (all of them host memory) and the zeMem* entry points.
#include "cpu_driver/runtime/memory.hpp"

#include "common/log.hpp"
#include "cpu_driver/runtime/context.hpp"
#include "cpu_driver/runtime/ddi.hpp"
#include "cpu_driver/runtime/driver.hpp"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <new>

namespace zeal::cpu {
namespace {

std::atomic<uint64_t> next_allocation_id{1};

// Aligned operator delete must see the alignment the block was made with.
void release(const Allocation &a) { ::operator delete(reinterpret_cast<void *>(a.base), std::align_val_t{a.alignment}); }

} // namespace

Allocations::~Allocations() {
  for (auto &[base, allocation] : by_base_) release(allocation);
}

ze_result_t Allocations::allocate(size_t size, size_t alignment, ze_memory_type_t type, Device *device,
                                  void **out) {
  // Never below the default: kernels may use aligned vector loads on any buffer.
  size_t align = std::max(alignment, default_alignment);
  // A whole number of pages, as a GPU driver's allocations are: a kernel writing a little past the size it asked
  // for (level-zero-tests' launch and event tests write 1 KiB into 64 bytes, 4000 bytes into 1000) then writes
  // into its own block, as it would on a GPU, instead of into the host's heap, whose corruption would end the
  // process later and elsewhere. Lookups still see the size asked for.
  size_t block = size;
  if (size <= SIZE_MAX - (allocation_granule - 1))
    block = (size + allocation_granule - 1) / allocation_granule * allocation_granule;
  void *p = ::operator new(block, std::align_val_t{align}, std::nothrow);
  if (p == nullptr) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  Allocation a{reinterpret_cast<uintptr_t>(p), size, align, type, device, next_allocation_id.fetch_add(1)};
  {
    std::unique_lock lock(mutex_);
    by_base_.emplace(a.base, a);
  }
  *out = p;
  return ZE_RESULT_SUCCESS;
}

ze_result_t Allocations::free(void *ptr) {
  Allocation a;
  {
    std::unique_lock lock(mutex_);
    auto it = by_base_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == by_base_.end()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    a = it->second;
    by_base_.erase(it);
  }
  release(a);
  return ZE_RESULT_SUCCESS;
}

bool Allocations::find(const void *ptr, Allocation &out) const {
  auto address = reinterpret_cast<uintptr_t>(ptr);
  std::shared_lock lock(mutex_);
  auto it = by_base_.upper_bound(address);
  if (it == by_base_.begin()) return false;
  --it;
  if (address >= it->second.base + it->second.size) return false;
  out = it->second;
  return true;
}

namespace {

ze_result_t check_alloc(ze_context_handle_t context, size_t size, size_t alignment, Device *device, void **out) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  uint64_t limit = device != nullptr ? device->max_alloc_size()
                                     : Context::from(context)->driver().devices().front()->max_alloc_size();
  if (size == 0 || size > limit) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  if ((alignment & (alignment - 1)) != 0) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
  return ZE_RESULT_SUCCESS;
}

ze_result_t mem_alloc_host(ze_context_handle_t context, const ze_host_mem_alloc_desc_t *desc, size_t size,
                           size_t alignment, void **out) {
  if (desc == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ze_result_t r = check_alloc(context, size, alignment, nullptr, out); r != ZE_RESULT_SUCCESS) return r;
  return Context::from(context)->allocations().allocate(size, alignment, ZE_MEMORY_TYPE_HOST, nullptr, out);
}

ze_result_t mem_alloc_device(ze_context_handle_t context, const ze_device_mem_alloc_desc_t *desc, size_t size,
                             size_t alignment, ze_device_handle_t device, void **out) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Device *d = Device::from(device);
  if (ze_result_t r = check_alloc(context, size, alignment, d, out); r != ZE_RESULT_SUCCESS) return r;
  return Context::from(context)->allocations().allocate(size, alignment, ZE_MEMORY_TYPE_DEVICE, d, out);
}

ze_result_t mem_alloc_shared(ze_context_handle_t context, const ze_device_mem_alloc_desc_t *device_desc,
                             const ze_host_mem_alloc_desc_t *host_desc, size_t size, size_t alignment,
                             ze_device_handle_t device, void **out) {
  if (device_desc == nullptr || host_desc == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Device *d = device != nullptr ? Device::from(device) : nullptr; // null: shared with the host only
  if (ze_result_t r = check_alloc(context, size, alignment, d, out); r != ZE_RESULT_SUCCESS) return r;
  return Context::from(context)->allocations().allocate(size, alignment, ZE_MEMORY_TYPE_SHARED, d, out);
}

ze_result_t mem_free(ze_context_handle_t context, void *ptr) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (ptr == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  ze_result_t r = Context::from(context)->allocations().free(ptr);
  if (r != ZE_RESULT_SUCCESS)
    zeal::logger("zeal-cpu").warn("zeMemFree: {} is not an allocation of this context", ptr);
  return r;
}

ze_result_t mem_get_alloc_properties(ze_context_handle_t context, const void *ptr,
                                     ze_memory_allocation_properties_t *out, ze_device_handle_t *device) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (ptr == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Allocation a;
  bool known = Context::from(context)->allocations().find(ptr, a);
  out->type = known ? a.type : ZE_MEMORY_TYPE_UNKNOWN;
  out->id = known ? a.id : 0;
  out->pageSize = known ? Allocations::default_alignment : 0;
  if (device != nullptr) *device = known ? a.device : nullptr;
  return ZE_RESULT_SUCCESS;
}

ze_result_t mem_get_address_range(ze_context_handle_t context, const void *ptr, void **base, size_t *size) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (ptr == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Allocation a;
  if (!Context::from(context)->allocations().find(ptr, a)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (base != nullptr) *base = reinterpret_cast<void *>(a.base);
  if (size != nullptr) *size = a.size;
  return ZE_RESULT_SUCCESS;
}

} // namespace

void implement(ze_mem_dditable_t &t) {
  t.pfnAllocHost = guarded<mem_alloc_host>;
  t.pfnAllocDevice = guarded<mem_alloc_device>;
  t.pfnAllocShared = guarded<mem_alloc_shared>;
  t.pfnFree = guarded<mem_free>;
  t.pfnGetAllocProperties = guarded<mem_get_alloc_properties>;
  t.pfnGetAddressRange = guarded<mem_get_address_range>;
}

} // namespace zeal::cpu
