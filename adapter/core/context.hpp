// A zeal context: a Level Zero context over some devices of one platform, its USM allocations and event pools.
#pragma once

#include "adapter/core/event_pool.hpp"
#include "adapter/core/function_ref.hpp"
#include "adapter/core/platform.hpp"

#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

namespace zeal::adapter {

class Event;
class Queue;
class UsmPool;

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

  // Checks size, alignment and device, then allocates; device may be null for host memory. A pool's block
  // (usm_pool.hpp) is `block` bytes of which `size` are asked for, and goes back to `pool` when freed.
  Result<void *> usm_alloc(Device *device, zeal_usm_kind_t kind, size_t size, size_t alignment,
                           UsmPool *pool = nullptr, size_t block = 0);
  // Waits for the commands of the context's queues first: a command may still read or write the memory (UR
  // requires this; Level Zero's zeMemFree leaves it to the caller). A pool's block goes back to its pool.
  Status usm_free(void *ptr);
  // A block `pool` kept, handed out again for `size` bytes.
  void usm_reuse(void *ptr, size_t size);
  // `pool` is going: its kept blocks are freed, the ones still allocated become the context's own.
  void usm_forget_pool(const UsmPool &pool, std::span<void *const> kept);

  // The allocation of this context that holds `ptr` (its base or any byte inside).
  struct UsmAllocation {
    void *base;
    size_t size;
    zeal_usm_kind_t kind;
    Device *device;          // null for host memory
    UsmPool *pool = nullptr; // the pool it came from
  };
  std::optional<UsmAllocation> usm_allocation(const void *ptr) const;
  // An allocation made in this Level Zero context elsewhere (a native handle), from `ptr` to its end: with
  // `take`, the context records it as its own (freed by usm_free, or with the context); without, it is only
  // measured.
  Result<UsmAllocation> foreign_allocation(void *ptr, bool take);

  // A blocking copy outside any queue (UR's urUSMContextMemcpyExp), checked as a queue's copy is, on a synchronous
  // immediate command list of the device whose memory it touches (the context's first device for host memory).
  Status copy(void *dst, const void *src, size_t size);
  // A synchronous immediate command list on `device` (each append returns once done), for work outside any queue;
  // `what` names that work in a failure.
  Result<ZeCommandList> synchronous_list(const Device &device, const std::string &what) const;

  // Queues register while they live, so that freeing memory can wait for their commands.
  void add_queue(Queue *queue);
  void remove_queue(Queue *queue);
  // Waits for the commands of every queue of the context: before memory, an image or a sampler a command may
  // still use goes.
  void finish_queues();
  // Events whose Level Zero event the application was given (Event::hand_out), so that an event adopted from
  // one describes itself as the original does: `describe(original)` is called, under the registry's lock, when
  // `event` is one of them.
  void remember_handed_out(ze_event_handle_t event, const Event *original);
  void forget_handed_out(ze_event_handle_t event, const Event *original);
  void describe_handed_out(ze_event_handle_t event, FunctionRef<void(const Event &)> describe);

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
    size_t size; // asked for
    Device *device;
    UsmPool *pool = nullptr;
    size_t block = 0;    // a pool's block: its size, at least `size`
    bool kept = false;   // freed into its pool, not allocated now
  };
  mutable std::mutex usm_mutex_;
  std::map<void *, Allocation> allocations_;
  std::mutex queues_mutex_;
  std::vector<Queue *> queues_;
  std::mutex handed_out_mutex_;
  std::map<ze_event_handle_t, const Event *> handed_out_;
};

} // namespace zeal::adapter
