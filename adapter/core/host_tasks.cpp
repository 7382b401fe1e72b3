// The host-task thread of a queue: waits for each task's start event, calls the task, signals its event.
#include "adapter/core/host_tasks.hpp"

#include "common/log.hpp"

#include <fmt/format.h>

namespace zeal::adapter {

HostTasks::HostTasks() : thread_(WorkThread<Task>::AtStop::kDrain, execute) {}

HostTasks::~HostTasks() = default;

void HostTasks::post(Ref<Event> start, Ref<Event> done, HostFunction function, void *data) {
  thread_.post(Task{std::move(start), std::move(done), function, data});
}

void HostTasks::execute(Task &task) {
  // A start event that failed (the device was lost) still releases what waits for the task, but the task, whose
  // inputs were never produced, does not run.
  if (Status s = task.start->wait(); s.ok()) {
    try {
      task.function(task.data);
    } catch (...) {
      // A C callback should not throw; one that does must not end the process from zeal's thread.
      logger("zeal-adapter").error("host task {}: the function threw an exception, which zeal ignores",
                 reinterpret_cast<void *>(task.function));
    }
  } else {
    logger("zeal-adapter").error("host task {} not run: {}", reinterpret_cast<void *>(task.function), s.error().message);
  }
  if (ze_result_t r = zeEventHostSignal(task.done->ze()); r != ZE_RESULT_SUCCESS)
    logger("zeal-adapter").error("host task {}: zeEventHostSignal failed ({:#x}); what waits for the task will not be released",
               reinterpret_cast<void *>(task.function), static_cast<uint32_t>(r));
}

} // namespace zeal::adapter
