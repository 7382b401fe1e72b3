// The submission thread's loop and host synchronization with it.
#include "cpu_driver/runtime/executor.hpp"

#include "common/own_thread.hpp"
#include "cpu_driver/runtime/fault.hpp"
#include "cpu_driver/runtime/signal.hpp"
#include "ze_driver/timed_wait.hpp"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace zeal::cpu {

Executor::Executor(ThreadPool &pool, DeviceHealth &health, ThreadPool::Priority priority)
    : pool_(pool), health_(health), priority_(priority), thread_(start_own_thread([this] {
        // Best effort: raising one's own nice value needs no privilege; a failure leaves the thread as it was.
        if (priority_ == ThreadPool::Priority::low) setpriority(PRIO_PROCESS, pid_t(syscall(SYS_gettid)), 10);
        loop();
      })) {}

Executor::~Executor() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  work_cv_.notify_one();
  thread_.join();
}

void Executor::submit(Batch batch, Signal *done) {
  {
    std::lock_guard lock(mutex_);
    items_.push_back({std::move(batch), done});
    ++submitted_;
  }
  work_cv_.notify_one();
}

bool Executor::synchronize(uint64_t timeout_ns) {
  std::unique_lock lock(mutex_);
  uint64_t target = submitted_;
  return ze::wait_for_ns(idle_cv_, lock, timeout_ns, [&] { return completed_ >= target; });
}

void Executor::loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    // Stopping drains the queue first: destroying a list or queue waits for its work.
    work_cv_.wait(lock, [this] { return stop_ || !items_.empty(); });
    if (items_.empty()) return;
    Item item = std::move(items_.front());
    items_.pop_front();
    lock.unlock();
    for (const Command &command : *item.batch) {
      if (health_.lost()) complete_on_lost_device(command);
      else execute(command, pool_, priority_, health_);
    }
    if (item.done != nullptr) item.done->set();
    item = {};
    lock.lock();
    ++completed_;
    idle_cv_.notify_all();
  }
}

} // namespace zeal::cpu
