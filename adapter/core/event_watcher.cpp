// The watcher thread: waits for each watched event in turn, in short slices so that the process can end while
// an event never completes.
#include "adapter/core/event_watcher.hpp"

namespace zeal::adapter {

EventWatcher &EventWatcher::instance() {
  static EventWatcher watcher;
  return watcher;
}

EventWatcher::EventWatcher() : thread_([this] { run(); }) {}

EventWatcher::~EventWatcher() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void EventWatcher::when_complete(Ref<Event> event, std::function<void()> then) {
  {
    std::lock_guard lock(mutex_);
    watches_.push_back(Watch{std::move(event), std::move(then)});
  }
  wake_.notify_one();
}

void EventWatcher::run() {
  constexpr uint64_t kSliceNs = 1'000'000; // 1 ms: how late a stop is noticed
  for (;;) {
    Watch watch;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !watches_.empty(); });
      if (stopping_) return;
      watch = std::move(watches_.front());
      watches_.pop_front();
    }
    for (;;) {
      auto done = watch.event->wait_for(kSliceNs);
      if (!done.ok() || done.value()) break; // a failed event has reached its last state too
      std::lock_guard lock(mutex_);
      if (stopping_) return;
    }
    watch.then();
  }
}

} // namespace zeal::adapter
