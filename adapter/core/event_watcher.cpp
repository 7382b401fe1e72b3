// The watcher thread: waits for each watched event in turn, in short slices so that the process can end while
// an event never completes.
#include "adapter/core/event_watcher.hpp"

namespace zeal::adapter {

EventWatcher &EventWatcher::instance() {
  static EventWatcher watcher;
  return watcher;
}

EventWatcher::EventWatcher() : thread_(WorkThread<Watch>::AtStop::kDrop, [this](Watch &w) { watch(w); }) {}

EventWatcher::~EventWatcher() = default;

void EventWatcher::when_complete(Ref<Event> event, std::function<void()> then) {
  thread_.post(Watch{std::move(event), std::move(then)});
}

void EventWatcher::watch(Watch &watch) {
  constexpr uint64_t kSliceNs = 1'000'000; // 1 ms: how late a stop is noticed
  for (;;) {
    auto done = watch.event->wait_for(kSliceNs);
    if (!done.ok() || done.value()) break; // a failed event has reached its last state too
    if (thread_.stopping()) return;
  }
  watch.then();
}

} // namespace zeal::adapter
