// Calls a function once an event has completed, from one watcher thread: UR's event callbacks.
#pragma once

#include "adapter/core/event.hpp"
#include "adapter/core/work_thread.hpp"

#include <functional>

namespace zeal::adapter {

class EventWatcher {
public:
  // The process's watcher, started on first use.
  static EventWatcher &instance();
  ~EventWatcher();

  // `then` runs on the watcher thread once `event` completes (or fails); the watcher holds the event until then.
  void when_complete(Ref<Event> event, std::function<void()> then);

private:
  EventWatcher();

  struct Watch {
    Ref<Event> event;
    std::function<void()> then;
  };
  void watch(Watch &watch);

  // Watches not yet taken when the process ends are dropped: their events may never complete.
  WorkThread<Watch> thread_;
};

} // namespace zeal::adapter
