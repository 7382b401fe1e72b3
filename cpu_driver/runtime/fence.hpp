// Fences: signalled by a command queue when the command lists of one execute call have run.
#pragma once

#include "cpu_driver/runtime/handles.hpp"
#include "cpu_driver/runtime/signal.hpp"

namespace zeal::cpu {

class CommandQueue;

class Fence : public _ze_fence_handle_t {
public:
  Fence(CommandQueue &queue, bool signaled) : queue_(queue) {
    if (signaled) signal_.set();
  }
  static Fence *from(ze_fence_handle_t h) { return static_cast<Fence *>(h); }

  CommandQueue &queue() { return queue_; }
  Signal &signal() { return signal_; }

private:
  CommandQueue &queue_;
  Signal signal_;
};

} // namespace zeal::cpu
