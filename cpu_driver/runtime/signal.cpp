// Signal (signal.hpp) on Linux futexes. The futex calls are the shared (not FUTEX_PRIVATE) kind, because the word
// may be in memory several processes map.
#include "cpu_driver/runtime/signal.hpp"

#include <cerrno>
#include <climits>
#include <ctime>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace zeal::cpu {
namespace {

// Sleeps while *word == expected, until woken or the CLOCK_MONOTONIC `deadline` (null: none) passes.
void futex_wait(std::atomic<uint32_t> &word, uint32_t expected, const timespec *deadline) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&word), FUTEX_WAIT_BITSET, expected, deadline, nullptr,
          FUTEX_BITSET_MATCH_ANY);
}

void futex_wake_all(std::atomic<uint32_t> &word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&word), FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

timespec deadline_after(uint64_t timeout_ns) {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  uint64_t ns = uint64_t(now.tv_nsec) + timeout_ns % 1'000'000'000ull;
  timespec at{};
  at.tv_sec = now.tv_sec + time_t(timeout_ns / 1'000'000'000ull) + time_t(ns / 1'000'000'000ull);
  at.tv_nsec = long(ns % 1'000'000'000ull);
  return at;
}

bool passed(const timespec &deadline) {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec > deadline.tv_sec || (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec);
}

} // namespace

void Signal::set() {
  // Release: what the setter wrote before (an event's timestamps, a kernel's results) is seen by whoever sees
  // the flag set.
  if (word_.exchange(set_state, std::memory_order_acq_rel) == waited_state) futex_wake_all(word_);
}

void Signal::reset() {
  uint32_t expected = set_state;
  word_.compare_exchange_strong(expected, clear_state, std::memory_order_acq_rel);
}

bool Signal::wait(uint64_t timeout_ns) const {
  if (is_set()) return true;
  if (timeout_ns == 0) return false;
  // A timeout past a year is "forever", as is UINT64_MAX (and a deadline that far would overflow time_t math).
  constexpr uint64_t year_ns = 365ull * 24 * 3600 * 1'000'000'000ull;
  const bool forever = timeout_ns > year_ns;
  const timespec deadline = forever ? timespec{} : deadline_after(timeout_ns);
  for (;;) {
    uint32_t state = word_.load(std::memory_order_acquire);
    if (state == set_state) return true;
    if (!forever && passed(deadline)) return false;
    // Say that someone sleeps, so that set() wakes us; the futex call returns at once if the word moved on.
    if (state == clear_state &&
        !word_.compare_exchange_weak(state, waited_state, std::memory_order_acq_rel, std::memory_order_acquire))
      continue;
    futex_wait(word_, waited_state, forever ? nullptr : &deadline);
  }
}

} // namespace zeal::cpu
