// Queues over immediate command lists; submitting allocates nothing once the queue is warm.
#include "adapter/queue.hpp"

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

// A USM allocation of the queue's context must hold all `size` bytes from `ptr`; other memory (plain host
// memory a copy reads or writes) the adapter cannot see the end of.
Status Queue::check_extent(const void *ptr, size_t size, const char *what) const {
  auto allocation = context_->usm_allocation(ptr);
  if (!allocation) return {};
  const size_t offset = static_cast<size_t>(static_cast<const uint8_t *>(ptr) -
                                            static_cast<const uint8_t *>(allocation->base));
  if (size <= allocation->size - offset) return {};
  return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                    fmt::format("{}: {} bytes from {} run past the end of its USM allocation ({} bytes at {})", what,
                                size, ptr, allocation->size, allocation->base));
}

Result<Ref<Event>> Queue::copy(void *dst, const void *src, size_t size, std::span<Event *const> wait,
                               Command command) {
  if (dst == nullptr || src == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("memory copy of {} bytes: the {} pointer is null", size,
                                  dst == nullptr ? "destination" : "source"));
  if (Status s = check_extent(dst, size, "memory copy destination"); !s.ok()) return std::move(s).error();
  if (Status s = check_extent(src, size, "memory copy source"); !s.ok()) return std::move(s).error();
  return submit(command, wait, "zeCommandListAppendMemoryCopy",
                [&](ze_command_list_handle_t l, ze_event_handle_t sig, uint32_t n, ze_event_handle_t *w) {
                  return zeCommandListAppendMemoryCopy(l, dst, src, size, sig, n, w);
                });
}

Result<Ref<Event>> Queue::copy_rect(Pitched dst, Pitched src, size_t width, size_t height, size_t depth,
                                    std::span<Event *const> wait, Command command) {
  if (dst.first == nullptr || src.first == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("rectangular copy: the {} pointer is null", dst.first == nullptr ? "destination" : "source"));
  if (width == 0 || height == 0 || depth == 0)
    return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                      fmt::format("rectangular copy: the region is {}x{}x{} bytes, and none may be 0", width, height,
                                  depth));
  for (const auto &[side, name] : {std::pair{&dst, "destination"}, std::pair{&src, "source"}}) {
    if (side->row_pitch < width)
      return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                        fmt::format("rectangular copy: the {} row pitch {} is less than the region's width {}", name,
                                    side->row_pitch, width));
    size_t rows = 0;
    if (depth > 1 && (__builtin_mul_overflow(height, side->row_pitch, &rows) || side->slice_pitch < rows))
      return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                        fmt::format("rectangular copy: the {} slice pitch {} does not hold {} rows of pitch {}", name,
                                    side->slice_pitch, height, side->row_pitch));
    // zeCommandListAppendMemoryCopyRegion takes 32-bit sizes and pitches.
    const size_t slice_pitch = depth > 1 ? side->slice_pitch : 0;
    if (width > UINT32_MAX || height > UINT32_MAX || depth > UINT32_MAX || side->row_pitch > UINT32_MAX ||
        slice_pitch > UINT32_MAX)
      return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                        fmt::format("rectangular copy: the {} region ({}x{}x{} bytes, pitches {} and {}) has a "
                                    "size or pitch of 4 GiB or more, which Level Zero's region copy cannot take",
                                    name, width, height, depth, side->row_pitch, slice_pitch));
    // Bytes from the first byte to just past the last: fits, since each factor is under 2^32.
    const size_t extent = (depth - 1) * slice_pitch + (height - 1) * side->row_pitch + width;
    if (Status s = check_extent(side->first, extent, fmt::format("rectangular copy {}", name).c_str()); !s.ok())
      return std::move(s).error();
  }
  const ze_copy_region_t region{0,
                                0,
                                0,
                                static_cast<uint32_t>(width),
                                static_cast<uint32_t>(height),
                                static_cast<uint32_t>(depth)};
  return submit(command, wait, "zeCommandListAppendMemoryCopyRegion",
                [&](ze_command_list_handle_t l, ze_event_handle_t sig, uint32_t n, ze_event_handle_t *w) {
                  return zeCommandListAppendMemoryCopyRegion(
                      l, dst.first, &region, static_cast<uint32_t>(dst.row_pitch),
                      static_cast<uint32_t>(depth > 1 ? dst.slice_pitch : 0), src.first, &region,
                      static_cast<uint32_t>(src.row_pitch), static_cast<uint32_t>(depth > 1 ? src.slice_pitch : 0),
                      sig, n, w);
                });
}

Status Queue::check_fill(const void *ptr, const void *pattern, size_t pattern_size, size_t run, size_t extent,
                         const char *what) const {
  if (ptr == nullptr || pattern == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("{} of {} bytes: the {} is null", what, extent,
                                  ptr == nullptr ? "destination pointer" : "pattern"));
  if (pattern_size == 0 || run % pattern_size != 0)
    return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                      fmt::format("{}: pattern size {} must divide size {}", what, pattern_size, run));
  return check_extent(ptr, extent, what);
}

namespace {
// Level Zero fills with a power-of-two pattern of at most the command queue group's maxMemoryFillPatternSize; 128
// bytes is the smallest limit drivers report.
constexpr size_t kMaxDriverPattern = 128;
bool driver_fills(size_t pattern_size) { return std::has_single_bit(pattern_size) && pattern_size <= kMaxDriverPattern; }

// What a fill's commands read, kept with its event: the pattern itself when the driver fills with it; otherwise
// whole patterns staged in host memory, about 64 KiB of them (all of `run` if shorter), which copies lay down one
// after another.
std::vector<uint8_t> fill_source(const void *pattern, size_t pattern_size, size_t run) {
  const auto *bytes = static_cast<const uint8_t *>(pattern);
  if (driver_fills(pattern_size)) return std::vector<uint8_t>(bytes, bytes + pattern_size);
  constexpr size_t kStage = 64 * 1024;
  const size_t count = std::max<size_t>(1, std::min(run, kStage) / pattern_size);
  std::vector<uint8_t> staged(count * pattern_size);
  for (size_t at = 0; at < staged.size(); at += pattern_size) std::memcpy(staged.data() + at, bytes, pattern_size);
  return staged;
}

// Appends the commands filling `run` bytes from `dst` from `source` (fill_source), each waiting for what the
// command waits for and signalling nothing: one driver fill, or copies of the staged patterns, which write apart
// and need no order among themselves.
ze_result_t append_fill_run(ze_command_list_handle_t list, uint8_t *dst, size_t run, const std::vector<uint8_t> &source,
                            size_t pattern_size, uint32_t n, ze_event_handle_t *w) {
  if (driver_fills(pattern_size))
    return zeCommandListAppendMemoryFill(list, dst, source.data(), pattern_size, run, nullptr, n, w);
  for (size_t at = 0; at < run; at += source.size())
    if (ze_result_t r = zeCommandListAppendMemoryCopy(list, dst + at, source.data(), std::min(source.size(), run - at),
                                                      nullptr, n, w);
        r != ZE_RESULT_SUCCESS)
      return r;
  return ZE_RESULT_SUCCESS;
}

const char *fill_call(size_t pattern_size) {
  return driver_fills(pattern_size) ? "zeCommandListAppendMemoryFill" : "zeCommandListAppendMemoryCopy";
}
} // namespace

Result<Ref<Event>> Queue::fill(void *ptr, const void *pattern, size_t pattern_size, size_t size,
                               std::span<Event *const> wait, Command command) {
  if (Status s = check_fill(ptr, pattern, pattern_size, size, size, "memory fill"); !s.ok())
    return std::move(s).error();
  // The spec does not say the driver copies the pattern at append, so what the commands read lives with the event
  // until the fill is complete. One driver fill signals the event itself; staged copies, a barrier after them.
  std::vector<uint8_t> source = fill_source(pattern, pattern_size, size);
  auto event = submit(command, wait, fill_call(pattern_size),
                      [&](ze_command_list_handle_t l, ze_event_handle_t sig, uint32_t n, ze_event_handle_t *w) {
                        if (driver_fills(pattern_size))
                          return zeCommandListAppendMemoryFill(l, ptr, source.data(), pattern_size, size, sig, n, w);
                        if (ze_result_t r = append_fill_run(l, static_cast<uint8_t *>(ptr), size, source, pattern_size,
                                                            n, w);
                            r != ZE_RESULT_SUCCESS)
                          return r;
                        return zeCommandListAppendBarrier(l, sig, 0, nullptr);
                      });
  if (event.ok()) event.value()->keep_alive(std::move(source));
  return event;
}

Result<Ref<Event>> Queue::fill_rect(void *first, size_t pitch, const void *pattern, size_t pattern_size, size_t width,
                                    size_t height, std::span<Event *const> wait, Command command) {
  if (pitch == width || height == 1) return fill(first, pattern, pattern_size, width * height, wait, command);
  size_t span = 0;
  if (width == 0 || height == 0 || pitch < width || __builtin_mul_overflow(height - 1, pitch, &span) ||
      __builtin_add_overflow(span, width, &span))
    return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                      fmt::format("rectangular fill: {} rows of {} bytes, {} apart, are not rows of memory (none may "
                                  "be 0, a row may not be wider than the pitch, nor the rows overflow the address space)",
                                  height, width, pitch));
  // Each row is filled from the pattern's start, so the pattern must divide the width.
  if (Status s = check_fill(first, pattern, pattern_size, width, span, "rectangular fill"); !s.ok())
    return std::move(s).error();
  std::vector<uint8_t> source = fill_source(pattern, pattern_size, width);
  auto *rows = static_cast<uint8_t *>(first);
  // The commands of each row, each waiting for what the command waits for; a barrier after them signals the
  // command's event once every earlier command of the list, the rows among them, is done.
  auto event = submit(command, wait, fill_call(pattern_size),
                      [&](ze_command_list_handle_t l, ze_event_handle_t sig, uint32_t n, ze_event_handle_t *w) {
                        for (size_t row = 0; row < height; ++row)
                          if (ze_result_t r = append_fill_run(l, rows + row * pitch, width, source, pattern_size, n, w);
                              r != ZE_RESULT_SUCCESS)
                            return r;
                        return zeCommandListAppendBarrier(l, sig, 0, nullptr);
                      });
  if (event.ok()) event.value()->keep_alive(std::move(source));
  return event;
}

Result<Ref<Event>> Queue::barrier(Command command, std::span<Event *const> wait) {
  // Without a wait list the command waits for everything submitted before it.
  WaitList waits;
  std::vector<Ref<Event>> before;
  if (wait.empty()) before = outstanding();
  for (Event *e : wait) waits.push(e);
  for (auto &e : before) waits.push(e.get());
  return submit(command, waits.events(), "zeCommandListAppendBarrier",
                [](ze_command_list_handle_t l, ze_event_handle_t sig, uint32_t n, ze_event_handle_t *w) {
                  return zeCommandListAppendBarrier(l, sig, n, w);
                });
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
