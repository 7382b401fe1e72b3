// Queues over immediate command lists.
#include "adapter/queue.hpp"

namespace zeal::adapter {

Result<Queue *> Queue::create(Context &context, Device &device, uint32_t flags) {
  auto desc = ze_desc<ze_command_queue_desc_t>();
  desc.ordinal = device.compute_queue_ordinal();
  desc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
  desc.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
  ze_command_list_handle_t list = nullptr;
  if (Status s = ze_check(zeCommandListCreateImmediate(context.ze(), device.ze(), &desc, &list),
                          "zeCommandListCreateImmediate", "device '" + device.name() + "'");
      !s.ok())
    return std::move(s).error();
  return new Queue(context, device, flags, ZeCommandList(list));
}

Queue::~Queue() {
  // Commands still running would use the command list being destroyed.
  (void)finish();
}

void Queue::forget_completed() {
  // Keeps the last event of an in-order queue: the next command waits for it.
  size_t keep_from = in_order() && !pending_.empty() ? pending_.size() - 1 : pending_.size();
  std::vector<Ref<Event>> still;
  for (size_t i = 0; i < pending_.size(); ++i) {
    auto done = pending_[i]->complete();
    bool complete = done.ok() && done.value();
    // A command that has run reads its wait list no more.
    if (complete) pending_[i]->drop_waits();
    if (i >= keep_from || !complete) still.push_back(std::move(pending_[i]));
  }
  pending_ = std::move(still);
}

Result<Ref<Event>> Queue::submit(std::span<Event *const> wait, const char *call, const Append &append) {
  auto event = Event::create(*context_, device_, (flags_ & ZEAL_QUEUE_FLAG_PROFILING) != 0);
  if (!event.ok()) return std::move(event).error();
  std::vector<ze_event_handle_t> waits;
  std::vector<Ref<Event>> held;
  for (Event *e : wait) {
    waits.push_back(e->ze());
    held.emplace_back(e);
  }
  std::lock_guard lock(mutex_);
  if (in_order() && !pending_.empty()) {
    waits.push_back(pending_.back()->ze());
    held.push_back(pending_.back());
  }
  ze_result_t r = append(list_.get(), event.value()->ze(), static_cast<uint32_t>(waits.size()),
                         waits.empty() ? nullptr : waits.data());
  if (Status s = ze_check(r, call, "queue on device '" + device_.name() + "'"); !s.ok()) return std::move(s).error();
  event.value()->mark_submitted();
  event.value()->hold_waits(std::move(held));
  if (pending_.size() >= 64) forget_completed();
  pending_.push_back(event.value());
  return std::move(event).value();
}

std::vector<Ref<Event>> Queue::outstanding() {
  std::lock_guard lock(mutex_);
  forget_completed();
  return pending_;
}

Status Queue::finish() {
  std::vector<Ref<Event>> events;
  {
    std::lock_guard lock(mutex_);
    events = std::move(pending_);
    pending_.clear();
  }
  for (auto &e : events)
    if (Status s = e->wait(); !s.ok()) return s;
  return {};
}

} // namespace zeal::adapter
