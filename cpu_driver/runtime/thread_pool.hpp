// The driver's shared worker threads, which run the work-groups of every kernel launch.
#pragma once

#include <atomic>
#include <cstdint>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace zeal::cpu {

class ThreadPool {
public:
  // A command queue's priority (ze_command_queue_priority_t): the pool runs chunks of the highest-priority jobs
  // first, and a thread working on a lower one moves to a higher one between chunks.
  enum class Priority : uint8_t { low = 0, normal = 1, high = 2 };

  // `threads` counts the caller of parallel_for too: the pool starts threads - 1 workers.
  explicit ThreadPool(unsigned threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }

  // Calls body(begin, end) over chunks covering [0, count) on the workers and
  // the calling thread; returns when every chunk has run. Several threads may
  // call it at once (one per command queue): their jobs share the workers, highest priority first. A caller
  // whose job is outranked helps the higher one between chunks of its own.
  void parallel_for(uint64_t count, const std::function<void(uint64_t begin, uint64_t end)> &body,
                    Priority priority = Priority::normal);

private:
  struct Job;
  void worker_loop();
  // Runs chunks of `job` until none is left (true) or a job of higher priority waits (false).
  bool run_chunks(Job &job);
  // Runs chunks of `job` (a queued one) until it is exhausted or outranked; `lock` holds mutex_ before and after.
  void work_on(Job &job, std::unique_lock<std::mutex> &lock);
  // Runs chunks of the queue's front job if it outranks `priority`; false when none does.
  bool help_higher(Priority priority);
  void forget(Job &job); // drops an exhausted job from the queue; needs mutex_
  void update_top();     // needs mutex_

  std::mutex mutex_;
  std::condition_variable work_cv_; // workers wait for jobs
  std::condition_variable done_cv_; // callers wait for their job's last chunk and worker
  std::deque<Job *> jobs_;  // highest priority first, then in arrival order
  std::atomic<int> top_{-1}; // the front job's priority, -1 for none: read between chunks without the lock
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

} // namespace zeal::cpu
