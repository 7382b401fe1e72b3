// A submission thread: runs batches of commands in order, one after another, off the caller's thread.
#pragma once

#include "cpu_driver/runtime/command.hpp"

#include "cpu_driver/runtime/thread_pool.hpp"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace zeal::cpu {

class DeviceHealth;
class Signal;

class Executor {
public:
  using Batch = std::shared_ptr<const std::vector<Command>>;

  // A low-priority queue's thread also runs at a lower OS priority (nice 10), so that its copies and fills
  // yield the cores to other queues' work.
  // Commands run on `pool`; a kernel fault marks `health` lost, and from then on commands complete without running.
  Executor(ThreadPool &pool, DeviceHealth &health, ThreadPool::Priority priority = ThreadPool::Priority::normal);
  // Finishes what was submitted, then stops the thread.
  ~Executor();
  Executor(const Executor &) = delete;
  Executor &operator=(const Executor &) = delete;

  // Queues a batch; `done`, when given, is set after its last command.
  void submit(Batch batch, Signal *done = nullptr);
  // Waits until everything submitted so far has run; false on timeout (0 = just look).
  bool synchronize(uint64_t timeout_ns);
  const DeviceHealth &health() const { return health_; }

private:
  struct Item {
    Batch batch;
    Signal *done;
  };
  void loop();

  ThreadPool &pool_;
  DeviceHealth &health_;
  ThreadPool::Priority priority_;
  std::mutex mutex_;
  std::condition_variable work_cv_;
  std::condition_variable idle_cv_;
  std::deque<Item> items_;
  uint64_t submitted_ = 0; // batches queued so far
  uint64_t completed_ = 0; // batches run so far
  bool stop_ = false;
  std::thread thread_; // last: starts once everything above exists
};

} // namespace zeal::cpu
