// The driver's shared worker threads, which run the work-groups of every kernel launch.
#pragma once

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
  // `threads` counts the caller of parallel_for too: the pool starts threads - 1 workers.
  explicit ThreadPool(unsigned threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }

  // Calls body(begin, end) over chunks covering [0, count) on the workers and
  // the calling thread; returns when every chunk has run. Several threads may
  // call it at once (one per command queue): their jobs share the workers.
  void parallel_for(uint64_t count, const std::function<void(uint64_t begin, uint64_t end)> &body);

private:
  struct Job;
  void worker_loop();
  static void run_chunks(Job &job);
  void forget(Job &job); // drops an exhausted job from the queue; needs mutex_

  std::mutex mutex_;
  std::condition_variable work_cv_; // workers wait for jobs
  std::condition_variable done_cv_; // callers wait for their job's last chunk and worker
  std::deque<Job *> jobs_;
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

} // namespace zeal::cpu
