// Calls a function once an event has completed, from one watcher thread: UR's event callbacks.
#pragma once

#include "adapter/core/event.hpp"

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

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
  void run();

  struct Watch {
    Ref<Event> event;
    std::function<void()> then;
  };
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Watch> watches_;
  bool stopping_ = false;
  std::thread thread_;
};

} // namespace zeal::adapter
