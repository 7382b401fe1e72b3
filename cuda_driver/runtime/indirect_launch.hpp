// Indirect launches on the CUDA driver (zeCommandListAppendLaunchKernelIndirect, ...MultipleKernelsIndirect): the
// group counts lie in memory that commands before the launch may write, and CUDA takes launch dimensions from the
// host only. So the stream's place for the launch is a gate: the stream records where it is and waits for a ticket
// word; the device's launcher thread waits until the stream got there, reads the counts, launches the kernels on a
// stream of its own and then writes the ticket, which opens the gate. Nothing on the application's thread waits, so
// a launch whose wait list the host signals later works, and the stream keeps its order.
#pragma once

#include "cuda_driver/runtime/kernel.hpp"

#include <condition_variable>
#include <cstdint>
#include <deque>
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
  struct Job {
    CUevent reached = nullptr; // recorded on the application's stream where the launches belong
    uint32_t ticket = 0;
    IndirectLaunches work;
  };
  ze_result_t start();
  void run();
  void launch(const Job &job);

  const Device &device_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> jobs_;
  uint32_t next_ticket_ = 0;
  uint32_t *ticket_word_ = nullptr; // pinned, mapped: the last ticket whose launches ran
  CUstream stream_ = nullptr;       // the launcher's own
  std::thread thread_;              // lives as long as the process (the driver is never destroyed)
};

} // namespace zeal::cuda
