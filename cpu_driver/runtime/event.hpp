// Event pools and events: host-visible completion flags with kernel timestamps, shareable between processes.
#pragma once

#include "cpu_driver/runtime/handles.hpp"
#include "cpu_driver/runtime/signal.hpp"

#include <atomic>
#include <cstdint>
#include <string>

namespace zeal::cpu {

class Context;

// One event's state: where an event pool keeps the event at each index. Every event made at that index (in this
// process, or in another that opened the pool's IPC handle) is a view of the same slot, as on a GPU, where the
// event is its pool's memory. Plain words only, so that a slot can live in a shared memory file.
struct alignas(64) EventSlot {
  Signal signal;
  std::atomic<uint32_t> device_lost{0}; // 1: signalled by a command of a lost device (runtime/fault.hpp)
  std::atomic<uint64_t> start{0}, end{0};
};

class EventPool : public _ze_event_pool_handle_t {
public:
  // A pool of its own; with ZE_EVENT_POOL_FLAG_IPC its slots are a memory file another process can map. The
  // constructor cannot fail: create() makes the file first.
  static ze_result_t create(Context &context, const ze_event_pool_desc_t &desc, EventPool **out, std::string &why);
  // The pool another process exported, its slots mapped from the handle's file.
  static ze_result_t open(Context &context, const ze_ipc_event_pool_handle_t &handle, EventPool **out,
                          std::string &why);
  EventPool(const EventPool &) = delete;
  EventPool &operator=(const EventPool &) = delete;
  ~EventPool();
  static EventPool *from(ze_event_pool_handle_t h) { return static_cast<EventPool *>(h); }

  uint32_t count() const { return count_; }
  ze_event_pool_flags_t flags() const { return flags_; }
  bool opened() const { return opened_; } // from another process's handle
  EventSlot &slot(uint32_t index) { return slots_[index]; }
  // What another process needs to map the slots; false, with the sentence, for a pool without the IPC flag.
  bool ipc_handle(ze_ipc_event_pool_handle_t &out, std::string &why) const;

private:
  EventPool(Context &context, ze_event_pool_flags_t flags, uint32_t count, EventSlot *slots, int fd, bool opened)
      : context_(context), flags_(flags), count_(count), slots_(slots), fd_(fd), opened_(opened) {}
  size_t file_size() const;

  Context &context_;
  ze_event_pool_flags_t flags_;
  uint32_t count_;
  EventSlot *slots_;  // count_ of them: on the heap, or mapped from fd_'s file (or another process's)
  int fd_;            // the memory file of an exported IPC pool; -1 otherwise
  bool opened_;
};

class Event : public _ze_event_handle_t {
public:
  Event(EventPool &pool, uint32_t index) : pool_(pool), slot_(pool.slot(index)) {}
  EventPool &pool() { return pool_; }
  static Event *from(ze_event_handle_t h) { return static_cast<Event *>(h); }

  // Records when the command that signals the event ran, then signals.
  void complete(uint64_t start, uint64_t end) {
    slot_.start.store(start, std::memory_order_relaxed);
    slot_.end.store(end, std::memory_order_relaxed);
    slot_.signal.set(); // the set's release publishes the timestamps
  }
  // Signals for a command that did not run, or faulted, because its device is lost: waits on the event end,
  // and report ZE_RESULT_ERROR_DEVICE_LOST until the event is reset.
  void complete_on_lost_device() {
    slot_.device_lost.store(1, std::memory_order_relaxed);
    slot_.signal.set();
  }
  bool device_lost() const { return slot_.device_lost.load(std::memory_order_acquire) != 0; }
  void signal() { slot_.signal.set(); }
  void reset() {
    slot_.device_lost.store(0, std::memory_order_relaxed);
    slot_.signal.reset();
  }
  bool is_signaled() const { return slot_.signal.is_set(); }
  bool wait(uint64_t timeout_ns) const { return slot_.signal.wait(timeout_ns); }
  // What the signalling command recorded; one clock for everything, so global and context timestamps are the same.
  ze_kernel_timestamp_result_t timestamps() const {
    ze_kernel_timestamp_result_t out{};
    out.global.kernelStart = out.context.kernelStart = slot_.start.load(std::memory_order_relaxed);
    out.global.kernelEnd = out.context.kernelEnd = slot_.end.load(std::memory_order_relaxed);
    return out;
  }

private:
  EventPool &pool_;
  EventSlot &slot_;
};

} // namespace zeal::cpu
