// Event pools: a slot per event, a new pool of kEventsPerPool events whenever all slots are taken; events recycled.
#include "adapter/core/event_pool.hpp"

namespace zeal::adapter {

Status EventPools::grow() {
  auto desc = ze_desc<ze_event_pool_desc_t>();
  desc.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE;
  if (profiling_) desc.flags |= ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP;
  desc.count = kEventsPerPool;
  ze_event_pool_handle_t pool = nullptr;
  if (Status s = ze_check(zeEventPoolCreate(context_, &desc, 0, nullptr, &pool), "zeEventPoolCreate"); !s.ok())
    return s;
  pools_.emplace_back(pool);
  // Handed out from the back: lowest index first.
  for (uint32_t i = kEventsPerPool; i-- > 0;) free_.push_back(Slot{pool, i});
  recycled_events_.reserve(pools_.size() * kEventsPerPool);
  recycled_slots_.reserve(pools_.size() * kEventsPerPool);
  return {};
}

Result<std::pair<ZeEvent, EventPools::Slot>> EventPools::take() {
  std::lock_guard lock(mutex_);
  if (!recycled_events_.empty()) {
    ZeEvent event = std::move(recycled_events_.back());
    Slot slot = recycled_slots_.back();
    recycled_events_.pop_back();
    recycled_slots_.pop_back();
    // Its command completed before it came back (the zeal event waited for it).
    if (Status s = ze_check(zeEventHostReset(event.get()), "zeEventHostReset"); !s.ok()) return std::move(s).error();
    return std::make_pair(std::move(event), slot);
  }
  if (free_.empty()) {
    if (Status s = grow(); !s.ok()) return std::move(s).error();
  }
  Slot slot = free_.back();
  auto desc = ze_desc<ze_event_desc_t>();
  desc.index = slot.index;
  desc.signal = ZE_EVENT_SCOPE_FLAG_HOST;
  desc.wait = ZE_EVENT_SCOPE_FLAG_HOST;
  ze_event_handle_t event = nullptr;
  if (Status s = ze_check(zeEventCreate(slot.pool, &desc, &event), "zeEventCreate"); !s.ok())
    return std::move(s).error();
  free_.pop_back();
  return std::make_pair(ZeEvent(event), slot);
}

void EventPools::give_back(ZeEvent event, Slot slot) {
  std::lock_guard lock(mutex_);
  // Capacity was reserved for every slot of every pool, so these never allocate.
  recycled_events_.push_back(std::move(event));
  recycled_slots_.push_back(slot);
}

} // namespace zeal::adapter
