// The worker pool: jobs are ranges handed out in chunks through an atomic counter.
#include "cpu_driver/runtime/thread_pool.hpp"

#include "common/own_thread.hpp"

#include <algorithm>
#include <atomic>
#include <cassert>

namespace zeal::cpu {

struct ThreadPool::Job {
  const std::function<void(uint64_t, uint64_t)> *body;
  uint64_t count;
  uint64_t chunk;
  Priority priority;
  std::atomic<uint64_t> next{0};
  std::atomic<uint64_t> done{0};
  unsigned workers = 0; // workers inside run_chunks; guarded by mutex_

  // The job lives on the caller's stack: it may only return once no worker can touch it.
  bool finished() const { return done.load() == count && workers == 0; }
  bool exhausted() const { return next.load() >= count; }
};

ThreadPool::ThreadPool(unsigned threads) {
  assert(threads >= 1);
  workers_.reserve(threads - 1);
  for (unsigned i = 1; i < threads; ++i) workers_.push_back(start_own_thread([this] { worker_loop(); }));
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (std::thread &t : workers_) t.join();
}

bool ThreadPool::run_chunks(Job &job) {
  const int mine = int(job.priority);
  for (;;) {
    if (top_.load(std::memory_order_relaxed) > mine) return false;
    uint64_t begin = job.next.fetch_add(job.chunk);
    if (begin >= job.count) return true;
    uint64_t end = std::min(job.count, begin + job.chunk);
    (*job.body)(begin, end);
    job.done.fetch_add(end - begin);
  }
}

void ThreadPool::update_top() { top_.store(jobs_.empty() ? -1 : int(jobs_.front()->priority)); }

void ThreadPool::forget(Job &job) {
  auto it = std::find(jobs_.begin(), jobs_.end(), &job);
  if (it != jobs_.end()) jobs_.erase(it);
  update_top();
}

void ThreadPool::work_on(Job &job, std::unique_lock<std::mutex> &lock) {
  ++job.workers;
  lock.unlock();
  // Back to the queue when a higher job arrives: the front is then that one.
  bool exhausted = run_chunks(job);
  lock.lock();
  if (exhausted) forget(job);
  --job.workers;
  if (job.finished()) done_cv_.notify_all();
}

bool ThreadPool::help_higher(Priority priority) {
  std::unique_lock lock(mutex_);
  if (jobs_.empty() || jobs_.front()->priority <= priority) return false;
  work_on(*jobs_.front(), lock);
  return true;
}

void ThreadPool::worker_loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    work_cv_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
    if (stop_) return;
    work_on(*jobs_.front(), lock);
  }
}

void ThreadPool::parallel_for(uint64_t count, const std::function<void(uint64_t, uint64_t)> &body,
                              Priority priority) {
  if (count == 0) return;
  // Sixteen chunks per thread: when another process takes a core for a while
  // (or work-groups are uneven), the others are left at most a sixteenth of
  // their share to wait for, and the counter is still touched rarely.
  uint64_t chunk = std::max<uint64_t>(1, count / (uint64_t{threads()} * 16));
  if (workers_.empty() || count <= chunk) {
    body(0, count);
    return;
  }
  Job job{&body, count, chunk, priority};
  {
    std::lock_guard lock(mutex_);
    auto after = std::find_if(jobs_.begin(), jobs_.end(), [&](const Job *j) { return j->priority < priority; });
    jobs_.insert(after, &job);
    update_top();
  }
  work_cv_.notify_all();
  // Between chunks of its own job, the caller works on any job that outranks it.
  while (!run_chunks(job)) help_higher(priority);
  std::unique_lock lock(mutex_);
  forget(job);
  done_cv_.wait(lock, [&] { return job.finished(); });
}

} // namespace zeal::cpu
