// A host-waitable flag with timeouts, the state shared by events, fences and queue synchronization.
#pragma once

#include <atomic>
#include <cstdint>

namespace zeal::cpu {

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
