// The worker pool's priorities: once a higher-priority job is queued, the threads working on a lower one finish
// the chunk in hand and move to it; the lower job goes on when the higher one is done. No timing is asserted:
// the test counts which chunks began while the higher job was running.
#include "cpu_driver/runtime/thread_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

namespace zeal::cpu {
namespace {

void spin_for(std::chrono::microseconds d) {
  auto until = std::chrono::steady_clock::now() + d;
  while (std::chrono::steady_clock::now() < until) {
  }
}

TEST(ThreadPool, AHigherPriorityJobTakesTheThreadsOfALowerOne) {
  ThreadPool pool(3); // two workers and each caller
  std::atomic<uint64_t> clock{0};
  std::atomic<bool> low_running{false};
  std::atomic<uint64_t> high_first{UINT64_MAX}, high_last{0}; // the first and last high chunk's start
  std::mutex mutex;
  std::vector<uint64_t> low_starts;
  std::atomic<uint64_t> low_done{0}, high_done{0};

  std::thread low([&] {
    pool.parallel_for(
        3000, // 3000 chunks of about 100 us: well over the high job's lifetime
        [&](uint64_t begin, uint64_t end) {
          uint64_t at = clock.fetch_add(1);
          {
            std::lock_guard lock(mutex);
            low_starts.push_back(at);
          }
          low_running = true;
          spin_for(std::chrono::microseconds(100) * (end - begin));
          low_done += end - begin;
        },
        ThreadPool::Priority::low);
  });
  while (!low_running) std::this_thread::yield();
  pool.parallel_for(
      96,
      [&](uint64_t begin, uint64_t end) {
        uint64_t at = clock.fetch_add(1);
        uint64_t first = high_first.load();
        while (at < first && !high_first.compare_exchange_weak(first, at)) {
        }
        uint64_t last = high_last.load();
        while (at > last && !high_last.compare_exchange_weak(last, at)) {
        }
        spin_for(std::chrono::microseconds(2000) * (end - begin));
        high_done += end - begin;
      },
      ThreadPool::Priority::high);
  EXPECT_EQ(96u, high_done.load());
  low.join();
  EXPECT_EQ(3000u, low_done.load()) << "the low job still ran every chunk";

  // Each of the low job's three threads may have taken one chunk just as the high job was queued; no more may
  // begin until the high job's last chunk has begun (then the threads without one go back to the low job).
  size_t during = 0;
  for (uint64_t at : low_starts)
    if (at > high_first && at < high_last) ++during;
  EXPECT_LE(during, 3u) << "low-priority chunks kept starting while a high-priority job waited";
}

TEST(ThreadPool, JobsOfOnePriorityShareTheThreads) {
  ThreadPool pool(2);
  std::atomic<uint64_t> a{0}, b{0};
  std::thread other([&] {
    pool.parallel_for(500, [&](uint64_t begin, uint64_t end) { a += end - begin; });
  });
  pool.parallel_for(500, [&](uint64_t begin, uint64_t end) { b += end - begin; }, ThreadPool::Priority::normal);
  other.join();
  EXPECT_EQ(500u, a.load());
  EXPECT_EQ(500u, b.load());
}

} // namespace
} // namespace zeal::cpu
