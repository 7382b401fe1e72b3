// The allocations of one context: host memory handed out as host, device or shared USM.
#pragma once

#include <level_zero/ze_api.h>

#include <cstdint>
#include <map>
#include <shared_mutex>

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
};

class Allocations {
public:
  Allocations() = default;
  Allocations(const Allocations &) = delete;
  Allocations &operator=(const Allocations &) = delete;
  ~Allocations(); // frees what the application did not

  // size > 0 and alignment a power of two (0 = default) are checked by the caller.
  ze_result_t allocate(size_t size, size_t alignment, ze_memory_type_t type, Device *device, void **out);
  // INVALID_ARGUMENT for a pointer that is not the start of an allocation of this context.
  ze_result_t free(void *ptr);
  // The allocation holding ptr (interior pointers included), or false.
  bool find(const void *ptr, Allocation &out) const;

  static constexpr size_t default_alignment = 64;
  // Every allocation's block is a multiple of this many bytes (see allocate()).
  static constexpr size_t allocation_granule = 4096;

private:
  mutable std::shared_mutex mutex_;
  std::map<uintptr_t, Allocation> by_base_;
};

} // namespace zeal::cpu
