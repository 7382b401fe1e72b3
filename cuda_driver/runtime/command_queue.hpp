// Command queues on the CUDA driver: a stream each, on which executed lists are replayed; and fences, a CUDA event
// recorded after what was executed with them.
#pragma once

#include "cuda_driver/runtime/context.hpp"

namespace zeal::cuda {

class CommandQueue : public _ze_command_queue_handle_t {
public:
  CommandQueue(Device &device, CUstream stream, bool synchronous)
      : device_(device), stream_(stream), synchronous_(synchronous) {}
  ~CommandQueue();
  static CommandQueue *from(ze_command_queue_handle_t h) { return static_cast<CommandQueue *>(h); }
  Device &device() const { return device_; }
  CUstream stream() const { return stream_; }
  bool synchronous() const { return synchronous_; }

private:
  Device &device_;
  CUstream stream_;
  bool synchronous_;
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
  bool recorded_ = false;
};

} // namespace zeal::cuda
