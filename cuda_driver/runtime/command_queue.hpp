// Command queues on the CUDA driver: a stream each, on which executed lists are replayed; and fences, a CUDA event
// recorded after what was executed with them.
#pragma once

#include "cuda_driver/runtime/context.hpp"
#include "cuda_driver/runtime/stream_feeder.hpp"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace zeal::cuda {

// Two groups of queues, as zeDeviceGetCommandQueueGroupProperties lists them: 0 computes and copies (as many queues
// as CUDA has hardware work queues: CUDA_DEVICE_MAX_CONNECTIONS, 8 unless set), 1 only copies (as many as the card
// has copy engines). Every queue is a stream of its own whatever its index; CUDA picks the engines.
enum QueueGroup : uint32_t { compute_group = 0, copy_group = 1 };
inline constexpr uint32_t queue_group_count = 2;
uint32_t queues_in_group(const Device &device, uint32_t ordinal);
// Whether `ordinal` and `index` name a queue of the device; a sentence in `why` when not.
bool valid_queue(const Device &device, uint32_t ordinal, uint32_t index, std::string &why);

class CommandList;
class Fence;

// A queue enqueues what it executes on its stream through a StreamFeeder (stream_feeder.hpp).
class CommandQueue : public _ze_command_queue_handle_t {
public:
  CommandQueue(Device &device, CUstream stream, uint32_t group, bool synchronous)
      : device_(device), stream_(stream), group_(group), synchronous_(synchronous),
        feeder_(std::make_unique<StreamFeeder>(device, stream)) {}
  ~CommandQueue();
  static CommandQueue *from(ze_command_queue_handle_t h) { return static_cast<CommandQueue *>(h); }
  Device &device() const { return device_; }
  CUstream stream() const { return stream_; }
  bool synchronous() const { return synchronous_; }
  uint32_t group() const { return group_; }

  // Enqueues the lists' commands, then the fence's record, on the stream (on this thread or the feeder's).
  ze_result_t submit(const std::vector<const CommandList *> &lists, Fence *fence);
  // Waits for at most `timeout` ns until everything submitted is enqueued and has run (StreamFeeder::synchronize).
  ze_result_t synchronize(uint64_t timeout) { return feeder_->synchronize(timeout); }

private:
  Device &device_;
  CUstream stream_;
  uint32_t group_;
  bool synchronous_;
  std::unique_ptr<StreamFeeder> feeder_;
};

class Fence : public _ze_fence_handle_t {
public:
  Fence(CommandQueue &queue, CUevent event) : queue_(queue), event_(event) {}
  ~Fence();
  static Fence *from(ze_fence_handle_t h) { return static_cast<Fence *>(h); }
  CommandQueue &queue() const { return queue_; }
  // Marks the end of what was just submitted to the queue.
  ze_result_t record();
  void reset() { recorded_ = false; }
  ze_result_t query() const;
  ze_result_t wait(uint64_t timeout) const;

private:
  CommandQueue &queue_;
  CUevent event_;
  std::atomic<bool> recorded_{false}; // set by the feeder thread when it enqueues the record
};

} // namespace zeal::cuda
