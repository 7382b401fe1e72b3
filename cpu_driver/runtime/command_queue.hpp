// Command queues: a submission thread that runs closed command lists in order.
#pragma once

#include "cpu_driver/runtime/executor.hpp"
#include "cpu_driver/runtime/handles.hpp"

namespace zeal::cpu {

class Context;

class CommandQueue : public _ze_command_queue_handle_t {
public:
  CommandQueue(Context &context, ThreadPool &pool, bool synchronous)
      : context_(context), synchronous_(synchronous), executor_(pool) {}
  static CommandQueue *from(ze_command_queue_handle_t h) { return static_cast<CommandQueue *>(h); }

  Context &context() { return context_; }
  bool synchronous() const { return synchronous_; }
  Executor &executor() { return executor_; }

private:
  Context &context_;
  bool synchronous_;
  Executor executor_;
};

// INVALID_ARGUMENT (logged) for a queue that zeDeviceGetCommandQueueGroupProperties does not list.
ze_result_t check_queue_desc(const ze_command_queue_desc_t &desc);

} // namespace zeal::cpu
