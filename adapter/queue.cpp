// Queues over immediate command lists; submitting allocates nothing once the queue is warm.
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

// Compacts pending_ in place (no new vector): keeps the last event of an
// in-order queue, which the next command waits for, and every incomplete one.
void Queue::forget_completed() {
  size_t keep_from = in_order() && !pending_.empty() ? pending_.size() - 1 : pending_.size();
  // In order, each command waited for the one before: when the newest but one is
  // complete, so is everything older, and one driver query answers for all.
  if (in_order() && pending_.size() >= 2) {
    auto done = pending_[pending_.size() - 2]->complete();
    if (done.ok() && done.value())
      for (size_t i = 0; i + 2 < pending_.size(); ++i) pending_[i]->mark_complete();
  }
  size_t out = 0;
  bool later_incomplete = false; // in order, nothing after an incomplete command has completed
  for (size_t i = 0; i < pending_.size(); ++i) {
    bool complete = false;
    if (!later_incomplete) {
      auto done = pending_[i]->complete();
      complete = done.ok() && done.value();
      later_incomplete = in_order() && !complete;
    }
    // A command that has run reads its wait list no more.
    if (complete) pending_[i]->drop_waits();
    if (i >= keep_from || !complete) {
      if (out != i) pending_[out] = std::move(pending_[i]);
      ++out;
    }
  }
  pending_.erase(pending_.begin() + static_cast<ptrdiff_t>(out), pending_.end());
}

Result<Ref<Event>> Queue::submit(std::span<Event *const> wait, const char *call, Append append) {
  auto event = Event::create(*context_, device_, (flags_ & ZEAL_QUEUE_FLAG_PROFILING) != 0);
  if (!event.ok()) return std::move(event).error();
  // Wait lists live on the stack up to kInline events; only longer ones allocate.
  constexpr size_t kInline = 16;
  ze_event_handle_t inline_waits[kInline];
  std::vector<ze_event_handle_t> more;
  ze_event_handle_t *waits = inline_waits;
  if (wait.size() + 1 > kInline) {
    more.resize(wait.size() + 1);
    waits = more.data();
  }
  uint32_t n = 0;
  for (Event *e : wait) waits[n++] = e->ze();
  std::lock_guard lock(mutex_);
  Event *previous = in_order() && !pending_.empty() ? pending_.back().get() : nullptr;
  if (previous != nullptr) waits[n++] = previous->ze();
  ze_result_t r = append(list_.get(), event.value()->ze(), n, n == 0 ? nullptr : waits);
  if (r != ZE_RESULT_SUCCESS) return ze_check(r, call, "queue on device '" + device_.name() + "'").error();
  event.value()->mark_submitted();
  event.value()->hold_waits(wait, previous);
  if (pending_.size() >= kForgetAt) forget_completed();
  if (pending_.size() >= kMaxInFlight) {
    (void)pending_.front()->wait(); // a failure shows on that command's own event
    forget_completed();
  }
  pending_.push_back(event.value());
  return std::move(event).value();
}

std::vector<Ref<Event>> Queue::outstanding() {
  std::lock_guard lock(mutex_);
  forget_completed();
  return pending_;
}

Status Queue::finish() {
  std::lock_guard finishing(finish_mutex_);
  {
    std::lock_guard lock(mutex_);
    finishing_.assign(pending_.begin(), pending_.end());
    pending_.clear();
  }
  Status result;
  for (auto &e : finishing_)
    if (Status s = e->wait(); !s.ok() && result.ok()) result = std::move(s);
  finishing_.clear();
  return result;
}

} // namespace zeal::adapter
