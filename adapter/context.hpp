// A zeal context: a Level Zero context over some devices of one platform, its USM allocations and event pools.
#pragma once

#include "adapter/event_pool.hpp"
#include "adapter/platform.hpp"

#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace zeal::adapter {

class Queue;

class Context : public Object {
public:
  static constexpr Kind kKind = Kind::Context;

  static Result<Context *> create(std::vector<Device *> devices);
  ~Context() override;

  ze_context_handle_t ze() const { return context_.get(); }
  bool has_device(const Device *device) const;
  const std::vector<Device *> &devices() const { return devices_; }
  EventPools &event_pools(bool profiling) { return profiling ? timestamp_pools_ : plain_pools_; }

  // Checks size, alignment and device, then allocates; device may be null for host memory.
  Result<void *> usm_alloc(Device *device, zeal_usm_kind_t kind, size_t size, size_t alignment);
  // Waits for the commands of the context's queues first: a command may still read or write the memory (UR
  // requires this; Level Zero's zeMemFree leaves it to the caller).
  Status usm_free(void *ptr);

  // The allocation of this context that holds `ptr` (its base or any byte inside).
  struct UsmAllocation {
    void *base;
    size_t size;
    zeal_usm_kind_t kind;
    Device *device; // null for host memory
  };
  std::optional<UsmAllocation> usm_allocation(const void *ptr) const;

  // Queues register while they live, so that freeing memory can wait for their commands.
  void add_queue(Queue *queue);
  void remove_queue(Queue *queue);

private:
  Context(std::vector<Device *> devices, ZeContext context);

  std::vector<Device *> devices_;
  ZeContext context_;
  // Declared after context_, so they are destroyed before it.
  EventPools plain_pools_;
  EventPools timestamp_pools_;

  struct Allocation {
    zeal_usm_kind_t kind;
    size_t size;
    Device *device;
  };
  mutable std::mutex usm_mutex_;
  std::map<void *, Allocation> allocations_;
  std::mutex queues_mutex_;
  std::vector<Queue *> queues_;
};

} // namespace zeal::adapter
