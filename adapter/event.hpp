// A zeal event: one Level Zero event from its context's pools, signalled by one command.
#pragma once

#include "adapter/context.hpp"
#include "adapter/info.hpp"

namespace zeal::adapter {

class Event : public Object {
public:
  static constexpr Kind kKind = Kind::Event;

  static Result<Ref<Event>> create(Context &context, const Device &device, bool profiling);
  ~Event() override;

  ze_event_handle_t ze() const { return event_.get(); }
  // Called once the command that signals the event has been appended.
  void mark_submitted() { submitted_ = true; }
  // Host bytes the command reads (a fill pattern) kept until the event is gone.
  void keep_alive(std::vector<uint8_t> bytes) { keep_alive_ = std::move(bytes); }
  // The events this event's command waits for: a driver may read them until the
  // command has run, even after they completed, so they live at least that long.
  void hold_waits(std::vector<Ref<Event>> waits) { waits_ = std::move(waits); }
  void drop_waits() { waits_.clear(); }

  Status wait() const;
  Result<bool> complete() const;
  Result<InfoValue> info(zeal_event_info_t key) const;

private:
  Event(Ref<Context> context, const Device &device, bool profiling, ZeEvent event, EventPools::Slot slot)
      : Object(kKind), context_(std::move(context)), device_(device), profiling_(profiling),
        event_(std::move(event)), slot_(slot) {}
  Result<uint64_t> timestamp_ns(bool end) const;

  Ref<Context> context_;
  const Device &device_;
  bool profiling_;
  ZeEvent event_;
  EventPools::Slot slot_;
  bool submitted_ = false;
  std::vector<uint8_t> keep_alive_;
  std::vector<Ref<Event>> waits_;
};

} // namespace zeal::adapter
