// A pool of Level Zero event pools owned by one context: events are taken from free slots, pools added on demand.
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

  // A new host-visible event in a free slot; give the slot back once the event is destroyed.
  Result<std::pair<ZeEvent, Slot>> take();
  void give_back(Slot slot);

private:
  static constexpr uint32_t kEventsPerPool = 128;
  Status grow();

  ze_context_handle_t context_;
  bool profiling_;
  std::mutex mutex_;
  std::vector<ZeEventPool> pools_;
  std::vector<Slot> free_;
};

} // namespace zeal::adapter
