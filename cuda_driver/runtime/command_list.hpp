// Command lists on the CUDA driver. A regular list records commands (each a call that enqueues work on a stream)
// and a queue replays them on its stream; an immediate list enqueues each on a stream of its own as it is
// appended. Event waits and signals are enqueued around each command (event.hpp).
#pragma once

#include "cuda_driver/runtime/context.hpp"
#include "cuda_driver/runtime/stream_feeder.hpp"

#include <functional>
#include <memory>
#include <vector>

namespace zeal::cuda {

class Event;

using Command = std::function<ze_result_t(CUstream)>;

class CommandList : public _ze_command_list_handle_t {
public:
  // `immediate`: with the stream it enqueues on; `synchronous`: each append also waits for its command to finish.
  CommandList(Device &device, const Context &context, CUstream stream, uint32_t group, bool synchronous);
  ~CommandList();
  static CommandList *from(ze_command_list_handle_t h) { return static_cast<CommandList *>(h); }
  Device &device() const { return device_; }
  const Context &context() const { return context_; }
  bool immediate() const { return stream_ != nullptr; }
  bool closed() const { return closed_; }
  void close() { closed_ = true; }
  void reset();
  CUstream stream() const { return stream_; }
  // An immediate list: waits until every append is enqueued on its stream and has run (stream_feeder.hpp).
  ze_result_t synchronize() const { return feeder_->synchronize(UINT64_MAX); }
  // Its queue group (command_queue.hpp): a list of the copy group runs no kernels.
  uint32_t group() const { return group_; }

  // Records the command, or, on an immediate list, enqueues it (now, or through the list's feeder). `events`: those
  // it signals or resets, then those it waits on (`waited` of them, last), which go to word mode if it is enqueued
  // later than now (event.hpp); `traits`: what the feeder decides by (stream_feeder.hpp), as the events are at the
  // append.
  ze_result_t append(Command command, const std::vector<Event *> &events, size_t waited, WorkTraits traits);
  // Enqueues every recorded command on `stream` (a queue's), in order.
  ze_result_t replay(CUstream stream) const;
  // What the feeder decides the recorded commands' submission by: `host_waits` as the events they wait on are now.
  WorkTraits traits() const;
  // A regular list handed to a queue's feeder: every event its commands use goes to word mode (Event::use_word).
  ze_result_t use_words() const;

private:
  Device &device_;
  const Context &context_;
  CUstream stream_; // immediate lists only
  uint32_t group_;
  bool synchronous_;
  bool closed_ = false;
  std::vector<Command> commands_;
  std::vector<Event *> events_, waited_; // what the recorded commands use; of those, what they wait on
  WorkTraits recorded_{.commands = 0};   // the recorded commands', but host_waits (looked at when executed)
  std::unique_ptr<StreamFeeder> feeder_; // immediate lists only
};

// Waits for the stream on the host for at most `timeout` ns (UINT64_MAX: until it is done); ZE_RESULT_NOT_READY
// when the time ran out first, ZE_RESULT_ERROR_DEVICE_LOST when a kernel on it faulted.
ze_result_t wait_for_stream(const Device &device, CUstream stream, uint64_t timeout);
// zeCommandListAppendMemoryCopyRegion's copy of a box of bytes between two pitched layouts (0: packed), for the
// image copies (image.cpp).
ze_result_t append_pitched_copy(ze_command_list_handle_t list, void *dst, const ze_copy_region_t *dst_region,
                                uint32_t dst_pitch, uint32_t dst_slice_pitch, const void *src,
                                const ze_copy_region_t *src_region, uint32_t src_pitch, uint32_t src_slice_pitch,
                                ze_event_handle_t signal, uint32_t count, ze_event_handle_t *waits);

// A stream of the device's context that does not wait for CUDA's legacy stream: an immediate list's or a queue's.
// A non-blocking stream of the device's primary context, of CUDA's greatest priority for a high-priority queue.
ze_result_t new_stream(const Device &device, CUstream &stream,
                       ze_command_queue_priority_t priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL);

} // namespace zeal::cuda
