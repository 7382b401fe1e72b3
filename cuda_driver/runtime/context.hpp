// A Level Zero context on the CUDA driver: the devices' primary CUDA contexts, and the USM allocations made in it.
#pragma once

#include "cuda_driver/runtime/driver.hpp"

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>

namespace zeal::cuda {

struct Allocation {
  uintptr_t base = 0;     // what CUDA returned (an over-aligned allocation starts later)
  uintptr_t start = 0;    // what the caller got
  size_t size = 0;        // bytes the caller asked for
  ze_memory_type_t type = ZE_MEMORY_TYPE_UNKNOWN;
  Device *device = nullptr; // null for host memory
  bool opened_ipc = false;  // another process's device memory (zeMemOpenIpcHandle): closed, not freed
};

class PhysicalMemory;

// What a context holds of virtual memory (virtual_memory.cpp): reserved ranges, mappings and physical memory; the
// entry points hold `mutex` while they read or change it.
struct VirtualMemory {
  struct Mapped {
    size_t size = 0;
    ze_memory_access_attribute_t access = ZE_MEMORY_ACCESS_ATTRIBUTE_NONE;
  };
  std::mutex mutex;
  std::map<uintptr_t, size_t> reserved; // by start
  std::map<uintptr_t, Mapped> mapped;   // by start
  std::map<uintptr_t, Mapped> unmapped_access; // access set on reserved parts with nothing mapped, by start
  std::set<PhysicalMemory *> physical;
  // Unmaps, releases and frees what the application left (the context goes).
  void release(const Driver &driver);
};

class Context : public _ze_context_handle_t {
public:
  explicit Context(Driver &driver) : driver_(driver) {}
  ~Context();
  static Context *from(ze_context_handle_t h) { return static_cast<Context *>(h); }
  Driver &driver() const { return driver_; }

  void add(const Allocation &allocation);
  // The allocation `pointer` lies in, if it was made in this context.
  std::optional<Allocation> find(const void *pointer) const;
  // Takes the allocation that starts at `pointer` out of the context.
  std::optional<Allocation> take(const void *pointer);
  VirtualMemory &virtual_memory() { return virtual_memory_; }

private:
  Driver &driver_;
  mutable std::mutex mutex_;
  std::map<uintptr_t, Allocation> allocations_; // by start
  VirtualMemory virtual_memory_;
};

// Gives the memory back to CUDA.
void release(const Driver &driver, const Allocation &allocation);

} // namespace zeal::cuda
