// A host-waitable flag with timeouts, the state shared by events, fences and queue synchronization.
#pragma once

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

class Signal {
public:
  void set() {
    {
      std::lock_guard lock(mutex_);
      set_ = true;
    }
    cv_.notify_all();
  }
  void reset() {
    std::lock_guard lock(mutex_);
    set_ = false;
  }
  bool is_set() const {
    std::lock_guard lock(mutex_);
    return set_;
  }
  // True once set; false when the timeout passed first.
  bool wait(uint64_t timeout_ns) const {
    std::unique_lock lock(mutex_);
    return wait_for_ns(cv_, lock, timeout_ns, [this] { return set_; });
  }

private:
  mutable std::mutex mutex_;
  mutable std::condition_variable cv_;
  bool set_ = false;
};

} // namespace zeal::cpu
