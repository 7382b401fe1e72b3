// A queue's host tasks: functions of the application that run on the host in the queue's order, one at a time, on
// one thread of the queue's (UR's urEnqueueHostTaskExp, SYCL's host_task).
#pragma once

#include "adapter/core/event.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace zeal::adapter {

using HostFunction = void (*)(void *data);

class HostTasks {
public:
  HostTasks();
  // Runs what was posted before it returns: the queue finishes first, so nothing is left waiting.
  ~HostTasks();
  HostTasks(const HostTasks &) = delete;
  HostTasks &operator=(const HostTasks &) = delete;

  // Once `start` completes, `function(data)` runs; then `done` is signalled from the host. Tasks run in the order
  // they were posted, never two at once.
  void post(Ref<Event> start, Ref<Event> done, HostFunction function, void *data);

private:
  struct Task {
    Ref<Event> start;
    Ref<Event> done;
    HostFunction function = nullptr;
    void *data = nullptr;
  };
  void run();
  static void execute(const Task &task);

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Task> tasks_;
  bool stopping_ = false;
  std::thread thread_;
};

} // namespace zeal::adapter
