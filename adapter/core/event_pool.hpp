// A pool of Level Zero event pools owned by one context: events are created once in free slots and then recycled.
#pragma once

#include "common/ze.hpp"

#include <mutex>
#include <vector>

namespace zeal::adapter {

class EventPools {
public:
  // profiling: the pools are created with kernel timestamps.
  EventPools(ze_context_handle_t context, bool profiling) : context_(context), profiling_(profiling) {}

  struct Slot {
    ze_event_pool_handle_t pool = nullptr;
    uint32_t index = 0;
  };

  // A reset, host-visible event: a recycled one when there is one, else a new one in a free slot.
  Result<std::pair<ZeEvent, Slot>> take();
  // The event comes back once its zeal event is gone and its command complete.
  void give_back(ZeEvent event, Slot slot);

private:
  // Covers one queue's commands in flight (Queue::kMaxInFlight) with room to spare.
  static constexpr uint32_t kEventsPerPool = 256;
  Status grow();

  ze_context_handle_t context_;
  bool profiling_;
  std::mutex mutex_;
  std::vector<ZeEventPool> pools_;
  std::vector<Slot> free_;
  // Declared after pools_, so destroyed before the pools they live in. Reset on
  // reuse; capacity grows to the peak number of live events and stays.
  std::vector<ZeEvent> recycled_events_;
  std::vector<Slot> recycled_slots_; // the slots of recycled_events_, index for index
};

} // namespace zeal::adapter
