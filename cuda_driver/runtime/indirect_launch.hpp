// Indirect launches on the CUDA driver (zeCommandListAppendLaunchKernelIndirect, ...MultipleKernelsIndirect): the
// group counts lie in memory that commands before the launch may write, and CUDA takes launch dimensions from the
// host only. So an indirect launch is work that only a stream feeder's thread enqueues (WorkTraits::syncs): it
// copies the counts into pinned host memory in stream order, waits on the host until the stream has run that copy,
// and launches the kernels on the stream; the feeder enqueues the commands after it once it is in. Nothing on the
// application's thread waits, and the stream never waits for a word nobody has enqueued a write of (which CUDA's
// module loads, and compute-sanitizer's first launch of each kernel, wait behind: stream_feeder.hpp).
#pragma once

#include "cuda_driver/runtime/kernel.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace zeal::cuda {

// The kernels of one indirect command, their arguments as at the append; `count_at` (null: all of them) and
// `groups_at` (one group count per kernel) are read when the launches are made.
struct IndirectLaunches {
  std::vector<std::shared_ptr<Launch>> launches;
  const uint32_t *count_at = nullptr;
  const ze_group_count_t *groups_at = nullptr;
};

// Enqueues `work` on `stream` of `device`, waiting for the stream on the calling thread (a feeder's) first.
ze_result_t launch_indirect(const Device &device, CUstream stream, const IndirectLaunches &work);

} // namespace zeal::cuda
