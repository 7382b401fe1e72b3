// zeVirtualMem* and zePhysicalMem* on the CPU (virtual_memory.hpp): reservations are PROT_NONE anonymous mappings,
// physical memory is a memory file, a mapping is that file mapped over the reservation with the access asked for,
// and an unmapping puts the reservation back.
#include "cpu_driver/runtime/virtual_memory.hpp"

#include "common/log.hpp"
#include "cpu_driver/runtime/context.hpp"
#include "cpu_driver/runtime/ddi.hpp"
#include "cpu_driver/runtime/driver.hpp"
#include "ze_driver/shared_file.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace zeal::cpu {
namespace {

int protection(ze_memory_access_attribute_t access) {
  switch (access) {
  case ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE: return PROT_READ | PROT_WRITE;
  case ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY: return PROT_READ;
  default: return PROT_NONE;
  }
}

// An address range nothing can touch, over [address, address + size) or anywhere (address null).
void *reserve_pages(void *address, size_t size, int extra_flags) {
  return mmap(address, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | extra_flags, -1, 0);
}

uintptr_t address_of(const void *p) { return reinterpret_cast<uintptr_t>(p); }
void *pointer_to(uintptr_t a) { return reinterpret_cast<void *>(a); }

} // namespace

PhysicalMemory::~PhysicalMemory() { close(fd_); }

size_t VirtualMemory::page_size() { return ze::system_page_size(); }

VirtualMemory::~VirtualMemory() {
  for (const auto &[start, span] : spans_) munmap(pointer_to(start), span.size);
}

ze_result_t VirtualMemory::check_range(const char *what, const void *ptr, size_t size, std::string &why) const {
  if (ptr == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (address_of(ptr) % page_size() != 0) {
    why = fmt::format("{} at {} is not aligned to the page size ({} bytes, zeVirtualMemQueryPageSize)", what, ptr,
                      page_size());
    return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
  }
  if (size == 0 || size % page_size() != 0) {
    why = fmt::format("{} of {} bytes at {} is not a whole number of pages ({} bytes each)", what, size, ptr,
                      page_size());
    return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  }
  if (address_of(ptr) + size < address_of(ptr)) {
    why = fmt::format("{} of {} bytes at {} runs past the end of the address space", what, size, ptr);
    return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  }
  return ZE_RESULT_SUCCESS;
}

void VirtualMemory::split_at(uintptr_t address) {
  auto it = spans_.upper_bound(address);
  if (it == spans_.begin()) return;
  --it;
  const uintptr_t start = it->first;
  Span &span = it->second;
  if (address <= start || address >= start + span.size) return;
  Span tail = span;
  tail.size = start + span.size - address;
  if (tail.memory != nullptr) tail.offset += address - start;
  span.size = address - start;
  spans_.emplace(address, tail);
}

bool VirtualMemory::cover(const void *ptr, size_t size, Spans::iterator &first, Spans::iterator &last,
                          std::string &why) {
  const uintptr_t start = address_of(ptr), end = start + size;
  // Check before splitting, so that a refused call leaves the spans as they were.
  bool reserved = true;
  auto it = spans_.upper_bound(start);
  if (it == spans_.begin()) reserved = false;
  else --it;
  for (uintptr_t at = start; reserved && at < end; ++it) {
    if (it == spans_.end() || it->first > at || it->first + it->second.size <= at) reserved = false;
    else at = it->first + it->second.size;
  }
  if (!reserved) {
    why = fmt::format("{} bytes at {} are not all reserved by zeVirtualMemReserve in this context", size, ptr);
    return false;
  }
  split_at(start);
  split_at(end);
  first = spans_.find(start);
  last = spans_.lower_bound(end);
  return true;
}

// Joins neighbouring spans in the same state, so that a long life of maps and unmaps keeps the map small.
void VirtualMemory::merge_around(uintptr_t start, uintptr_t end) {
  auto it = spans_.upper_bound(start);
  if (it != spans_.begin()) --it;
  if (it != spans_.begin()) --it;
  while (it != spans_.end() && it->first <= end) {
    auto next = std::next(it);
    if (next == spans_.end()) break;
    Span &span = it->second;
    const Span &other = next->second;
    if (it->first + span.size == next->first && span.access == other.access && span.memory == other.memory &&
        span.memory == nullptr) {
      span.size += other.size;
      spans_.erase(next);
    } else {
      it = next;
    }
  }
}

ze_result_t VirtualMemory::reserve(const void *hint, size_t size, void **out, std::string &why) {
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (size == 0 || size % page_size() != 0) {
    why = fmt::format("a reservation of {} bytes is not a whole number of pages ({} bytes each)", size, page_size());
    return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  }
  std::lock_guard lock(mutex_);
  void *p = MAP_FAILED;
  // The start is a hint: taken when it is page-aligned and nothing is there, else the range goes anywhere.
  if (hint != nullptr && address_of(hint) % page_size() == 0)
    p = reserve_pages(const_cast<void *>(hint), size, MAP_FIXED_NOREPLACE);
  if (p != MAP_FAILED && hint != nullptr && p != hint) { // a kernel without MAP_FIXED_NOREPLACE took it as a hint
    munmap(p, size);
    p = MAP_FAILED;
  }
  if (p == MAP_FAILED) p = reserve_pages(nullptr, size, 0);
  if (p == MAP_FAILED) {
    why = fmt::format("no range of {} bytes could be reserved: {}", size, std::strerror(errno));
    return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  }
  spans_.emplace(address_of(p), Span{size});
  *out = p;
  return ZE_RESULT_SUCCESS;
}

ze_result_t VirtualMemory::open_range(const char *what, const void *ptr, size_t size, OpenRange &range,
                                      std::string &why) {
  if (ze_result_t r = check_range(what, ptr, size, why); r != ZE_RESULT_SUCCESS) return r;
  range.lock = std::unique_lock(mutex_);
  if (!cover(ptr, size, range.first, range.last, why)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  return ZE_RESULT_SUCCESS;
}

ze_result_t VirtualMemory::free(const void *ptr, size_t size, std::string &why) {
  OpenRange range;
  if (ze_result_t r = open_range("the range to free", ptr, size, range, why); r != ZE_RESULT_SUCCESS) return r;
  munmap(const_cast<void *>(ptr), size); // mappings in the range go with it, as the spec says
  spans_.erase(range.first, range.last);
  return ZE_RESULT_SUCCESS;
}

ze_result_t VirtualMemory::map(const void *ptr, size_t size, PhysicalMemory &memory, size_t offset,
                               ze_memory_access_attribute_t access, std::string &why) {
  OpenRange range;
  if (ze_result_t r = open_range("the range to map", ptr, size, range, why); r != ZE_RESULT_SUCCESS) return r;
  // From here on a refusal joins the spans split for the range again.
  auto refuse = [&](ze_result_t result) {
    merge_around(address_of(ptr), address_of(ptr) + size);
    return result;
  };
  if (access > ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY) return refuse(ZE_RESULT_ERROR_INVALID_ENUMERATION);
  if (offset % page_size() != 0) {
    why = fmt::format("the offset {} into the physical memory is not aligned to the page size ({} bytes)", offset,
                      page_size());
    return refuse(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
  }
  if (offset > memory.size() || size > memory.size() - offset) {
    why = fmt::format("{} bytes from offset {} run past the end of the physical memory's {} bytes", size, offset,
                      memory.size());
    return refuse(ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  }
  if (!physical_.contains(&memory)) {
    why = "the physical memory is not one of this context's (destroyed, or made in another context)";
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT);
  }
  for (auto it = range.first; it != range.last; ++it) {
    if (it->second.memory != nullptr) {
      why = fmt::format("{} bytes at {} are already mapped (at {}): unmap them first", size, ptr, pointer_to(it->first));
      return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
  }
  void *p = mmap(const_cast<void *>(ptr), size, protection(access), MAP_SHARED | MAP_FIXED, memory.fd(), off_t(offset));
  if (p == MAP_FAILED) {
    why = fmt::format("{} bytes at {} could not be mapped: {}", size, ptr, std::strerror(errno));
    return refuse(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
  }
  spans_.erase(range.first, range.last);
  spans_.emplace(address_of(ptr), Span{size, access, &memory, offset});
  return ZE_RESULT_SUCCESS;
}

ze_result_t VirtualMemory::unmap(const void *ptr, size_t size, std::string &why) {
  OpenRange range;
  if (ze_result_t r = open_range("the range to unmap", ptr, size, range, why); r != ZE_RESULT_SUCCESS) return r;
  // Unmapping pages that are not mapped leaves them reserved, as they were.
  if (reserve_pages(const_cast<void *>(ptr), size, MAP_FIXED) == MAP_FAILED) {
    why = fmt::format("{} bytes at {} could not be unmapped: {}", size, ptr, std::strerror(errno));
    merge_around(address_of(ptr), address_of(ptr) + size);
    return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  }
  spans_.erase(range.first, range.last);
  spans_.emplace(address_of(ptr), Span{size}); // the access reverts to none
  merge_around(address_of(ptr), address_of(ptr) + size);
  return ZE_RESULT_SUCCESS;
}

ze_result_t VirtualMemory::set_access(const void *ptr, size_t size, ze_memory_access_attribute_t access,
                                      std::string &why) {
  OpenRange range;
  if (ze_result_t r = open_range("the range", ptr, size, range, why); r != ZE_RESULT_SUCCESS) return r;
  if (access > ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY) {
    merge_around(address_of(ptr), address_of(ptr) + size);
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  }
  for (auto it = range.first; it != range.last; ++it) {
    Span &span = it->second;
    // Reserved pages stay inaccessible until mapped; the attribute is kept for the record.
    if (span.memory != nullptr && mprotect(pointer_to(it->first), span.size, protection(access)) != 0) {
      why = fmt::format("the access of {} bytes at {} could not be changed: {}", span.size, pointer_to(it->first),
                        std::strerror(errno));
      merge_around(address_of(ptr), address_of(ptr) + size);
      return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    span.access = access;
  }
  merge_around(address_of(ptr), address_of(ptr) + size);
  return ZE_RESULT_SUCCESS;
}

bool VirtualMemory::mapped_at(const void *ptr, PhysicalMemory *&memory, size_t &offset, size_t &length) const {
  const uintptr_t at = address_of(ptr) / page_size() * page_size();
  std::lock_guard lock(mutex_);
  auto it = spans_.upper_bound(at);
  if (it == spans_.begin()) return false;
  --it;
  if (it->second.memory == nullptr || at >= it->first + it->second.size) return false;
  memory = it->second.memory;
  offset = it->second.offset + (at - it->first);
  length = it->first + it->second.size - at;
  // Later spans may continue the same memory at the next offsets (split by an access change).
  for (auto next = std::next(it); next != spans_.end() && next->first == it->first + it->second.size &&
                                  next->second.memory == memory &&
                                  next->second.offset == it->second.offset + it->second.size;
       it = next++)
    length += next->second.size;
  return true;
}

ze_result_t VirtualMemory::get_access(const void *ptr, size_t size, ze_memory_access_attribute_t &access,
                                      size_t &same, std::string &why) const {
  if (ze_result_t r = check_range("the range", ptr, size, why); r != ZE_RESULT_SUCCESS) return r;
  std::lock_guard lock(mutex_);
  const uintptr_t start = address_of(ptr);
  auto it = spans_.upper_bound(start);
  if (it == spans_.begin() || std::prev(it)->first + std::prev(it)->second.size <= start) {
    why = fmt::format("{} is not in a range reserved by zeVirtualMemReserve in this context", ptr);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  --it;
  access = it->second.access;
  uintptr_t at = start;
  for (; it != spans_.end() && it->first <= at && it->second.access == access; ++it)
    at = it->first + it->second.size;
  same = std::min(size, size_t(at - start));
  return ZE_RESULT_SUCCESS;
}

ze_result_t VirtualMemory::create_physical(Device *device, size_t size, PhysicalMemory **out, std::string &why) {
  if (size == 0 || size % page_size() != 0) {
    why = fmt::format("physical memory of {} bytes is not a whole number of pages ({} bytes each)", size, page_size());
    return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  }
  int fd = memfd_create("zeal-physical-memory", MFD_CLOEXEC);
  if (fd < 0) {
    why = fmt::format("no memory file for {} bytes of physical memory: {}", size, std::strerror(errno));
    return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  // The pages are committed now, as a GPU driver's are: touching them later must not fail.
  int failed = posix_fallocate(fd, 0, off_t(size));
  if (failed == EOPNOTSUPP || failed == EINVAL) failed = ftruncate(fd, off_t(size)) == 0 ? 0 : errno;
  if (failed != 0) {
    close(fd);
    why = fmt::format("{} bytes of physical memory could not be committed: {}", size, std::strerror(failed));
    return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  auto memory = std::make_unique<PhysicalMemory>(fd, size, device);
  std::lock_guard lock(mutex_);
  *out = memory.get();
  physical_.emplace(memory.get(), std::move(memory));
  return ZE_RESULT_SUCCESS;
}

ze_result_t VirtualMemory::destroy_physical(PhysicalMemory *memory, std::string &why) {
  std::lock_guard lock(mutex_);
  auto found = physical_.find(memory);
  if (found == physical_.end()) {
    why = "the physical memory is not one of this context's (destroyed, or made in another context)";
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  for (const auto &[start, span] : spans_) {
    if (span.memory == memory) {
      why = fmt::format("the physical memory is still mapped at {}: unmap it first", pointer_to(start));
      return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
    }
  }
  physical_.erase(found);
  return ZE_RESULT_SUCCESS;
}

bool VirtualMemory::owns(const PhysicalMemory *memory) const {
  std::lock_guard lock(mutex_);
  return physical_.contains(memory);
}

namespace {

ze_result_t answer(const char *entry_point, ze_result_t result, const std::string &why) {
  if (result != ZE_RESULT_SUCCESS && !why.empty()) zeal::logger("zeal-cpu").warn("{}: {}", entry_point, why);
  return result;
}

VirtualMemory &of(ze_context_handle_t context) { return Context::from(context)->virtual_memory(); }

// Every size takes the host's page: the driver's memory is the host's.
ze_result_t virtual_mem_query_page_size(ze_context_handle_t context, ze_device_handle_t device, size_t,
                                        size_t *page_size) {
  if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (page_size == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *page_size = VirtualMemory::page_size();
  return ZE_RESULT_SUCCESS;
}

ze_result_t virtual_mem_reserve(ze_context_handle_t context, const void *start, size_t size, void **out) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::string why;
  return answer("zeVirtualMemReserve", of(context).reserve(start, size, out, why), why);
}

ze_result_t virtual_mem_free(ze_context_handle_t context, const void *ptr, size_t size) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::string why;
  return answer("zeVirtualMemFree", of(context).free(ptr, size, why), why);
}

ze_result_t virtual_mem_map(ze_context_handle_t context, const void *ptr, size_t size,
                            ze_physical_mem_handle_t memory, size_t offset, ze_memory_access_attribute_t access) {
  if (context == nullptr || memory == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::string why;
  return answer("zeVirtualMemMap", of(context).map(ptr, size, *PhysicalMemory::from(memory), offset, access, why),
                why);
}

ze_result_t virtual_mem_unmap(ze_context_handle_t context, const void *ptr, size_t size) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::string why;
  return answer("zeVirtualMemUnmap", of(context).unmap(ptr, size, why), why);
}

ze_result_t virtual_mem_set_access_attribute(ze_context_handle_t context, const void *ptr, size_t size,
                                             ze_memory_access_attribute_t access) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::string why;
  return answer("zeVirtualMemSetAccessAttribute", of(context).set_access(ptr, size, access, why), why);
}

ze_result_t virtual_mem_get_access_attribute(ze_context_handle_t context, const void *ptr, size_t size,
                                             ze_memory_access_attribute_t *access, size_t *out_size) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (access == nullptr || out_size == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::string why;
  return answer("zeVirtualMemGetAccessAttribute", of(context).get_access(ptr, size, *access, *out_size, why), why);
}

ze_result_t physical_mem_create(ze_context_handle_t context, ze_device_handle_t device,
                                ze_physical_mem_desc_t *desc, ze_physical_mem_handle_t *out) {
  if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->flags & ~ze_physical_mem_flags_t(ZE_PHYSICAL_MEM_FLAG_TBD)) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  std::string why;
  PhysicalMemory *memory = nullptr;
  ze_result_t r = of(context).create_physical(Device::from(device), desc->size, &memory, why);
  if (r == ZE_RESULT_SUCCESS) *out = memory;
  return answer("zePhysicalMemCreate", r, why);
}

ze_result_t physical_mem_destroy(ze_context_handle_t context, ze_physical_mem_handle_t memory) {
  if (context == nullptr || memory == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::string why;
  return answer("zePhysicalMemDestroy", of(context).destroy_physical(PhysicalMemory::from(memory), why), why);
}

} // namespace

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

} // namespace zeal::cpu
