// Waiting on a condition variable for a Level Zero timeout, as both zeal drivers' host waits do.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace zeal::ze {

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

} // namespace zeal::ze
