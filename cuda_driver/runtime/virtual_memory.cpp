// Virtual and physical memory (zeVirtualMem*, zePhysicalMem*) on CUDA's virtual memory management: address ranges
// reserved with cuMemAddressReserve, physical memory made with cuMemCreate on one device, mapped with cuMemMap and
// opened to every device of the driver with cuMemSetAccess. Sizes and offsets are multiples of the allocation
// granularity CUDA gives (2 MiB on current GPUs), which zeVirtualMemQueryPageSize answers. The context keeps what is
// reserved, made and mapped, so that a range or handle not its own is refused with a sentence, and what the
// application forgets goes with it.
#include "cuda_driver/runtime/context.hpp"
#include "cuda_driver/runtime/cuda_call.hpp"
#include "cuda_driver/runtime/ddi.hpp"

#include "common/log.hpp"

#include <fmt/format.h>

namespace zeal::cuda {

class PhysicalMemory : public _ze_physical_mem_handle_t {
public:
  PhysicalMemory(Device &device, CUmemGenericAllocationHandle handle, size_t size)
      : device_(device), handle_(handle), size_(size) {}
  static PhysicalMemory *from(ze_physical_mem_handle_t h) { return static_cast<PhysicalMemory *>(h); }
  Device &device() const { return device_; }
  CUmemGenericAllocationHandle handle() const { return handle_; }
  size_t size() const { return size_; }

private:
  Device &device_;
  CUmemGenericAllocationHandle handle_;
  size_t size_;
};

namespace {

size_t granularity(const Device &device) {
  MemAllocationProp prop;
  prop.location.id = device.facts().ordinal;
  size_t bytes = 0;
  device.make_current();
  if (device.api().cuMemGetAllocationGranularity(&bytes, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) != CUDA_SUCCESS ||
      bytes == 0)
    bytes = size_t{2} << 20;
  return bytes;
}

int access_flags(ze_memory_access_attribute_t access) {
  switch (access) {
  case ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY: return CU_MEM_ACCESS_FLAGS_PROT_READ;
  case ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE: return CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  default: return CU_MEM_ACCESS_FLAGS_PROT_NONE;
  }
}

ze_result_t refuse(const char *entry_point, ze_result_t result, const std::string &why) {
  zeal::logger("zeal-cuda").warn("{}: {}", entry_point, why);
  return result;
}

const Device &first_device(const Context &context) { return *context.driver().devices().front(); }

// Every device of the driver may access [at, at + size) as `access` says (CUDA's mappings start inaccessible).
ze_result_t open_to_devices(const Context &context, uintptr_t at, size_t size, ze_memory_access_attribute_t access) {
  std::vector<MemAccessDesc> desc;
  for (const Device *device : context.driver().devices()) {
    MemAccessDesc d;
    d.location.id = device->facts().ordinal;
    d.flags = access_flags(access);
    desc.push_back(d);
  }
  const Device &device = first_device(context);
  device.make_current();
  return checked(device.api().cuMemSetAccess(at, size, desc.data(), desc.size()), "cuMemSetAccess");
}

ze_result_t virtual_mem_query_page_size(ze_context_handle_t context, ze_device_handle_t device, size_t,
                                        size_t *page_size) {
  if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (page_size == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *page_size = granularity(*Device::from(device));
  return ZE_RESULT_SUCCESS;
}

ze_result_t virtual_mem_reserve(ze_context_handle_t handle, const void *start, size_t size, void **out) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Context &context = *Context::from(handle);
  const Device &device = first_device(context);
  const size_t page = granularity(device);
  if (size == 0 || size % page != 0)
    return refuse("zeVirtualMemReserve", ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
                  fmt::format("{} bytes is not a multiple of the page size, {} bytes", size, page));
  CUdeviceptr at = 0;
  // The start address is a hint: CUDA takes it when that range is free, as Level Zero asks.
  ze_result_t r = checked(device.api().cuMemAddressReserve(&at, size, 0, CUdeviceptr(start), 0), "cuMemAddressReserve");
  if (r != ZE_RESULT_SUCCESS) return r;
  VirtualMemory &vm = context.virtual_memory();
  std::lock_guard lock(vm.mutex);
  vm.reserved[uintptr_t(at)] = size;
  *out = reinterpret_cast<void *>(at);
  return ZE_RESULT_SUCCESS;
}

ze_result_t virtual_mem_free(ze_context_handle_t handle, const void *ptr, size_t size) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (ptr == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Context &context = *Context::from(handle);
  VirtualMemory &vm = context.virtual_memory();
  std::lock_guard lock(vm.mutex);
  auto it = vm.reserved.find(uintptr_t(ptr));
  if (it == vm.reserved.end() || it->second != size)
    return refuse("zeVirtualMemFree", ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  fmt::format("[{}, +{}) is not a range zeVirtualMemReserve gave in this context", ptr, size));
  const Device &device = first_device(context);
  device.make_current();
  ze_result_t r = checked(device.api().cuMemAddressFree(CUdeviceptr(ptr), size), "cuMemAddressFree");
  if (r == ZE_RESULT_SUCCESS) vm.reserved.erase(it);
  return r;
}

ze_result_t physical_mem_create(ze_context_handle_t handle, ze_device_handle_t device_handle,
                                ze_physical_mem_desc_t *desc, ze_physical_mem_handle_t *out) {
  if (handle == nullptr || device_handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->flags & ~ze_physical_mem_flags_t(ZE_PHYSICAL_MEM_FLAG_TBD)) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  Device &device = *Device::from(device_handle);
  const size_t page = granularity(device);
  if (desc->size == 0 || desc->size % page != 0)
    return refuse("zePhysicalMemCreate", ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
                  fmt::format("{} bytes is not a multiple of the page size, {} bytes", desc->size, page));
  MemAllocationProp prop;
  prop.location.id = device.facts().ordinal;
  CUmemGenericAllocationHandle memory = 0;
  device.make_current();
  ze_result_t r = checked(device.api().cuMemCreate(&memory, desc->size, &prop, 0), "cuMemCreate");
  if (r != ZE_RESULT_SUCCESS) return r == ZE_RESULT_ERROR_UNKNOWN ? ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY : r;
  auto *physical = new PhysicalMemory(device, memory, desc->size);
  VirtualMemory &vm = Context::from(handle)->virtual_memory();
  std::lock_guard lock(vm.mutex);
  vm.physical.insert(physical);
  *out = physical;
  return ZE_RESULT_SUCCESS;
}

ze_result_t physical_mem_destroy(ze_context_handle_t handle, ze_physical_mem_handle_t memory) {
  if (handle == nullptr || memory == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  VirtualMemory &vm = Context::from(handle)->virtual_memory();
  std::lock_guard lock(vm.mutex);
  auto *physical = PhysicalMemory::from(memory);
  if (vm.physical.erase(physical) == 0)
    return refuse("zePhysicalMemDestroy", ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  "the physical memory was not made in this context");
  // CUDA keeps the memory while a mapping still uses it and frees it with the last unmap.
  physical->device().make_current();
  ze_result_t r = checked(physical->device().api().cuMemRelease(physical->handle()), "cuMemRelease");
  delete physical;
  return r;
}

// The reservation [ptr, ptr + size) lies in, or why not.
bool within_reservation(const VirtualMemory &vm, const void *ptr, size_t size, std::string &why) {
  auto at = uintptr_t(ptr);
  auto it = vm.reserved.upper_bound(at);
  if (it == vm.reserved.begin() || at + size > std::prev(it)->first + std::prev(it)->second) {
    why = fmt::format("[{}, +{}) is not inside a range zeVirtualMemReserve gave in this context", ptr, size);
    return false;
  }
  return true;
}

ze_result_t virtual_mem_map(ze_context_handle_t handle, const void *ptr, size_t size, ze_physical_mem_handle_t memory,
                            size_t offset, ze_memory_access_attribute_t access) {
  if (handle == nullptr || memory == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (ptr == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (access > ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  Context &context = *Context::from(handle);
  VirtualMemory &vm = context.virtual_memory();
  std::lock_guard lock(vm.mutex);
  auto *physical = PhysicalMemory::from(memory);
  std::string why;
  if (!vm.physical.contains(physical)) return refuse("zeVirtualMemMap", ZE_RESULT_ERROR_INVALID_ARGUMENT,
                                                     "the physical memory was not made in this context");
  const size_t page = granularity(physical->device());
  if (size == 0 || size % page != 0 || offset % page != 0 || uintptr_t(ptr) % page != 0)
    return refuse("zeVirtualMemMap", ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT,
                  fmt::format("address {}, size {} and offset {} must be multiples of the page size, {} bytes", ptr,
                              size, offset, page));
  if (offset + size > physical->size())
    return refuse("zeVirtualMemMap", ZE_RESULT_ERROR_INVALID_SIZE,
                  fmt::format("{} bytes from offset {} pass the end of the physical memory's {} bytes", size, offset,
                              physical->size()));
  if (!within_reservation(vm, ptr, size, why)) return refuse("zeVirtualMemMap", ZE_RESULT_ERROR_INVALID_ARGUMENT, why);
  auto overlap = vm.mapped.upper_bound(uintptr_t(ptr) + size - 1);
  if (overlap != vm.mapped.begin() && std::prev(overlap)->first + std::prev(overlap)->second.size > uintptr_t(ptr))
    return refuse("zeVirtualMemMap", ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  fmt::format("[{}, +{}) overlaps a range mapped already", ptr, size));
  physical->device().make_current();
  ze_result_t r = checked(physical->device().api().cuMemMap(CUdeviceptr(ptr), size, offset, physical->handle(), 0),
                          "cuMemMap");
  if (r != ZE_RESULT_SUCCESS) return r;
  if (r = open_to_devices(context, uintptr_t(ptr), size, access); r != ZE_RESULT_SUCCESS) {
    physical->device().api().cuMemUnmap(CUdeviceptr(ptr), size);
    return r;
  }
  vm.mapped[uintptr_t(ptr)] = {size, access};
  vm.unmapped_access.erase(vm.unmapped_access.lower_bound(uintptr_t(ptr)),
                           vm.unmapped_access.lower_bound(uintptr_t(ptr) + size));
  return ZE_RESULT_SUCCESS;
}

// The mappings inside [at, end), in order; false when one lies partly inside (CUDA unmaps and opens whole mappings).
bool mappings_inside(VirtualMemory &vm, uintptr_t at, uintptr_t end, std::vector<uintptr_t> &starts) {
  auto it = vm.mapped.lower_bound(at);
  if (it != vm.mapped.begin() && std::prev(it)->first + std::prev(it)->second.size > at) return false;
  for (; it != vm.mapped.end() && it->first < end; ++it) {
    if (it->first + it->second.size > end) return false;
    starts.push_back(it->first);
  }
  return true;
}

// Unmaps what is mapped inside the range; a part of a reservation with nothing mapped is already unmapped (as on
// Intel's driver, which level-zero-tests rely on when they unmap a range twice).
ze_result_t virtual_mem_unmap(ze_context_handle_t handle, const void *ptr, size_t size) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (ptr == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Context &context = *Context::from(handle);
  VirtualMemory &vm = context.virtual_memory();
  std::lock_guard lock(vm.mutex);
  std::string why;
  if (!within_reservation(vm, ptr, size, why))
    return refuse("zeVirtualMemUnmap", ZE_RESULT_ERROR_INVALID_ARGUMENT, why);
  std::vector<uintptr_t> starts;
  if (!mappings_inside(vm, uintptr_t(ptr), uintptr_t(ptr) + size, starts))
    return refuse("zeVirtualMemUnmap", ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  fmt::format("[{}, +{}) cuts through a mapping: CUDA unmaps whole mappings", ptr, size));
  const Device &device = first_device(context);
  device.make_current();
  for (uintptr_t start : starts) {
    if (ze_result_t r = checked(device.api().cuMemUnmap(start, vm.mapped[start].size), "cuMemUnmap");
        r != ZE_RESULT_SUCCESS)
      return r;
    vm.mapped.erase(start);
  }
  vm.unmapped_access.erase(vm.unmapped_access.lower_bound(uintptr_t(ptr)),
                           vm.unmapped_access.lower_bound(uintptr_t(ptr) + size));
  return ZE_RESULT_SUCCESS;
}

// Mapped memory takes the access at once (cuMemSetAccess); a reserved part with nothing mapped keeps it as its
// attribute until something is mapped there (zeVirtualMemMap gives its own).
ze_result_t virtual_mem_set_access_attribute(ze_context_handle_t handle, const void *ptr, size_t size,
                                             ze_memory_access_attribute_t access) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (ptr == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (access > ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  Context &context = *Context::from(handle);
  VirtualMemory &vm = context.virtual_memory();
  std::lock_guard lock(vm.mutex);
  std::string why;
  if (size == 0 || !within_reservation(vm, ptr, size, why))
    return refuse("zeVirtualMemSetAccessAttribute", ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  why.empty() ? std::string("the size is 0") : why);
  const uintptr_t at = uintptr_t(ptr), end = at + size;
  std::vector<uintptr_t> starts;
  if (!mappings_inside(vm, at, end, starts))
    return refuse("zeVirtualMemSetAccessAttribute", ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  fmt::format("[{}, +{}) cuts through a mapping: CUDA sets the access of whole mappings", ptr, size));
  for (uintptr_t start : starts) {
    VirtualMemory::Mapped &m = vm.mapped[start];
    if (ze_result_t r = open_to_devices(context, start, m.size, access); r != ZE_RESULT_SUCCESS) return r;
    m.access = access;
  }
  // The gaps between the mappings keep the attribute.
  vm.unmapped_access.erase(vm.unmapped_access.lower_bound(at), vm.unmapped_access.lower_bound(end));
  uintptr_t gap = at;
  for (uintptr_t start : starts) {
    if (start > gap) vm.unmapped_access[gap] = {start - gap, access};
    gap = start + vm.mapped[start].size;
  }
  if (end > gap) vm.unmapped_access[gap] = {end - gap, access};
  return ZE_RESULT_SUCCESS;
}

// The entry of `ranges` holding `at`, or end().
std::map<uintptr_t, VirtualMemory::Mapped>::iterator holding(std::map<uintptr_t, VirtualMemory::Mapped> &ranges,
                                                              uintptr_t at) {
  auto it = ranges.upper_bound(at);
  if (it == ranges.begin() || std::prev(it)->first + std::prev(it)->second.size <= at) return ranges.end();
  return std::prev(it);
}

ze_result_t virtual_mem_get_access_attribute(ze_context_handle_t handle, const void *ptr, size_t size,
                                             ze_memory_access_attribute_t *access, size_t *out_size) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (ptr == nullptr || access == nullptr || out_size == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  VirtualMemory &vm = Context::from(handle)->virtual_memory();
  std::lock_guard lock(vm.mutex);
  std::string why;
  if (!within_reservation(vm, ptr, size, why))
    return refuse("zeVirtualMemGetAccessAttribute", ZE_RESULT_ERROR_INVALID_ARGUMENT, why);
  // The access at `ptr`, and how far from it the same access goes within [ptr, ptr + size).
  const uintptr_t at = uintptr_t(ptr), end = at + size;
  auto access_at = [&](uintptr_t where, uintptr_t &next) {
    for (auto *ranges : {&vm.mapped, &vm.unmapped_access})
      if (auto it = holding(*ranges, where); it != ranges->end()) {
        next = it->first + it->second.size;
        return it->second.access;
      }
    auto a = vm.mapped.upper_bound(where), b = vm.unmapped_access.upper_bound(where);
    next = std::min(a == vm.mapped.end() ? end : a->first, b == vm.unmapped_access.end() ? end : b->first);
    return ZE_MEMORY_ACCESS_ATTRIBUTE_NONE;
  };
  uintptr_t reach = at;
  *access = access_at(at, reach);
  for (uintptr_t next = reach; reach < end && access_at(reach, next) == *access && next > reach;) reach = next;
  *out_size = std::min(end, reach) - at;
  return ZE_RESULT_SUCCESS;
}

} // namespace

void VirtualMemory::release(const Driver &driver) {
  std::lock_guard lock(mutex);
  const Device &device = *driver.devices().front();
  device.make_current();
  for (auto &[at, m] : mapped) device.api().cuMemUnmap(at, m.size);
  for (PhysicalMemory *p : physical) {
    device.api().cuMemRelease(p->handle());
    delete p;
  }
  for (auto &[at, size] : reserved) device.api().cuMemAddressFree(at, size);
  mapped.clear(), physical.clear(), reserved.clear();
}

void implement(ze_virtual_mem_dditable_t &t) {
  t.pfnReserve = guarded<virtual_mem_reserve>;
  t.pfnFree = guarded<virtual_mem_free>;
  t.pfnQueryPageSize = guarded<virtual_mem_query_page_size>;
  t.pfnMap = guarded<virtual_mem_map>;
  t.pfnUnmap = guarded<virtual_mem_unmap>;
  t.pfnSetAccessAttribute = guarded<virtual_mem_set_access_attribute>;
  t.pfnGetAccessAttribute = guarded<virtual_mem_get_access_attribute>;
}

void implement(ze_physical_mem_dditable_t &t) {
  t.pfnCreate = guarded<physical_mem_create>;
  t.pfnDestroy = guarded<physical_mem_destroy>;
}

} // namespace zeal::cuda
