// Queues over immediate command lists; submitting allocates nothing once the queue is warm.
#include "adapter/core/queue.hpp"

#include "adapter/core/commands.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <utility>

namespace zeal::adapter {

namespace {
Status check_device(const Context &context, const Device &device, const char *what) {
  if (context.has_device(&device)) return {};
  return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                    fmt::format("{}: device '{}' is not in the context", what, device.name()));
}
} // namespace

Result<Queue *> Queue::create(Context &context, Device &device, uint32_t flags) {
  if (Status s = check_device(context, device, "queue create"); !s.ok()) return std::move(s).error();
  auto desc = ze_desc<ze_command_queue_desc_t>();
  desc.ordinal = device.compute_queue_ordinal();
  desc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
  desc.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
  ze_command_list_handle_t list = nullptr;
  if (Status s = ze_check(zeCommandListCreateImmediate(context.ze(), device.ze(), &desc, &list),
                          "zeCommandListCreateImmediate", "device '" + device.name() + "'");
      !s.ok())
    return std::move(s).error();
  return make(context, device, list, flags, true);
}

Result<Queue *> Queue::adopt(Context &context, Device &device, ze_command_list_handle_t list, uint32_t flags,
                             bool owned) {
  if (list == nullptr) return make_error(ZEAL_RESULT_ERROR_INVALID_HANDLE, "queue adopt: the native command list is null");
  if (Status s = check_device(context, device, "queue adopt"); !s.ok()) return std::move(s).error();
  return make(context, device, list, flags, owned);
}

Queue *Queue::make(Context &context, Device &device, ze_command_list_handle_t list, uint32_t flags, bool owned) {
  // The list is held before the queue's allocation, which may fail: an owned one is then destroyed, one the
  // caller adopted without handing over is left to the caller.
  ZeCommandList handle(list);
  std::unique_ptr<Queue> queue;
  try {
    queue.reset(new Queue(context, device, flags, std::move(handle)));
  } catch (const std::bad_alloc &) {
    if (!owned) (void)handle.release();
    throw;
  }
  queue->owns_list_ = owned;
  context.add_queue(queue.get());
  return queue.release();
}

Queue::~Queue() {
  context_->remove_queue(this);
  // Commands still running would use the command list being destroyed.
  (void)finish();
  if (!owns_list_) (void)list_.release();
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

Result<Ref<Event>> Queue::submit(Command command, std::span<Event *const> wait, const char *call, Append append) {
  auto event = Event::create(*this, command);
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

Status Queue::check_extent(const void *ptr, size_t size, const char *what) const {
  return check_usm_extent(*context_, ptr, size, what);
}

Result<Ref<Event>> Queue::copy(void *dst, const void *src, size_t size, std::span<Event *const> wait,
                               Command command) {
  if (Status s = check_copy(*context_, dst, src, size); !s.ok()) return std::move(s).error();
  return submit(command, wait, "zeCommandListAppendMemoryCopy",
                [&](ze_command_list_handle_t l, ze_event_handle_t sig, uint32_t n, ze_event_handle_t *w) {
                  return zeCommandListAppendMemoryCopy(l, dst, src, size, sig, n, w);
                });
}

Result<Ref<Event>> Queue::copy_rect(Pitched dst, Pitched src, size_t width, size_t height, size_t depth,
                                    std::span<Event *const> wait, Command command) {
  if (Status s = check_copy_rect(*context_, dst, src, width, height, depth); !s.ok()) return std::move(s).error();
  return submit(command, wait, "zeCommandListAppendMemoryCopyRegion",
                [&](ze_command_list_handle_t l, ze_event_handle_t sig, uint32_t n, ze_event_handle_t *w) {
                  return append_copy_rect(l, dst, src, width, height, depth, sig, n, w);
                });
}

Result<Ref<Event>> Queue::fill(void *ptr, const void *pattern, size_t pattern_size, size_t size,
                               std::span<Event *const> wait, Command command) {
  return fill_rect(ptr, size, pattern, pattern_size, size, 1, wait, command);
}

Result<Ref<Event>> Queue::fill_rect(void *first, size_t pitch, const void *pattern, size_t pattern_size, size_t width,
                                    size_t height, std::span<Event *const> wait, Command command) {
  FillRows rows{width, pitch, height};
  const char *what = height == 1 || pitch == width ? "memory fill" : "rectangular fill";
  if (Status s = check_fill(*context_, first, pattern, pattern_size, rows, what); !s.ok()) return std::move(s).error();
  // The spec does not say the driver copies the pattern at append, so what the commands read lives with the event
  // until the fill is complete.
  std::vector<uint8_t> source = fill_source(pattern, pattern_size, rows.width);
  auto event = submit(command, wait, fill_call(pattern_size),
                      [&](ze_command_list_handle_t l, ze_event_handle_t sig, uint32_t n, ze_event_handle_t *w) {
                        return append_fill(l, first, rows.width, rows.pitch, rows.height, source, pattern_size, sig,
                                           n, w);
                      });
  if (event.ok()) event.value()->keep_alive(std::move(source));
  return event;
}

namespace {
Status check_image_context(const Context &context, const Image &image, const char *what) {
  if (&image.context() == &context) return {};
  return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                    fmt::format("{}: the image belongs to another context than the queue's", what));
}
} // namespace

Result<Ref<Event>> Queue::image_host_copy(Image &image, const zeal_image_region_t &region, void *host,
                                          Image::HostPitches pitches, bool to_host, std::span<Event *const> wait) {
  const char *what = to_host ? "image read" : "image write";
  if (host == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, fmt::format("{}: the host pointer is null", what));
  if (Status s = check_image_context(*context_, image, what); !s.ok()) return std::move(s).error();
  if (Status s = image.check_region(region, what); !s.ok()) return std::move(s).error();
  auto host_pitches = image.host_pitches(region, pitches, what);
  if (!host_pitches.ok()) return std::move(host_pitches).error();
  const auto [row, slice] = host_pitches.value();
  const ze_image_region_t ze_region = Image::ze_region(region);
  if (to_host)
    return submit(Command::ImageRead, wait, "zeCommandListAppendImageCopyToMemoryExt",
                  [&](ze_command_list_handle_t l, ze_event_handle_t sig, uint32_t n, ze_event_handle_t *w) {
                    return zeCommandListAppendImageCopyToMemoryExt(l, host, image.ze(), &ze_region, row, slice, sig,
                                                                   n, w);
                  });
  return submit(Command::ImageWrite, wait, "zeCommandListAppendImageCopyFromMemoryExt",
                [&](ze_command_list_handle_t l, ze_event_handle_t sig, uint32_t n, ze_event_handle_t *w) {
                  return zeCommandListAppendImageCopyFromMemoryExt(l, image.ze(), host, &ze_region, row, slice, sig,
                                                                   n, w);
                });
}

Result<Ref<Event>> Queue::image_copy(Image &src, Image &dst, const zeal_image_region_t &region,
                                     const std::array<size_t, 3> &dst_origin, std::span<Event *const> wait) {
  constexpr const char *what = "image copy";
  for (const Image *image : {&src, &dst})
    if (Status s = check_image_context(*context_, *image, what); !s.ok()) return std::move(s).error();
  if (src.pixel_bytes() != dst.pixel_bytes())
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("image copy: the source's pixels are {} bytes and the destination's {}; a copy "
                                  "needs pixels of one size",
                                  src.pixel_bytes(), dst.pixel_bytes()));
  const zeal_image_region_t to{{dst_origin[0], dst_origin[1], dst_origin[2]},
                               {region.size[0], region.size[1], region.size[2]}};
  if (Status s = src.check_region(region, "image copy source"); !s.ok()) return std::move(s).error();
  if (Status s = dst.check_region(to, "image copy destination"); !s.ok()) return std::move(s).error();
  const ze_image_region_t from_region = Image::ze_region(region), to_region = Image::ze_region(to);
  return submit(Command::ImageCopy, wait, "zeCommandListAppendImageCopyRegion",
                [&](ze_command_list_handle_t l, ze_event_handle_t sig, uint32_t n, ze_event_handle_t *w) {
                  return zeCommandListAppendImageCopyRegion(l, dst.ze(), src.ze(), &to_region, &from_region, sig, n,
                                                            w);
                });
}

Result<Ref<Event>> Queue::barrier(Command command, std::span<Event *const> wait, Event *also_signal) {
  // Without a wait list the command waits for everything submitted before it.
  WaitList waits;
  std::vector<Ref<Event>> before;
  if (wait.empty()) before = outstanding();
  for (Event *e : wait) waits.push(e);
  for (auto &e : before) waits.push(e.get());
  if (also_signal == nullptr)
    return submit(command, waits.events(), "zeCommandListAppendBarrier",
                  [](ze_command_list_handle_t l, ze_event_handle_t sig, uint32_t n, ze_event_handle_t *w) {
                    return zeCommandListAppendBarrier(l, sig, n, w);
                  });
  if (!also_signal->signalable())
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      "a barrier can signal only an event made to be signalled (UR's urEventCreateExp)");
  // A signal still on its way from an earlier command would complete this one early: it lands first.
  if (also_signal->submitted())
    if (Status s = also_signal->wait(); !s.ok()) return std::move(s).error();
  if (Status s = ze_check(zeEventHostReset(also_signal->ze()), "zeEventHostReset", "a signalable event"); !s.ok())
    return std::move(s).error();
  // `also_signal` is signalled first and the command's own event after every earlier command of the list: whoever
  // waits for the command (finish included) knows `also_signal` is signalled, and nothing waits for `also_signal`
  // itself, which its owner may reset.
  auto made = bracketed(command, waits.events(), also_signal->ze(), [] {});
  if (made.ok()) also_signal->mark_submitted();
  else (void)zeEventHostSignal(also_signal->ze()); // not left reset with no command to signal it
  return made;
}

Result<Ref<Event>> Queue::host_task(HostFunction function, void *data, std::span<Event *const> wait) {
  if (function == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, "host task: the function pointer is null");
  auto start = Event::create(*this, Command::HostTask);
  if (!start.ok()) return std::move(start).error();
  {
    std::lock_guard lock(mutex_);
    if (host_tasks_ == nullptr) host_tasks_ = std::make_unique<HostTasks>();
  }
  // The barrier waits for `wait` and every earlier command of the list, then signals `start`; the command's own
  // event, which later commands of an in-order queue wait for, is left to the host-task thread.
  auto done = submit(Command::HostTask, wait, "zeCommandListAppendBarrier",
                     [&](ze_command_list_handle_t l, ze_event_handle_t, uint32_t n, ze_event_handle_t *w) {
                       return zeCommandListAppendBarrier(l, start.value()->ze(), n, w);
                     });
  if (!done.ok()) return done;
  start.value()->mark_submitted();
  host_tasks_->post(std::move(start).value(), done.value(), function, data);
  return done;
}

Result<Ref<Event>> Queue::native(FunctionRef<void()> enqueue, std::span<Event *const> wait) {
  return bracketed(Command::Native, wait, nullptr, enqueue);
}

Result<Ref<Event>> Queue::bracketed(Command command, std::span<Event *const> wait, ze_event_handle_t opening,
                                    FunctionRef<void()> between) {
  return submit(command, wait, "zeCommandListAppendBarrier",
                [&](ze_command_list_handle_t l, ze_event_handle_t sig, uint32_t n, ze_event_handle_t *w) {
                  ze_result_t r = zeCommandListAppendBarrier(l, opening, n, w);
                  if (r != ZE_RESULT_SUCCESS) return r;
                  between();
                  return zeCommandListAppendBarrier(l, sig, 0, nullptr);
                });
}

bool Queue::idle() {
  std::lock_guard lock(mutex_);
  forget_completed();
  // In order, forget_completed keeps the newest command, complete or not: ask it.
  return std::all_of(pending_.begin(), pending_.end(), [](const Ref<Event> &e) {
    auto done = e->complete();
    return done.ok() && done.value();
  });
}

Result<Ref<Event>> Queue::record_timestamp(std::span<Event *const> wait) {
  // Host USM: memory every driver lets a device write and the host read.
  void *slot = nullptr;
  auto desc = ze_desc<ze_host_mem_alloc_desc_t>();
  if (Status s = ze_check(zeMemAllocHost(context_->ze(), &desc, sizeof(uint64_t), sizeof(uint64_t), &slot),
                          "zeMemAllocHost", "a timestamp recording");
      !s.ok())
    return std::move(s).error();
  auto *stamp = static_cast<uint64_t *>(slot);
  *stamp = 0;
  auto event = submit(Command::Timestamp, wait, "zeCommandListAppendWriteGlobalTimestamp",
                      [&](ze_command_list_handle_t l, ze_event_handle_t sig, uint32_t n, ze_event_handle_t *w) {
                        return zeCommandListAppendWriteGlobalTimestamp(l, stamp, sig, n, w);
                      });
  if (!event.ok()) {
    (void)zeMemFree(context_->ze(), slot);
    return event;
  }
  event.value()->hold_timestamp(stamp);
  return event;
}

std::vector<Ref<Event>> Queue::outstanding() {
  std::lock_guard lock(mutex_);
  forget_completed();
  return pending_;
}

// The commands stay pending while they are waited for: a finish from another thread (freeing memory waits for
// every queue of the context) must not take them from a queue whose next command waits for them, in order or
// behind a barrier. Only what completed is forgotten, after.
Status Queue::finish() {
  std::lock_guard finishing(finish_mutex_);
  {
    std::lock_guard lock(mutex_);
    finishing_.assign(pending_.begin(), pending_.end());
  }
  Status result;
  for (auto &e : finishing_)
    if (Status s = e->wait(); !s.ok() && result.ok()) result = std::move(s);
  finishing_.clear();
  std::lock_guard lock(mutex_);
  forget_completed();
  return result;
}

} // namespace zeal::adapter
