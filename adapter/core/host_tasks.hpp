// A queue's host tasks: functions of the application that run on the host in the queue's order, one at a time, on
// one thread of the queue's (UR's urEnqueueHostTaskExp, SYCL's host_task).
#pragma once

#include "adapter/core/event.hpp"
#include "adapter/core/work_thread.hpp"

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
  static void execute(Task &task);

  WorkThread<Task> thread_;
};

} // namespace zeal::adapter
