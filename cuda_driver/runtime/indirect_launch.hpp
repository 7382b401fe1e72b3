// Indirect launches on the CUDA driver (zeCommandListAppendLaunchKernelIndirect, ...MultipleKernelsIndirect): the
// group counts lie in memory that commands before the launch may write, and CUDA takes launch dimensions from the
// host only. So the stream's place for the launch is a gate: the stream records where it is and waits for a gate
// word of the launch's own; the device's launcher thread watches every gate, and for each that its stream has
// reached reads the counts, launches the kernels on a stream of its own and then writes the word, which opens the
// gate. Nothing on the application's thread waits, so a launch whose wait list the host signals later works, the
// stream keeps its order, and gates of different streams open in whatever order their streams reach them.
#pragma once

#include "cuda_driver/runtime/kernel.hpp"

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace zeal::cuda {

// The kernels of one indirect command, their arguments as at the append; `count_at` (null: all of them) and
// `groups_at` (one group count per kernel) are read when the launches are made.
struct IndirectLaunches {
  std::vector<std::shared_ptr<Launch>> launches;
  const uint32_t *count_at = nullptr;
  const ze_group_count_t *groups_at = nullptr;
};

// One per device, made at its first indirect launch (and, like the driver, never destroyed).
class IndirectLauncher {
public:
  static IndirectLauncher &of(const Device &device);
  explicit IndirectLauncher(const Device &device) : device_(device) {}
  IndirectLauncher(const IndirectLauncher &) = delete;
  IndirectLauncher &operator=(const IndirectLauncher &) = delete;
  // Enqueues the gate on `stream` and hands the launches to the launcher thread (started at the first one).
  ze_result_t submit(CUstream stream, const IndirectLaunches &work);

private:
  // A word the device waits on: a gate opens when the word reaches its ticket. A word is another gate's once its
  // ticket write is enqueued (a later ticket of the same word is larger, and written after it on the same stream).
  struct GateWord {
    uint32_t *word = nullptr;
    uint32_t ticket = 0;
  };
  struct Job {
    CUevent reached = nullptr; // recorded on the application's stream where the launches belong
    size_t gate = 0;           // index in gates_
    uint32_t *word = nullptr;  // the gate's word (gates_ may grow while the job is launched)
    uint32_t ticket = 0;
    IndirectLaunches work;
  };
  ze_result_t start();
  ze_result_t free_gate(size_t &gate);
  void run();
  void launch(const Job &job);

  const Device &device_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Job> jobs_;          // submitted, not launched yet
  std::vector<GateWord> gates_;    // in pinned, mapped pages that live as long as the process
  std::vector<size_t> free_gates_;
  CUstream stream_ = nullptr;      // the launcher's own
  std::thread thread_;             // lives as long as the process (the driver is never destroyed)
};

} // namespace zeal::cuda
