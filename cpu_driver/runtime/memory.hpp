// The allocations of one context: host memory handed out as host, device or shared USM, and device memory of
// other processes mapped here.
#pragma once

#include "cpu_driver/runtime/device_heap.hpp"

#include <level_zero/ze_api.h>

#include <cstdint>
#include <map>
#include <shared_mutex>
#include <string>

namespace zeal::cpu {

class Device;

struct Allocation {
  uintptr_t base = 0;
  size_t size = 0;            // as asked for; lookups treat [base, base + size) as the allocation, whose block
                              // is rounded up to whole allocation_granules
  size_t alignment = 0;       // of the block, needed to free it
  ze_memory_type_t type = ZE_MEMORY_TYPE_UNKNOWN;
  Device *device = nullptr;   // null for host allocations
  uint64_t id = 0;            // unique within the process
  enum class Backing : uint8_t {
    heap,        // the C++ heap (host and shared USM under fresh_pages_from bytes)
    anonymous,   // pages of an anonymous mapping of its own (host and shared USM of fresh_pages_from bytes or more)
    device_heap, // the context's DeviceHeap (device USM), so it can be handed to other processes
    mapped_file, // a range of another process's memory file (zeMemOpenIpcHandle, an imported descriptor)
    own_file,    // a memory file of its own, whose descriptor is exported (ze_external_memory_export_desc_t)
  } backing = Backing::heap;
  int fd = -1;  // own_file: the memory file
  // device_heap: an IPC handle was made for it. Another process may map its pages for as long as it likes (as a
  // GPU's shared buffer lives while anyone holds it), so freeing it neither clears nor reuses them.
  bool shared = false;
};

class Allocations {
public:
  // `host_memory_bytes`: the machine's memory (HostCpu), which sizes the device heap.
  explicit Allocations(uint64_t host_memory_bytes);
  Allocations(const Allocations &) = delete;
  Allocations &operator=(const Allocations &) = delete;
  ~Allocations(); // frees what the application did not

  // size > 0 and alignment a power of two (0 = default) are checked by the caller.
  ze_result_t allocate(size_t size, size_t alignment, ze_memory_type_t type, Device *device, void **out);
  // A device allocation in a memory file of its own, whose descriptor export_fd() hands out; `why` says what
  // failed.
  ze_result_t allocate_exportable(size_t size, Device *device, void **out, std::string &why);
  // A new descriptor of an exportable allocation's memory file (the caller closes it), or -1.
  int export_fd(const void *ptr) const;
  // Takes `size` bytes at `base`, mapped by the caller from a memory file, as a device allocation; free() or
  // close_mapped() unmaps them.
  void adopt_mapped(void *base, size_t size, Device *device);
  // INVALID_ARGUMENT for a pointer that is not the start of an allocation of this context.
  ze_result_t free(void *ptr);
  // Like free(), but only for an allocation adopt_mapped() took: INVALID_ARGUMENT for any other.
  ze_result_t close_mapped(void *ptr);
  // The allocation holding ptr (interior pointers included), or false.
  bool find(const void *ptr, Allocation &out) const;
  // zeMemGetIpcHandle's look-up: the allocation holding ptr, marked shared with
  // other processes (Allocation::shared) when it can be, under one lock, so a
  // free() on another thread cannot come between the two.
  struct Sharing {
    bool found = false;           // ptr is in an allocation of this context
    const char *refusal = nullptr; // why it cannot be shared, or null when it now is
    Allocation allocation;
  };
  Sharing share(const void *ptr);

  static constexpr size_t default_alignment = 64;
  // Every allocation's block is a multiple of this many bytes (see allocate()).
  static constexpr size_t allocation_granule = 4096;
  // Host and shared allocations of at least this many bytes get fresh pages of their own (zeros, touched only when
  // used, given back at once when freed); smaller ones come from the heap, cleared.
  static constexpr size_t fresh_pages_from = size_t(1) << 20;

  DeviceHeap &device_heap() { return device_heap_; }

private:
  void release(const Allocation &a);

  DeviceHeap device_heap_;
  mutable std::shared_mutex mutex_;
  std::map<uintptr_t, Allocation> by_base_;
};

} // namespace zeal::cpu
