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
  // A context over a Level Zero context made elsewhere (a native handle) for `devices` (one platform, not
  // empty). `owned`: the context destroys it when it goes; otherwise its maker does.
  static Result<Context *> adopt(std::vector<Device *> devices, ze_context_handle_t context, bool owned);
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
  // An allocation made in this Level Zero context elsewhere (a native handle), from `ptr` to its end: with
  // `take`, the context records it as its own (freed by usm_free, or with the context); without, it is only
  // measured.
  Result<UsmAllocation> foreign_allocation(void *ptr, bool take);

  // Queues register while they live, so that freeing memory can wait for their commands.
  void add_queue(Queue *queue);
  void remove_queue(Queue *queue);

private:
  Context(std::vector<Device *> devices, ZeContext context);

  std::vector<Device *> devices_;
  ZeContext context_;
  bool owns_context_ = true;
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
