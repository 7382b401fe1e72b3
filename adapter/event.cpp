// Events: waiting, status and kernel-timestamp profiling.
#include "adapter/event.hpp"

#include <limits>

namespace zeal::adapter {

Result<Ref<Event>> Event::create(Context &context, const Device &device, bool profiling) {
  auto taken = context.event_pools(profiling).take();
  if (!taken.ok()) return std::move(taken).error();
  auto &[event, slot] = taken.value();
  return Ref<Event>(new Event(Ref<Context>(&context), device, profiling, std::move(event), slot), false);
}

Event::~Event() {
  // The device may still signal the event: destroying it first would be a use after free in the driver.
  if (submitted_) (void)zeEventHostSynchronize(event_.get(), std::numeric_limits<uint64_t>::max());
  event_.reset();
  context_->event_pools(profiling_).give_back(slot_);
}

Status Event::wait() const {
  return ze_check(zeEventHostSynchronize(event_.get(), std::numeric_limits<uint64_t>::max()),
                  "zeEventHostSynchronize", fmt::format("event {}", static_cast<const void *>(this)));
}

Result<bool> Event::complete() const {
  ze_result_t r = zeEventQueryStatus(event_.get());
  if (r == ZE_RESULT_NOT_READY) return false;
  if (Status s = ze_check(r, "zeEventQueryStatus"); !s.ok()) return std::move(s).error();
  return true;
}

// Kernel timestamps count device ticks of timerResolution ns (the 1.0 meaning of
// the field, which is what ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES asks for), and
// wrap after kernelTimestampValidBits bits.
Result<uint64_t> Event::timestamp_ns(bool end) const {
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

Result<InfoValue> Event::info(zeal_event_info_t key) const {
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
                    fmt::format("event info key {} is not known to the adapter", static_cast<int>(key)));
}

} // namespace zeal::adapter
