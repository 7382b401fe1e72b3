// Event pools and events: host-visible completion flags with kernel timestamps.
#pragma once

#include "cpu_driver/runtime/handles.hpp"
#include "cpu_driver/runtime/signal.hpp"

#include <atomic>
#include <cstdint>

namespace zeal::cpu {

class Context;

class EventPool : public _ze_event_pool_handle_t {
public:
  EventPool(Context &context, const ze_event_pool_desc_t &desc) : context_(context), flags_(desc.flags), count_(desc.count) {}
  static EventPool *from(ze_event_pool_handle_t h) { return static_cast<EventPool *>(h); }

  uint32_t count() const { return count_; }
  ze_event_pool_flags_t flags() const { return flags_; }

private:
  Context &context_;
  ze_event_pool_flags_t flags_;
  uint32_t count_;
};

class Event : public _ze_event_handle_t {
public:
  explicit Event(EventPool &pool) : pool_(pool) {}
  EventPool &pool() { return pool_; }
  static Event *from(ze_event_handle_t h) { return static_cast<Event *>(h); }

  // Records when the command that signals the event ran, then signals.
  void complete(uint64_t start, uint64_t end) {
    start_.store(start, std::memory_order_relaxed);
    end_.store(end, std::memory_order_relaxed);
    signal_.set(); // the set's release publishes the timestamps
  }
  void signal() { signal_.set(); }
  void reset() { signal_.reset(); }
  bool is_signaled() const { return signal_.is_set(); }
  bool wait(uint64_t timeout_ns) const { return signal_.wait(timeout_ns); }
  // What the signalling command recorded; one clock for everything, so global and context timestamps are the same.
  ze_kernel_timestamp_result_t timestamps() const {
    ze_kernel_timestamp_result_t out{};
    out.global.kernelStart = out.context.kernelStart = start_.load(std::memory_order_relaxed);
    out.global.kernelEnd = out.context.kernelEnd = end_.load(std::memory_order_relaxed);
    return out;
  }

private:
  EventPool &pool_;
  Signal signal_;
  std::atomic<uint64_t> start_{0}, end_{0};
};

} // namespace zeal::cpu
