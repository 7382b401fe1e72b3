// What the stress program's faces share: the work of each round and how its result is checked.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace zeal::stress {

// Elements per launch: small, so that the run measures the launch path rather than the kernel.
constexpr size_t elements = 256;

// Thread t's input: what every one of its launches reads.
inline int input_value(unsigned thread, size_t i) { return int(thread * 1000 + i); }

// One round of one thread: out[i] = in[i] * a + b, on its own queue or a shared one, the input copied again or not.
struct Round {
  unsigned thread, round;
  int a, b;
  bool on_shared, recopy;
};
inline Round make_round(unsigned thread, unsigned round) {
  return {thread, round, int(thread * 131 + round % 97 + 1), int(round), round % 4 == 3, round % 5 == 0};
}

// The failures seen, counted, and the first one's sentence.
class Failures {
public:
  void add(const std::string &what);
  bool none() const { return count_.load(std::memory_order_relaxed) == 0; }
  size_t count() const { return count_.load(); }
  std::string first() {
    std::lock_guard lock(mutex_);
    return first_;
  }

private:
  std::mutex mutex_;
  std::atomic<size_t> count_{0};
  std::string first_;
};
Failures &failures();

// Launches whose results were checked.
inline std::atomic<unsigned long> &launches() {
  static std::atomic<unsigned long> n{0};
  return n;
}

std::vector<uint8_t> read_spirv(const char *name); // from ZEAL_STRESS_KERNEL_DIR; empty when missing
bool check_round(const int *out, const Round &r, const char *face); // adds a failure when wrong

// The UR face; false when this build has none (no UR SDK).
bool run_ur(unsigned threads, unsigned rounds);

} // namespace zeal::stress
