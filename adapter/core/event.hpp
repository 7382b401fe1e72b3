// A zeal event: one Level Zero event from its context's pools, signalled by one command; recycled, never freed.
#pragma once

#include "adapter/core/context.hpp"
#include "adapter/core/info.hpp"

#include <array>
#include <atomic>
#include <memory>
#include <type_traits>
#include <span>
#include <vector>

namespace zeal::adapter {

class Queue;

// What an event's command did, for the faces that report it (UR's COMMAND_TYPE).
enum class Command : uint8_t { Launch, Copy, Fill, Barrier, Marker, Prefetch, Advise, Read, Write, CopyBuffer,
                               FillBuffer, Map, Unmap, ReadRect, WriteRect, CopyBufferRect, Copy2D, Fill2D, HostTask,
                               CommandBuffer, Timestamp, Native, ImageRead, ImageWrite, ImageCopy };

class Event : public Object {
public:
  static constexpr Kind kKind = Kind::Event;

  static Result<Ref<Event>> create(Context &context, const Device &device, bool profiling);
  // The event of a command of `queue` (a plain pointer: the queue holds its events, not the other way round).
  static Result<Ref<Event>> create(Queue &queue, Command command);
  // An event of `context` with no command behind it, complete from the start (signalled from the host).
  static Result<Ref<Event>> create_complete(Context &context);
  // An event a command of a command buffer signals at every run, reset as the next run starts: its completion
  // is never remembered, so each question asks the driver.
  static Result<Ref<Event>> create_reusable(Context &context, const Device &device, bool profiling, Command command);
  // An event over a Level Zero event made elsewhere (a native handle) in `context`'s Level Zero context, for the
  // context's first device; it has no command and no profiling. `owned`: the event destroys it when it goes;
  // otherwise its maker does.
  static Result<Ref<Event>> adopt(Context &context, ze_event_handle_t event, bool owned);
  // An event no command owns (UR's urEventCreateExp), signalled by each command it is given to (Queue::barrier's
  // `also_signal`) and reset as that command is enqueued. `ipc`: in an event pool of its own, which other processes
  // open through ipc_handle(); not with profiling.
  static Result<Ref<Event>> create_signalable(Context &context, const Device &device, bool profiling, bool ipc);
  // The event behind another event's ipc_handle(), in this process: one state shared with it. INVALID_ARGUMENT
  // naming what is wrong when the bytes are not such a handle.
  static Result<Ref<Event>> open_ipc(Context &context, const ze_ipc_event_pool_handle_t &handle);
  ~Event() override;

  // Events come and go with every command: their storage is kept on a free list
  // and reused, so the steady state of a queue does not touch the heap.
  static void *operator new(size_t size);
  static void operator delete(void *p) noexcept;
  // Puts storage for `count` events on the free list (up front, for a queue's cap
  // of commands in flight), so that even a new peak does not allocate.
  static void reserve_storage(size_t count);

  ze_event_handle_t ze() const { return event_.get(); }
  bool signalable() const { return signalable_; }
  // The live signalable event whose UR handle is `handle`, or null: looked up, never read through, since a caller
  // may pass a handle it has released (UR's *phEvent is both a result and, for these events, an input).
  static Event *signalable_by_ur_handle(const void *handle);
  // What another process opens (open_ipc): an event made signalable with `ipc`, not one opened itself.
  Result<ze_ipc_event_pool_handle_t> ipc_handle() const;
  // The Level Zero event, handed to the application (a native handle): the context remembers whose it is, so
  // that an event made again from it (adopt) answers with this one's queue and command.
  ze_event_handle_t hand_out();
  // Called once the command that signals the event has been appended.
  void mark_submitted() { submitted_ = true; }
  bool submitted() const { return submitted_; }
  // Host bytes the command reads (a fill pattern) kept until the event is gone.
  void keep_alive(std::vector<uint8_t> bytes) { keep_alive_ = std::move(bytes); }
  // The host USM a timestamp recording writes its device timestamp to (Queue::record_timestamp): the event's
  // profiling times, start and end alike, whether or not its queue profiles; freed with the event.
  void hold_timestamp(uint64_t *slot) { recorded_ = slot; }
  // The events this event's command waits for: a driver may read them until the
  // command has run, even after they completed, so they live at least that long.
  // Up to kInlineWaits (the in-order predecessor included) are held without allocating.
  void hold_waits(std::span<Event *const> waits, Event *previous);
  void drop_waits();

  Context &context() const { return *context_; }
  Queue *queue() const { return queue_; }
  Command command() const { return command_; }
  bool profiling() const { return profiling_; }

  Status wait() const;
  // Waits at most `ns` nanoseconds: whether the event has completed.
  Result<bool> wait_for(uint64_t ns) const;
  // Remembers a completion once seen, so later questions (and the destructor) skip the driver.
  Result<bool> complete() const;
  // Known complete without asking: a later command of an in-order chain is.
  void mark_complete() {
    if (!reusable_) known_complete_.store(true, std::memory_order_release);
  }
  Result<InfoValue> info(int32_t key) const;
  // Device time in ns when the command started or ended; INVALID_ARGUMENT without profiling, NOT_READY before
  // it completed.
  Result<uint64_t> timestamp_ns(bool end) const;

private:
  Event(Ref<Context> context, const Device &device, bool profiling, ZeEvent event, EventPools::Slot slot)
      : Object(kKind), context_(std::move(context)), device_(device), profiling_(profiling),
        event_(std::move(event)), slot_(slot) {}

  // An event pool of the event's own (IPC events), destroyed (or, opened from a handle, closed) after the event.
  using OwnPool = std::unique_ptr<std::remove_pointer_t<ze_event_pool_handle_t>, ze_result_t (*)(ze_event_pool_handle_t)>;
  // The one event of `pool` (index 0, host scope), which goes with it.
  static Result<Ref<Event>> in_own_pool(Context &context, const Device &device, OwnPool pool, const char *what);

  static constexpr size_t kInlineWaits = 4;

  Ref<Context> context_;
  const Device &device_;
  bool profiling_;
  OwnPool own_pool_{nullptr, zeEventPoolDestroy};
  bool opened_ = false; // from another event's IPC handle
  ZeEvent event_;
  EventPools::Slot slot_; // pool null: an adopted event, not the pools'
  bool owns_event_ = true;
  Queue *queue_ = nullptr;
  Command command_ = Command::Marker;
  bool submitted_ = false;
  bool reusable_ = false;
  bool signalable_ = false;
  std::atomic<bool> handed_out_{false};
  mutable std::atomic<bool> known_complete_{false};
  std::vector<uint8_t> keep_alive_;
  uint64_t *recorded_ = nullptr;
  std::array<Ref<Event>, kInlineWaits> inline_waits_;
  std::vector<Ref<Event>> more_waits_;
};

// The events of a wait list; short lists are kept without allocating.
class WaitList {
public:
  void push(Event *e) {
    if (n_ < inline_.size()) inline_[n_] = e;
    else {
      if (more_.empty()) more_.assign(inline_.begin(), inline_.end());
      more_.push_back(e);
    }
    ++n_;
  }
  std::span<Event *const> events() const {
    return n_ <= inline_.size() ? std::span<Event *const>(inline_.data(), n_) : std::span<Event *const>(more_);
  }

private:
  std::array<Event *, 16> inline_{};
  std::vector<Event *> more_;
  size_t n_ = 0;
};

} // namespace zeal::adapter
