// USM allocations (all of them host memory) and the zeMem* entry points.
#include "cpu_driver/runtime/memory.hpp"

#include "common/log.hpp"
#include "cpu_driver/runtime/context.hpp"
#include "cpu_driver/runtime/ddi.hpp"
#include "cpu_driver/runtime/driver.hpp"
#include "ze_driver/shared_file.hpp"

#include <atomic>
#include <cstring>
#include <fcntl.h>
#include <cstdint>
#include <mutex>
#include <new>
#include <sys/mman.h>
#include <unistd.h>

namespace zeal::cpu {
namespace {

std::atomic<uint64_t> next_allocation_id{1};

size_t round_up(size_t size, size_t granule) {
  return size <= SIZE_MAX - (granule - 1) ? (size + granule - 1) / granule * granule : size;
}

// `size` bytes of fresh pages aligned to `alignment` (a power of two), or null: mapped with room to align, and
// the rest unmapped again.
void *map_fresh_pages(size_t size, size_t alignment) {
  const size_t length = ze::whole_pages(size), slack = alignment > ze::system_page_size() ? alignment : 0;
  void *p = mmap(nullptr, length + slack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  const uintptr_t start = reinterpret_cast<uintptr_t>(p), aligned = (start + alignment - 1) & ~(alignment - 1);
  if (aligned > start) munmap(p, aligned - start);
  if (start + length + slack > aligned + length)
    munmap(reinterpret_cast<void *>(aligned + length), start + length + slack - (aligned + length));
  return reinterpret_cast<void *>(aligned);
}

} // namespace

// Room for every device allocation of the context: twice the machine's memory (device allocations may be made
// and not touched, as on a GPU they may be made and not used), at least 4 GiB. Address space only, until touched.
Allocations::Allocations(uint64_t host_memory_bytes)
    : device_heap_(std::max(size_t(host_memory_bytes) * 2, size_t(4) << 30)) {}

void Allocations::release(const Allocation &a) {
  switch (a.backing) {
  case Allocation::Backing::heap:
    // Aligned operator delete must see the alignment the block was made with.
    ::operator delete(reinterpret_cast<void *>(a.base), std::align_val_t{a.alignment});
    break;
  case Allocation::Backing::device_heap:
    if (!a.shared) device_heap_.release(reinterpret_cast<void *>(a.base), a.size);
    a.device->give_back_memory(a.size);
    break;
  case Allocation::Backing::mapped_file:
  case Allocation::Backing::anonymous:
    munmap(reinterpret_cast<void *>(a.base), ze::whole_pages(a.size));
    break;
  case Allocation::Backing::own_file:
    munmap(reinterpret_cast<void *>(a.base), ze::whole_pages(a.size));
    close(a.fd);
    a.device->give_back_memory(a.size);
    break;
  }
}

Allocations::~Allocations() {
  // The device heap's ranges go with the heap, uncleared, for any other process that mapped them.
  for (auto &[base, allocation] : by_base_) {
    if (allocation.backing != Allocation::Backing::device_heap) {
      release(allocation);
    } else {
      allocation.device->give_back_memory(allocation.size);
    }
  }
}

ze_result_t Allocations::allocate(size_t size, size_t alignment, ze_memory_type_t type, Device *device,
                                  void **out) {
  // Never below the default: kernels may use aligned vector loads on any buffer.
  size_t align = std::max(alignment, default_alignment);
  Allocation a{0, size, align, type, device, next_allocation_id.fetch_add(1)};
  if (type == ZE_MEMORY_TYPE_DEVICE) {
    // Whole pages of the context's memory file, which another process can map.
    std::string why;
    if (!device->take_memory(size, why)) {
      zeal::logger("zeal-cpu").warn("zeMemAllocDevice: {}", why);
      return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    }
    void *p = device_heap_.allocate(size, align, why);
    if (p == nullptr) {
      device->give_back_memory(size);
      zeal::logger("zeal-cpu").warn("zeMemAllocDevice: {}", why);
      return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    }
    a.base = reinterpret_cast<uintptr_t>(p);
    a.backing = Allocation::Backing::device_heap;
  } else {
    // A whole number of pages, as a GPU driver's allocations are: a kernel writing a little past the size it
    // asked for (level-zero-tests' launch and event tests write 1 KiB into 64 bytes, 4000 bytes into 1000) then
    // writes into its own block, as it would on a GPU, instead of into the host's heap, whose corruption would
    // end the process later and elsewhere. Lookups still see the size asked for.
    // Every allocation starts as zeros, as fresh GPU memory does (level-zero-tests' concurrent-atomics cases count
    // on it): large ones are fresh pages, small ones are cleared.
    if (size >= fresh_pages_from) {
      void *p = map_fresh_pages(size, align);
      if (p == nullptr) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
      a.base = reinterpret_cast<uintptr_t>(p);
      a.backing = Allocation::Backing::anonymous;
    } else {
      const size_t block = round_up(size, allocation_granule);
      void *p = ::operator new(block, std::align_val_t{align}, std::nothrow);
      if (p == nullptr) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
      std::memset(p, 0, block);
      a.base = reinterpret_cast<uintptr_t>(p);
    }
  }
  try {
    std::unique_lock lock(mutex_);
    by_base_.emplace(a.base, a);
  } catch (const std::bad_alloc &) {
    release(a); // not recorded, so not kept either
    zeal::logger("zeal-cpu").warn("zeMemAlloc: no host memory left to record an allocation of {} bytes", size);
    return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  }
  *out = reinterpret_cast<void *>(a.base);
  return ZE_RESULT_SUCCESS;
}

ze_result_t Allocations::allocate_exportable(size_t size, Device *device, void **out, std::string &why) {
  if (!device->take_memory(size, why)) return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  int fd = -1;
  void *p = ze::map_new_memory_file("zeal-exported-memory", ze::whole_pages(size), 0, fd, why);
  if (p == nullptr) {
    device->give_back_memory(size);
    return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  Allocation a{reinterpret_cast<uintptr_t>(p), size, ze::system_page_size(), ZE_MEMORY_TYPE_DEVICE, device,
               next_allocation_id.fetch_add(1)};
  a.backing = Allocation::Backing::own_file;
  a.fd = fd;
  {
    std::unique_lock lock(mutex_);
    by_base_.emplace(a.base, a);
  }
  *out = p;
  return ZE_RESULT_SUCCESS;
}

int Allocations::export_fd(const void *ptr) const {
  std::shared_lock lock(mutex_);
  auto it = by_base_.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == by_base_.end() || it->second.backing != Allocation::Backing::own_file) return -1;
  return fcntl(it->second.fd, F_DUPFD_CLOEXEC, 0);
}

void Allocations::adopt_mapped(void *base, size_t size, Device *device) {
  Allocation a{reinterpret_cast<uintptr_t>(base), size, ze::system_page_size(), ZE_MEMORY_TYPE_DEVICE, device,
               next_allocation_id.fetch_add(1)};
  a.backing = Allocation::Backing::mapped_file;
  std::unique_lock lock(mutex_);
  by_base_.emplace(a.base, a);
}

ze_result_t Allocations::close_mapped(void *ptr) {
  Allocation a;
  {
    std::unique_lock lock(mutex_);
    auto it = by_base_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == by_base_.end() || it->second.backing != Allocation::Backing::mapped_file)
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    a = it->second;
    by_base_.erase(it);
  }
  release(a);
  return ZE_RESULT_SUCCESS;
}

Allocations::Sharing Allocations::share(const void *ptr) {
  const auto address = reinterpret_cast<uintptr_t>(ptr);
  Sharing result;
  std::unique_lock lock(mutex_);
  auto it = by_base_.upper_bound(address);
  if (it == by_base_.begin()) return result;
  --it;
  Allocation &a = it->second;
  if (address >= a.base + a.size) return result;
  result.found = true;
  if (a.base != address) result.refusal = "is inside an allocation, not its start";
  else if (a.backing == Allocation::Backing::mapped_file)
    result.refusal = "was opened from another process's handle; that process exports it";
  else if (a.backing != Allocation::Backing::device_heap) result.refusal = "is not a device allocation (zeMemAllocDevice)";
  else a.shared = true;
  result.allocation = a;
  return result;
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

// Memory files are what this driver shares: exported and imported as opaque descriptors. A memory file is not a
// dma-buf (no DMA_BUF_IOCTL_SYNC, no importer's ioctls), so that type is not claimed.
constexpr ze_external_memory_type_flags_t shared_memory_types = ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD;

ze_result_t import_device_memory(Context &context, const ze_external_memory_import_fd_t &import, size_t size,
                                 Device *device, void **out) {
  if (import.flags != ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD) {
    zeal::logger("zeal-cpu").warn("zeMemAllocDevice: importing memory of type flags {:#x}: this driver imports "
                                  "opaque file descriptors (ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD) only",
                                  import.flags);
    return ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
  }
  ze::IpcContents contents;
  contents.fd = import.fd;
  contents.size = ze::whole_pages(size);
  std::string why;
  void *p = nullptr;
  if (ze_result_t r = ze::map_ipc_range(contents, &p, why); r != ZE_RESULT_SUCCESS) {
    zeal::logger("zeal-cpu").warn("zeMemAllocDevice: importing descriptor {}: {}", import.fd, why);
    return r;
  }
  context.allocations().adopt_mapped(p, size, device);
  *out = p;
  return ZE_RESULT_SUCCESS;
}

ze_result_t mem_alloc_device(ze_context_handle_t context, const ze_device_mem_alloc_desc_t *desc, size_t size,
                             size_t alignment, ze_device_handle_t device, void **out) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Device *d = Device::from(device);
  if (ze_result_t r = check_alloc(context, size, alignment, d, out); r != ZE_RESULT_SUCCESS) return r;
  Context &c = *Context::from(context);
  if (auto *import = find_in_chain<ze_external_memory_import_fd_t>(desc->pNext,
                                                                   ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD))
    return import_device_memory(c, *import, size, d, out);
  if (auto *exported = find_in_chain<ze_external_memory_export_desc_t>(desc->pNext,
                                                                       ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC)) {
    if ((exported->flags & ~shared_memory_types) != 0) {
      zeal::logger("zeal-cpu").warn("zeMemAllocDevice: exporting memory of type flags {:#x}: this driver exports "
                                    "opaque file descriptors (ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD) only",
                                    exported->flags);
      return ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    }
    std::string why;
    ze_result_t r = c.allocations().allocate_exportable(size, d, out, why);
    if (r != ZE_RESULT_SUCCESS) zeal::logger("zeal-cpu").warn("zeMemAllocDevice: {}", why);
    return r;
  }
  return c.allocations().allocate(size, alignment, ZE_MEMORY_TYPE_DEVICE, d, out);
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

// ZE_extension_memory_free_policies. Both policies wait, before freeing, for every command submitted so far to
// the context's queues and immediate lists (this driver does not track which commands use which memory): a
// blocking free returns once it is freed; a deferred one is carried out the same way, so that the memory is
// never freed under a command that still uses it and is never left behind.
ze_result_t mem_free_ext(ze_context_handle_t context, const ze_memory_free_ext_desc_t *desc, void *ptr) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || ptr == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  constexpr uint32_t known =
      ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE | ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE;
  if ((desc->freePolicy & ~known) != 0) {
    zeal::logger("zeal-cpu").warn("zeMemFreeExt: free policy {:#x} has flags the extension does not define",
                                  uint32_t(desc->freePolicy));
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  }
  // Refused before any wait, by zeMemFree's rule: the pointer an allocation returned, not one inside it.
  Context *c = Context::from(context);
  Allocation a;
  if (!c->allocations().find(ptr, a) || a.base != reinterpret_cast<uintptr_t>(ptr)) {
    zeal::logger("zeal-cpu").warn("zeMemFreeExt: {} is not an allocation of this context", ptr);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  if (desc->freePolicy != 0) c->finish_submitted();
  ze_result_t r = c->allocations().free(ptr);
  if (r != ZE_RESULT_SUCCESS) // freed by another thread meanwhile
    zeal::logger("zeal-cpu").warn("zeMemFreeExt: {} is not an allocation of this context", ptr);
  return r;
}

ze_result_t mem_get_alloc_properties(ze_context_handle_t context, const void *ptr,
                                     ze_memory_allocation_properties_t *out, ze_device_handle_t *device) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (ptr == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Allocation a;
  bool known = Context::from(context)->allocations().find(ptr, a);
  if (auto *export_fd = const_cast<ze_external_memory_export_fd_t *>(find_in_chain<ze_external_memory_export_fd_t>(
          out->pNext, ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD))) {
    // A new descriptor each time, which the caller owns.
    if (export_fd->flags != ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD) {
      zeal::logger("zeal-cpu").warn("zeMemGetAllocProperties: exporting as type flags {:#x}: this driver exports "
                                    "opaque file descriptors (ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD) only",
                                    export_fd->flags);
      return ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    }
    int fd = known && a.base == reinterpret_cast<uintptr_t>(ptr) ? Context::from(context)->allocations().export_fd(ptr)
                                                                 : -1;
    if (fd < 0) {
      zeal::logger("zeal-cpu").warn("zeMemGetAllocProperties: {} was not allocated for export (chain a "
                                    "ze_external_memory_export_desc_t to its zeMemAllocDevice)",
                                    ptr);
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    export_fd->fd = fd;
  }
  out->type = known ? a.type : ZE_MEMORY_TYPE_UNKNOWN;
  out->id = known ? a.id : 0;
  out->pageSize = !known ? 0
                 : a.backing == Allocation::Backing::heap ? Allocations::default_alignment
                                                          : ze::system_page_size();
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

ze_result_t mem_get_ipc_handle(ze_context_handle_t context, const void *ptr, ze_ipc_mem_handle_t *handle) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (ptr == nullptr || handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Context *c = Context::from(context);
  ze::IpcContents contents;
  PhysicalMemory *physical = nullptr;
  size_t offset = 0, length = 0;
  if (Allocations::Sharing shared = c->allocations().share(ptr); shared.found) {
    if (shared.refusal != nullptr) {
      zeal::logger("zeal-cpu").warn("zeMemGetIpcHandle: {} {}", ptr, shared.refusal);
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    DeviceHeap &heap = c->allocations().device_heap();
    contents.fd = heap.fd();
    contents.offset = heap.offset_of(ptr);
    contents.size = ze::whole_pages(shared.allocation.size);
  } else if (c->virtual_memory().mapped_at(ptr, physical, offset, length)) {
    // Reserved addresses with physical memory mapped: that memory's file, from ptr's page on.
    if (reinterpret_cast<uintptr_t>(ptr) % VirtualMemory::page_size() != 0) {
      zeal::logger("zeal-cpu").warn("zeMemGetIpcHandle: {} is not at the start of a mapped page", ptr);
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    contents.fd = physical->fd();
    contents.offset = offset;
    contents.size = length;
  } else {
    zeal::logger("zeal-cpu").warn("zeMemGetIpcHandle: {} is not device memory of this context", ptr);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  contents.kind = ze::IpcContents::Kind::memory;
  ze::encode_ipc(contents, handle->data);
  return ZE_RESULT_SUCCESS;
}

ze_result_t mem_open_ipc_handle(ze_context_handle_t context, ze_device_handle_t device, ze_ipc_mem_handle_t handle,
                                ze_ipc_memory_flags_t flags, void **out) {
  if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (flags > (ZE_IPC_MEMORY_FLAG_BIAS_CACHED | ZE_IPC_MEMORY_FLAG_BIAS_UNCACHED))
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  std::string why;
  ze::IpcContents contents;
  if (!ze::decode_ipc(handle.data, ze::IpcContents::Kind::memory, contents, why)) {
    zeal::logger("zeal-cpu").warn("zeMemOpenIpcHandle: {}", why);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  // Each open maps anew: the spec gives each call its own pointer. The caching bias has no meaning on a CPU.
  void *p = nullptr;
  if (ze_result_t r = ze::map_ipc_range(contents, &p, why); r != ZE_RESULT_SUCCESS) {
    zeal::logger("zeal-cpu").warn("zeMemOpenIpcHandle: {}", why);
    return r;
  }
  Context::from(context)->allocations().adopt_mapped(p, contents.size, Device::from(device));
  *out = p;
  return ZE_RESULT_SUCCESS;
}

ze_result_t mem_close_ipc_handle(ze_context_handle_t context, const void *ptr) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (ptr == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  ze_result_t r = Context::from(context)->allocations().close_mapped(const_cast<void *>(ptr));
  if (r != ZE_RESULT_SUCCESS)
    zeal::logger("zeal-cpu").warn("zeMemCloseIpcHandle: {} was not opened with zeMemOpenIpcHandle in this context",
                                  ptr);
  return r;
}

} // namespace

void implement(ze_mem_dditable_t &t) {
  t.pfnGetIpcHandle = guarded<mem_get_ipc_handle>;
  t.pfnOpenIpcHandle = guarded<mem_open_ipc_handle>;
  t.pfnCloseIpcHandle = guarded<mem_close_ipc_handle>;
  t.pfnAllocHost = guarded<mem_alloc_host>;
  t.pfnAllocDevice = guarded<mem_alloc_device>;
  t.pfnAllocShared = guarded<mem_alloc_shared>;
  t.pfnFree = guarded<mem_free>;
  t.pfnFreeExt = guarded<mem_free_ext>;
  t.pfnGetAllocProperties = guarded<mem_get_alloc_properties>;
  t.pfnGetAddressRange = guarded<mem_get_address_range>;
}

} // namespace zeal::cpu
