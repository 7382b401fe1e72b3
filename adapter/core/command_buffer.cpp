// Command buffers over Level Zero regular command lists.
//
// The list, recorded at finalize, runs on the buffer's own command queue:
//   wait for start;  each command, signalling its event (waiting for the one before, in order, or for the events
//   of its sync points, and for events of other work);  a barrier;  every private event of the list reset;  a
//   barrier signalling end. Events a command signals for others stay signalled after a run; enqueue resets them.
// A run appends to the queue's immediate list: a barrier signalling start once the run's wait list (and the
// buffer's previous run) is complete; a wait for end; end reset; a barrier signalling the run's event. So a run
// is one command in the queue's order, and the next run starts with every event of the list reset.
#include "adapter/core/command_buffer.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace zeal::adapter {

Status BufferCommand::append(ze_command_list_handle_t list, ze_event_handle_t signal, uint32_t n,
                             ze_event_handle_t *wait) const {
  if (launch_) return owner_->append_launch(*launch_, list, signal, n, wait);
  return append_(list, signal, n, wait);
}

Result<CommandBuffer *> CommandBuffer::create(Context &context, Device &device, Options options) {
  if (!context.has_device(&device))
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("command buffer create: device '{}' is not in the context", device.name()));
  auto desc = ze_desc<ze_command_list_desc_t>();
  desc.commandQueueGroupOrdinal = device.compute_queue_ordinal();
  ze_command_list_handle_t list = nullptr;
  if (Status s = ze_check(zeCommandListCreate(context.ze(), device.ze(), &desc, &list), "zeCommandListCreate",
                          "command buffer on device '" + device.name() + "'");
      !s.ok())
    return std::move(s).error();
  return new CommandBuffer(context, device, options, ZeCommandList(list));
}

CommandBuffer::~CommandBuffer() {
  if (last_run_) (void)last_run_->wait();
}

bool CommandBuffer::finalized() const {
  std::lock_guard lock(mutex_);
  return finalized_;
}

size_t CommandBuffer::command_count() const {
  std::lock_guard lock(mutex_);
  return commands_.size();
}

void CommandBuffer::each_command(FunctionRef<void(const BufferCommand &)> visit) const {
  std::lock_guard lock(mutex_);
  for (const auto &c : commands_) visit(*c);
}

Result<BufferCommand *> CommandBuffer::add(Command command, const Deps &deps, BufferCommand::Append append,
                                           std::optional<RecordedLaunch> launch) {
  Ref<Event> signal;
  if (deps.signal) {
    auto e = make_signal(command);
    if (!e.ok()) return std::move(e).error();
    signal = std::move(e).value();
  }
  std::lock_guard lock(mutex_);
  if (finalized_)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      "command buffer: it is finalized, and no command may be appended to it");
  for (SyncPoint p : deps.points)
    if (p >= commands_.size())
      return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                        fmt::format("command buffer: sync point {} is not one of its {} commands'", p,
                                    commands_.size()));
  const auto point = static_cast<SyncPoint>(commands_.size());
  commands_.push_back(std::make_unique<BufferCommand>(*this, point, command,
                                                      std::vector<SyncPoint>(deps.points.begin(), deps.points.end()),
                                                      std::move(append)));
  BufferCommand &made = *commands_.back();
  made.launch_ = std::move(launch);
  for (Event *e : deps.events) made.waits_.emplace_back(e);
  made.signal_ = std::move(signal);
  return &made;
}

Status CommandBuffer::append_launch(const RecordedLaunch &launch, ze_command_list_handle_t list,
                                    ze_event_handle_t signal, uint32_t n, ze_event_handle_t *wait) const {
  std::vector<zeal_kernel_arg_t> args;
  Kernel::describe_args(launch.args, args);
  zeal_launch_desc_t desc{};
  desc.work_dim = launch.work_dim;
  for (size_t d = 0; d < 3; ++d) {
    desc.global_offset[d] = launch.offset[d];
    desc.global_size[d] = launch.global[d];
    desc.local_size[d] = launch.local[d];
  }
  desc.num_args = static_cast<uint32_t>(args.size());
  desc.args = args.data();
  Kernel &kernel = *launch.kernel;
  return kernel.append_launch(device_, desc, [&](ze_kernel_handle_t k, const ze_group_count_t &groups) -> Status {
    if (list == nullptr) return {}; // only checking
    return ze_check(zeCommandListAppendLaunchKernel(list, k, &groups, signal, n, wait),
                    "zeCommandListAppendLaunchKernel", "kernel '" + kernel.name() + "' in a command buffer");
  });
}

Result<BufferCommand *> CommandBuffer::launch(RecordedLaunch launch, const Deps &deps) {
  // Checked now as a launch is (range, local size, arguments), by going through everything but the append.
  if (Status s = append_launch(launch, nullptr, nullptr, 0, nullptr); !s.ok()) return std::move(s).error();
  return add(Command::Launch, deps, {}, std::move(launch));
}

Result<BufferCommand *> CommandBuffer::copy(void *dst, const void *src, size_t size, const Deps &deps,
                                            Command command) {
  if (Status s = check_copy(*context_, dst, src, size); !s.ok()) return std::move(s).error();
  return add(command, deps, [dst, src, size](ze_command_list_handle_t l, ze_event_handle_t sig, uint32_t n,
                                             ze_event_handle_t *w) {
    return ze_check(zeCommandListAppendMemoryCopy(l, dst, src, size, sig, n, w), "zeCommandListAppendMemoryCopy",
                    "command buffer");
  });
}

Result<BufferCommand *> CommandBuffer::copy_rect(Pitched dst, Pitched src, size_t width, size_t height, size_t depth,
                                                 const Deps &deps, Command command) {
  if (Status s = check_copy_rect(*context_, dst, src, width, height, depth); !s.ok()) return std::move(s).error();
  return add(command, deps, [=](ze_command_list_handle_t l, ze_event_handle_t sig, uint32_t n, ze_event_handle_t *w) {
    return ze_check(append_copy_rect(l, dst, src, width, height, depth, sig, n, w),
                    "zeCommandListAppendMemoryCopyRegion", "command buffer");
  });
}

Result<BufferCommand *> CommandBuffer::fill_rect(void *first, size_t pitch, const void *pattern, size_t pattern_size,
                                                 size_t width, size_t height, const Deps &deps, Command command) {
  FillRows rows{width, pitch, height};
  if (Status s = check_fill(*context_, first, pattern, pattern_size, rows, "command buffer fill"); !s.ok())
    return std::move(s).error();
  // The pattern, or the staged patterns, live with the command: the list reads them at every run.
  return add(command, deps,
             [=, source = fill_source(pattern, pattern_size, rows.width)](ze_command_list_handle_t l,
                                                                          ze_event_handle_t sig, uint32_t n,
                                                                          ze_event_handle_t *w) {
               return ze_check(append_fill(l, first, rows.width, rows.pitch, rows.height, source, pattern_size, sig,
                                           n, w),
                               fill_call(pattern_size), "command buffer");
             });
}

Result<BufferCommand *> CommandBuffer::marker(const Deps &deps, Command command) {
  return add(command, deps, [](ze_command_list_handle_t l, ze_event_handle_t sig, uint32_t n, ze_event_handle_t *w) {
    return ze_check(zeCommandListAppendBarrier(l, sig, n, w), "zeCommandListAppendBarrier", "command buffer");
  });
}

Result<CommandBuffer *> CommandBuffer::copy() const {
  auto made = create(*context_, device_, options_);
  if (!made.ok()) return made;
  CommandBuffer &to = *made.value();
  std::lock_guard lock(mutex_);
  to.commands_.reserve(commands_.size());
  for (const auto &c : commands_) {
    auto &copied = to.commands_.emplace_back(
        std::make_unique<BufferCommand>(to, c->point_, c->command_, c->deps_, c->append_));
    copied->launch_ = c->launch_;
    copied->waits_ = c->waits_;
  }
  return made;
}

Status CommandBuffer::finalize() {
  std::lock_guard lock(mutex_);
  if (finalized_)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, "command buffer finalize: it is finalized already");
  auto desc = ze_desc<ze_command_queue_desc_t>();
  desc.ordinal = device_.compute_queue_ordinal();
  desc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
  ze_command_queue_handle_t queue = nullptr;
  if (Status s = ze_check(zeCommandQueueCreate(context_->ze(), device_.ze(), &desc, &queue), "zeCommandQueueCreate",
                          "command buffer on device '" + device_.name() + "'");
      !s.ok())
    return s;
  queue_ = ZeCommandQueue(queue);
  if (Status s = record(); !s.ok()) return s;
  finalized_ = true;
  return {};
}

Status CommandBuffer::record() {
  auto make_event = [&](Ref<Event> &out) -> Status {
    auto e = Event::create(*context_, device_, options_.profiling);
    if (!e.ok()) return std::move(e).error();
    out = std::move(e).value();
    return {};
  };
  if (!start_) {
    if (Status s = make_event(start_); !s.ok()) return s;
    if (Status s = make_event(end_); !s.ok()) return s;
  }
  events_.reserve(commands_.size());
  while (events_.size() < commands_.size())
    if (Status s = make_event(events_.emplace_back()); !s.ok()) {
      events_.pop_back();
      return s;
    }

  retired_.clear(); // the last run, which might have signalled them, is over
  ze_command_list_handle_t list = list_.get();
  const std::string what = "command buffer on device '" + device_.name() + "'";
  auto check = [&](ze_result_t r, const char *call) { return ze_check(r, call, what); };
  if (Status s = check(zeCommandListReset(list), "zeCommandListReset"); !s.ok()) return s;
  ze_event_handle_t start = start_->ze();
  if (Status s = check(zeCommandListAppendWaitOnEvents(list, 1, &start), "zeCommandListAppendWaitOnEvents"); !s.ok())
    return s;
  // The events commands signal for others stay signalled after a run: enqueue resets them (signals_). Earlier
  // events the application has let go of are signalled no more (the list is not running now).
  for (const auto &c : commands_)
    std::erase_if(c->earlier_signals_, [](const Ref<Event> &e) { return e->ref_count() == 1; });
  signals_ = std::any_of(commands_.begin(), commands_.end(), [](const auto &c) { return bool(c->signal_); });
  std::vector<ze_event_handle_t> waits;
  for (size_t i = 0; i < commands_.size(); ++i) {
    const BufferCommand &c = *commands_[i];
    waits.clear();
    if (options_.in_order) {
      if (i > 0) waits.push_back(event_of(i - 1));
    } else {
      for (SyncPoint p : c.deps()) waits.push_back(event_of(p));
    }
    for (const Ref<Event> &e : c.waits_) waits.push_back(e->ze());
    if (Status s = c.append(list, event_of(i), static_cast<uint32_t>(waits.size()), waits.empty() ? nullptr : waits.data());
        !s.ok())
      return s;
    ze_event_handle_t done = event_of(i);
    for (const Ref<Event> &e : c.earlier_signals_)
      if (Status s = check(zeCommandListAppendBarrier(list, e->ze(), 1, &done), "zeCommandListAppendBarrier"); !s.ok())
        return s;
  }
  if (Status s = check(zeCommandListAppendBarrier(list, nullptr, 0, nullptr), "zeCommandListAppendBarrier"); !s.ok())
    return s;
  for (size_t i = 0; i < commands_.size(); ++i)
    if (!commands_[i]->signal_)
      if (Status s = check(zeCommandListAppendEventReset(list, events_[i]->ze()), "zeCommandListAppendEventReset");
          !s.ok())
        return s;
  if (Status s = check(zeCommandListAppendEventReset(list, start), "zeCommandListAppendEventReset"); !s.ok())
    return s;
  if (Status s = check(zeCommandListAppendBarrier(list, end_->ze(), 0, nullptr), "zeCommandListAppendBarrier");
      !s.ok())
    return s;
  return check(zeCommandListClose(list), "zeCommandListClose");
}

ze_event_handle_t CommandBuffer::event_of(size_t i) const {
  const BufferCommand &c = *commands_[i];
  return c.signal_ ? c.signal_->ze() : events_[i]->ze();
}

Result<Ref<Event>> CommandBuffer::enqueue(Queue &queue, std::span<Event *const> wait) {
  if (&queue.device() != &device_)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("command buffer enqueue: the buffer is for device '{}' but the queue is on device "
                                  "'{}'",
                                  device_.name(), queue.device().name()));
  if (&queue.context() != context_.get())
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      "command buffer enqueue: the queue is not of the buffer's context");
  std::lock_guard lock(mutex_);
  if (!finalized_)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, "command buffer enqueue: it is not finalized");
  if (stale_) {
    // Level Zero forbids resetting a list that is running.
    if (last_run_)
      if (Status s = last_run_->wait(); !s.ok()) return std::move(s).error();
    if (Status s = record(); !s.ok()) return std::move(s).error();
    stale_ = false;
  }
  if (signals_) {
    // Whoever waits for a command's event after this call waits for this run: the events are reset now, from the
    // host, once the last run (which signalled them) is over.
    if (last_run_)
      if (Status s = last_run_->wait(); !s.ok()) return std::move(s).error();
    for (const auto &c : commands_) {
      if (!c->signal_) continue;
      if (Status s = ze_check(zeEventHostReset(c->signal_->ze()), "zeEventHostReset", "a command buffer's event");
          !s.ok())
        return std::move(s).error();
      for (const Ref<Event> &e : c->earlier_signals_)
        if (Status s = ze_check(zeEventHostReset(e->ze()), "zeEventHostReset", "a command buffer's event"); !s.ok())
          return std::move(s).error();
    }
  }
  WaitList waits;
  for (Event *e : wait) waits.push(e);
  if (last_run_) waits.push(last_run_.get());
  ze_event_handle_t start = start_->ze();
  ze_event_handle_t end = end_->ze();
  auto run = queue.submit(Command::CommandBuffer, waits.events(), "zeCommandListAppendBarrier",
                          [&](ze_command_list_handle_t l, ze_event_handle_t sig, uint32_t n, ze_event_handle_t *w) {
                            ze_result_t r = zeCommandListAppendBarrier(l, start, n, w);
                            if (r == ZE_RESULT_SUCCESS) r = zeCommandListAppendWaitOnEvents(l, 1, &end);
                            if (r == ZE_RESULT_SUCCESS) r = zeCommandListAppendEventReset(l, end);
                            if (r == ZE_RESULT_SUCCESS) r = zeCommandListAppendBarrier(l, sig, 0, nullptr);
                            return r;
                          });
  if (!run.ok()) return run;
  ze_command_list_handle_t list = list_.get();
  if (ze_result_t r = zeCommandQueueExecuteCommandLists(queue_.get(), 1, &list, nullptr); r != ZE_RESULT_SUCCESS) {
    // The queue waits for an end that will not come: give it, let the run's commands drain, and leave the
    // events as a run leaves them.
    (void)zeEventHostSignal(end);
    (void)run.value()->wait();
    (void)zeEventHostReset(start);
    return ze_check(r, "zeCommandQueueExecuteCommandLists", "command buffer on device '" + device_.name() + "'")
        .error();
  }
  last_run_ = run.value();
  return run;
}

Status CommandBuffer::update(BufferCommand &command, FunctionRef<Status(RecordedLaunch &)> change) {
  std::lock_guard lock(mutex_);
  if (!options_.updatable)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, "command buffer update: the buffer is not updatable");
  if (!finalized_)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, "command buffer update: the buffer is not finalized");
  if (command.launch_ == std::nullopt)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, "command buffer update: the command is not a kernel launch");
  RecordedLaunch changed = *command.launch_;
  if (Status s = change(changed); !s.ok()) return s;
  if (Status s = append_launch(changed, nullptr, nullptr, 0, nullptr); !s.ok()) return s;
  command.launch_ = std::move(changed);
  stale_ = true;
  return {};
}

Status CommandBuffer::check_event_update(const BufferCommand &command, const char *what) const {
  if (!options_.updatable)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, fmt::format("{}: the command buffer is not updatable", what));
  if (!finalized_)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, fmt::format("{}: the command buffer is not finalized", what));
  if (&command.owner() != this)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, fmt::format("{}: the command is another buffer's", what));
  return {};
}

// An event a command signals for others is complete until a run of the buffer resets it: UR's "signalled by
// the completion of this command in the next execution" leaves nothing to wait for before the first.
Result<Ref<Event>> CommandBuffer::make_signal(Command command) const {
  auto made = Event::create_reusable(*context_, device_, options_.profiling, command);
  if (!made.ok()) return made;
  if (Status s = ze_check(zeEventHostSignal(made.value()->ze()), "zeEventHostSignal", "a command buffer's event");
      !s.ok())
    return std::move(s).error();
  return made;
}

Result<Ref<Event>> CommandBuffer::renew_signal(BufferCommand &command) {
  auto made = make_signal(command.command());
  if (!made.ok()) return made;
  std::lock_guard lock(mutex_);
  if (Status s = check_event_update(command, "command buffer signal-event update"); !s.ok()) return std::move(s).error();
  if (!command.signal_)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      "command buffer signal-event update: the command was appended without an event to signal");
  command.earlier_signals_.push_back(std::move(command.signal_));
  command.signal_ = made.value();
  stale_ = true;
  return made;
}

Status CommandBuffer::replace_waits(BufferCommand &command, std::span<Event *const> events) {
  std::lock_guard lock(mutex_);
  if (Status s = check_event_update(command, "command buffer wait-event update"); !s.ok()) return s;
  if (events.size() != command.waits_.size())
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("command buffer wait-event update: {} events given, but the command waits for {}",
                                  events.size(), command.waits_.size()));
  for (Ref<Event> &old : command.waits_) retired_.push_back(std::move(old));
  command.waits_.clear();
  for (Event *e : events) command.waits_.emplace_back(e);
  stale_ = true;
  return {};
}

} // namespace zeal::adapter
