// Events: waiting, status and kernel-timestamp profiling.
#include "adapter/core/event.hpp"
#include "adapter/core/queue.hpp"

#include <limits>
#include <mutex>
#include <unordered_map>

namespace zeal::adapter {

Result<Ref<Event>> Event::create(Context &context, const Device &device, bool profiling) {
  auto taken = context.event_pools(profiling).take();
  if (!taken.ok()) return std::move(taken).error();
  auto &[event, slot] = taken.value();
  return Ref<Event>(new Event(Ref<Context>(&context), device, profiling, std::move(event), slot), false);
}

Result<Ref<Event>> Event::create(Queue &queue, Command command) {
  auto event = create(queue.context(), queue.device(), queue.profiling());
  if (event.ok()) {
    event.value()->queue_ = &queue;
    event.value()->command_ = command;
  }
  return event;
}

Result<Ref<Event>> Event::create_complete(Context &context) {
  auto event = create(context, *context.devices().front(), false);
  if (!event.ok()) return event;
  if (Status s = ze_check(zeEventHostSignal(event.value()->ze()), "zeEventHostSignal", "a complete event"); !s.ok())
    return std::move(s).error();
  event.value()->mark_complete();
  return event;
}

Result<Ref<Event>> Event::create_reusable(Context &context, const Device &device, bool profiling, Command command) {
  auto event = create(context, device, profiling);
  if (event.ok()) {
    event.value()->reusable_ = true;
    event.value()->command_ = command;
  }
  return event;
}

namespace {
// The UR handles of live signalable events (Event::signalable_by_ur_handle).
std::mutex g_signalable_mutex;
std::unordered_map<const void *, Event *> g_signalable;

Ref<Event> listed_signalable(Ref<Event> event) {
  std::lock_guard lock(g_signalable_mutex);
  g_signalable.emplace(&event->ur_handle(), event.get());
  return event;
}
} // namespace

Event *Event::signalable_by_ur_handle(const void *handle) {
  std::lock_guard lock(g_signalable_mutex);
  auto found = g_signalable.find(handle);
  return found != g_signalable.end() ? found->second : nullptr;
}

Result<Ref<Event>> Event::create_signalable(Context &context, const Device &device, bool profiling, bool ipc) {
  if (!ipc) {
    auto event = create_reusable(context, device, profiling, Command::Barrier);
    if (!event.ok()) return event;
    event.value()->signalable_ = true;
    return listed_signalable(std::move(event).value());
  }
  if (profiling)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      "an event shared with other processes (IPC) cannot also record profiling timestamps");
  auto desc = ze_desc<ze_event_pool_desc_t>();
  desc.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC;
  desc.count = 1;
  ze_device_handle_t ze_device = device.ze();
  ze_event_pool_handle_t pool = nullptr;
  if (Status s = ze_check(zeEventPoolCreate(context.ze(), &desc, 1, &ze_device, &pool), "zeEventPoolCreate",
                          "an IPC event pool");
      !s.ok())
    return std::move(s).error();
  auto made = in_own_pool(context, device, OwnPool(pool, zeEventPoolDestroy), "an IPC event");
  if (!made.ok()) return made;
  made.value()->reusable_ = true;
  made.value()->signalable_ = true;
  made.value()->command_ = Command::Barrier;
  return listed_signalable(std::move(made).value());
}

Result<Ref<Event>> Event::in_own_pool(Context &context, const Device &device, OwnPool pool, const char *what) {
  auto desc = ze_desc<ze_event_desc_t>();
  desc.signal = ZE_EVENT_SCOPE_FLAG_HOST;
  desc.wait = ZE_EVENT_SCOPE_FLAG_HOST;
  ze_event_handle_t event = nullptr;
  if (Status s = ze_check(zeEventCreate(pool.get(), &desc, &event), "zeEventCreate", what); !s.ok())
    return std::move(s).error();
  Ref<Event> made(new Event(Ref<Context>(&context), device, false, ZeEvent(event), EventPools::Slot{}), false);
  made->own_pool_ = std::move(pool);
  return made;
}

Result<Ref<Event>> Event::open_ipc(Context &context, const ze_ipc_event_pool_handle_t &handle) {
  ze_event_pool_handle_t pool = nullptr;
  if (Status s = ze_check(zeEventPoolOpenIpcHandle(context.ze(), handle, &pool), "zeEventPoolOpenIpcHandle",
                          "an IPC event handle");
      !s.ok())
    return std::move(s).error();
  auto made = in_own_pool(context, *context.devices().front(), OwnPool(pool, zeEventPoolCloseIpcHandle),
                          "the event of an IPC handle");
  if (!made.ok()) return made;
  made.value()->opened_ = true;
  made.value()->reusable_ = true; // another process may reset and signal it again
  return made;
}

Result<ze_ipc_event_pool_handle_t> Event::ipc_handle() const {
  if (!own_pool_ || opened_)
    return make_error(ZEAL_RESULT_ERROR_INVALID_HANDLE,
                      opened_ ? "the event was opened from an IPC handle; only the event that made the handle exports it"
                              : "the event was not made to be shared with other processes (UR_EXP_EVENT_FLAG_IPC_EXP)");
  ze_ipc_event_pool_handle_t handle{};
  if (Status s = ze_check(zeEventPoolGetIpcHandle(own_pool_.get(), &handle), "zeEventPoolGetIpcHandle", "an IPC event");
      !s.ok())
    return std::move(s).error();
  return handle;
}

Result<Ref<Event>> Event::adopt(Context &context, ze_event_handle_t event, bool owned) {
  if (event == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_HANDLE, "event adopt: the native Level Zero event is null");
  // One question the driver must answer for an event of its own: a handle it does not know fails here.
  const ze_result_t status = zeEventQueryStatus(event);
  if (status != ZE_RESULT_SUCCESS && status != ZE_RESULT_NOT_READY)
    return ze_check(status, "zeEventQueryStatus", "the native event").error();
  Ref<Event> adopted(new Event(Ref<Context>(&context), *context.devices().front(), false, ZeEvent(event),
                               EventPools::Slot{}),
                     false);
  adopted->owns_event_ = owned;
  // An event of one of the context's own commands (a round trip through the native handle) answers with the
  // command's queue and kind.
  context.describe_handed_out(event, [&](const Event &original) {
    adopted->queue_ = original.queue_;
    adopted->command_ = original.command_;
  });
  return adopted;
}

ze_event_handle_t Event::hand_out() {
  if (!handed_out_.exchange(true)) context_->remember_handed_out(event_.get(), this);
  return event_.get();
}

Event::~Event() {
  if (signalable_) {
    std::lock_guard lock(g_signalable_mutex);
    g_signalable.erase(&ur_handle());
  }
  if (handed_out_.load()) context_->forget_handed_out(event_.get(), this);
  if (slot_.pool == nullptr) { // adopted: its maker signals and reuses it
    // An event in a pool of its own (IPC) goes with its pool: a command that still signals it must run first.
    if (own_pool_ && submitted_) (void)zeEventHostSynchronize(event_.get(), std::numeric_limits<uint64_t>::max());
    if (!owns_event_) (void)event_.release();
    return;
  }
  // The device may still signal the event: reusing it first would let that signal land on the next command.
  if (submitted_ && !known_complete_.load(std::memory_order_acquire))
    (void)zeEventHostSynchronize(event_.get(), std::numeric_limits<uint64_t>::max());
  if (recorded_ != nullptr) (void)zeMemFree(context_->ze(), recorded_);
  context_->event_pools(profiling_).give_back(std::move(event_), slot_);
}

namespace {
// The free list of Event storage: an intrusive singly linked list through the
// freed blocks, so pushing and popping never allocates.
struct FreeBlock {
  FreeBlock *next;
};
std::mutex g_free_mutex;
FreeBlock *g_free = nullptr;
size_t g_free_count = 0;
} // namespace

void Event::reserve_storage(size_t count) {
  std::lock_guard lock(g_free_mutex);
  for (; g_free_count < count; ++g_free_count) g_free = new (::operator new(sizeof(Event))) FreeBlock{g_free};
}

void *Event::operator new(size_t size) {
  static_assert(sizeof(Event) >= sizeof(FreeBlock));
  if (size == sizeof(Event)) {
    std::lock_guard lock(g_free_mutex);
    if (g_free != nullptr) {
      --g_free_count;
      return std::exchange(g_free, g_free->next);
    }
  }
  return ::operator new(size);
}

void Event::operator delete(void *p) noexcept {
  if (p == nullptr) return;
  std::lock_guard lock(g_free_mutex);
  g_free = new (p) FreeBlock{g_free};
  ++g_free_count;
}

void Event::hold_waits(std::span<Event *const> waits, Event *previous) {
  size_t n = 0;
  auto hold = [&](Event *e) {
    if (n < kInlineWaits) inline_waits_[n] = Ref<Event>(e);
    else more_waits_.emplace_back(e);
    ++n;
  };
  for (Event *e : waits) hold(e);
  if (previous != nullptr) hold(previous);
}

void Event::drop_waits() {
  for (auto &w : inline_waits_) w = Ref<Event>();
  more_waits_.clear();
}

Status Event::wait() const {
  auto done = wait_for(std::numeric_limits<uint64_t>::max());
  if (!done.ok()) return std::move(done).error();
  if (done.value()) return {};
  return ze_check(ZE_RESULT_NOT_READY, "zeEventHostSynchronize", fmt::format("event {}", static_cast<const void *>(this)));
}

Result<bool> Event::wait_for(uint64_t ns) const {
  if (known_complete_.load(std::memory_order_acquire)) return true;
  ze_result_t r = zeEventHostSynchronize(event_.get(), ns);
  if (r == ZE_RESULT_NOT_READY) return false;
  if (r != ZE_RESULT_SUCCESS) // the message is only made on failure: queueFinish must not allocate
    return ze_check(r, "zeEventHostSynchronize", fmt::format("event {}", static_cast<const void *>(this))).error();
  if (!reusable_) known_complete_.store(true, std::memory_order_release);
  return true;
}

Result<bool> Event::complete() const {
  if (known_complete_.load(std::memory_order_acquire)) return true;
  ze_result_t r = zeEventQueryStatus(event_.get());
  if (r == ZE_RESULT_NOT_READY) return false;
  if (Status s = ze_check(r, "zeEventQueryStatus"); !s.ok()) return std::move(s).error();
  if (!reusable_) known_complete_.store(true, std::memory_order_release);
  return true;
}

// Kernel timestamps count device ticks of timerResolution ns (the 1.0 meaning of
// the field, which is what ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES asks for), and
// wrap after kernelTimestampValidBits bits.
Result<uint64_t> Event::timestamp_ns(bool end) const {
  if (recorded_ != nullptr) { // a timestamp recording: one device time, start and end
    auto done = complete();
    if (!done.ok()) return std::move(done).error();
    if (!done.value())
      return make_error(ZEAL_RESULT_NOT_READY,
                        fmt::format("timestamp recording {} has not run yet", static_cast<const void *>(this)));
    return *recorded_ * device_.properties().timerResolution;
  }
  if (!profiling_)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("event {} has no profiling data: its queue was not created with "
                                  "ZEAL_QUEUE_FLAG_PROFILING",
                                  static_cast<const void *>(this)));
  auto done = complete();
  if (!done.ok()) return std::move(done).error();
  if (!done.value())
    return make_error(ZEAL_RESULT_NOT_READY,
                      fmt::format("event {} has not completed, so it has no profiling data yet",
                                  static_cast<const void *>(this)));
  ze_kernel_timestamp_result_t ts{};
  if (Status s = ze_check(zeEventQueryKernelTimestamp(event_.get(), &ts), "zeEventQueryKernelTimestamp"); !s.ok())
    return std::move(s).error();
  const auto &props = device_.properties();
  uint64_t start = ts.global.kernelStart;
  uint64_t stop = ts.global.kernelEnd;
  uint32_t bits = props.kernelTimestampValidBits;
  if (stop < start && bits > 0 && bits < 64) stop += uint64_t{1} << bits;
  return (end ? stop : start) * props.timerResolution;
}

Result<InfoValue> Event::info(int32_t key) const {
  switch (key) {
  case ZEAL_EVENT_INFO_STATUS: {
    auto done = complete();
    if (!done.ok()) return std::move(done).error();
    return info_of(done.value() ? ZEAL_EVENT_STATUS_COMPLETE : ZEAL_EVENT_STATUS_SUBMITTED);
  }
  case ZEAL_EVENT_INFO_PROFILING_START_NS:
  case ZEAL_EVENT_INFO_PROFILING_END_NS: {
    auto ns = timestamp_ns(key == ZEAL_EVENT_INFO_PROFILING_END_NS);
    if (!ns.ok()) return std::move(ns).error();
    return info_of<uint64_t>(ns.value());
  }
  }
  return make_error(ZEAL_RESULT_ERROR_INVALID_ENUMERATION,
                    fmt::format("event info key {} is not known to the adapter", key));
}

} // namespace zeal::adapter
