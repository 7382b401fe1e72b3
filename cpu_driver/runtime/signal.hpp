// A host-waitable flag with timeouts, the state shared by events, fences and queue synchronization.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace zeal::cpu {

// Waits on `cv` until `ready()` or the Level Zero timeout passes: UINT64_MAX
// waits forever, 0 only looks. Returns ready().
template <class Ready>
bool wait_for_ns(std::condition_variable &cv, std::unique_lock<std::mutex> &lock, uint64_t timeout_ns,
                 Ready ready) {
  if (timeout_ns == UINT64_MAX) {
    cv.wait(lock, ready);
    return true;
  }
  if (timeout_ns == 0) return ready();
  // A timeout in the centuries would overflow steady_clock; anything past a year is "forever".
  constexpr uint64_t year_ns = 365ull * 24 * 3600 * 1'000'000'000ull;
  if (timeout_ns > year_ns) {
    cv.wait(lock, ready);
    return true;
  }
  return cv.wait_for(lock, std::chrono::nanoseconds(timeout_ns), ready);
}

// A flag in one 32-bit word, waited for with a Linux futex. It holds no pointer and no process-private state, so
// it also works in memory shared between processes (an IPC event pool's slots): one process sets what another
// waits for. The word is 0 (clear), 1 (set) or 2 (clear, and someone may sleep on it).
class Signal {
public:
  Signal() = default;
  Signal(const Signal &) = delete;
  Signal &operator=(const Signal &) = delete;

  void set();
  // Clears a set flag; a clear one, with or without sleepers, stays as it is.
  void reset();
  bool is_set() const { return word_.load(std::memory_order_acquire) == set_state; }
  // True once set; false when the timeout passed first (UINT64_MAX waits forever, 0 only looks).
  bool wait(uint64_t timeout_ns) const;

private:
  static constexpr uint32_t clear_state = 0, set_state = 1, waited_state = 2;
  mutable std::atomic<uint32_t> word_{clear_state};
};
static_assert(sizeof(Signal) == sizeof(uint32_t) && std::atomic<uint32_t>::is_always_lock_free,
              "a Signal must be one lock-free word to live in memory shared between processes");

} // namespace zeal::cpu
