// A zeal queue: an immediate command list; in order by chaining each command on the previous one's event.
#pragma once

#include "adapter/event.hpp"

#include <functional>
#include <mutex>
#include <span>
#include <vector>

namespace zeal::adapter {

class Queue : public Object {
public:
  static constexpr Kind kKind = Kind::Queue;

  static Result<Queue *> create(Context &context, Device &device, uint32_t flags);
  ~Queue() override;

  Context &context() const { return *context_; }
  Device &device() const { return device_; }

  // Appends one command. `append` receives the command list, the signal event and
  // the wait list (the caller's events, plus the previous command's when in order).
  using Append = std::function<ze_result_t(ze_command_list_handle_t list, ze_event_handle_t signal,
                                           uint32_t num_wait, ze_event_handle_t *wait)>;
  Result<Ref<Event>> submit(std::span<Event *const> wait, const char *call, const Append &append);
  // Events of every command not yet known complete, for a barrier on an out-of-order queue.
  std::vector<Ref<Event>> outstanding();
  Status finish();

private:
  Queue(Context &context, Device &device, uint32_t flags, ZeCommandList list)
      : Object(kKind), context_(&context), device_(device), flags_(flags), list_(std::move(list)) {}
  bool in_order() const { return (flags_ & ZEAL_QUEUE_FLAG_OUT_OF_ORDER) == 0; }
  void forget_completed();

  Ref<Context> context_;
  Device &device_;
  uint32_t flags_;
  ZeCommandList list_;
  // Level Zero command lists are not thread-safe; appends are serialised here.
  std::mutex mutex_;
  // API 1.4 has neither zeCommandListHostSynchronize nor an in-order flag, so the
  // queue keeps the events of its commands: the last orders the next command,
  // all of them are what queueFinish waits for.
  std::vector<Ref<Event>> pending_;
};

} // namespace zeal::adapter
