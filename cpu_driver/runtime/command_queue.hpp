// Command queues: a submission thread that runs closed command lists in order.
#pragma once

#include "cpu_driver/runtime/executor.hpp"
#include "cpu_driver/runtime/handles.hpp"

namespace zeal::cpu {

class Context;

// Each device's command queue groups, by ordinal, as zeDeviceGetCommandQueueGroupProperties lists them:
// compute (copies and cooperative kernels too), then copy only. Both run on the device's threads, but for
// cooperative launches, whose groups get threads of their own (run_cooperative in command.cpp).
enum QueueGroup : uint32_t { compute_group = 0, copy_group = 1 };
constexpr uint32_t queue_group_count = 2;
// Queues (engines) per group: independent submission streams that run side by
// side on the device's threads, so that work for one queue of a group need not
// wait behind another's (what Level Zero programs that pipeline copies and
// kernels over several engines of one kind expect).
constexpr uint32_t queues_per_group = 2;

class CommandQueue : public _ze_command_queue_handle_t {
public:
  CommandQueue(Context &context, ThreadPool &pool, DeviceHealth &health, uint32_t group, bool synchronous,
               ThreadPool::Priority priority);
  ~CommandQueue();
  CommandQueue(const CommandQueue &) = delete;
  CommandQueue &operator=(const CommandQueue &) = delete;
  static CommandQueue *from(ze_command_queue_handle_t h) { return static_cast<CommandQueue *>(h); }

  Context &context() { return context_; }
  uint32_t group() const { return group_; }
  bool synchronous() const { return synchronous_; }
  Executor &executor() { return executor_; }

private:
  Context &context_;
  uint32_t group_;
  bool synchronous_;
  Executor executor_;
};

// INVALID_ARGUMENT (logged) for a queue that zeDeviceGetCommandQueueGroupProperties does not list;
// INVALID_ENUMERATION for an unknown priority.
ze_result_t check_queue_desc(const ze_command_queue_desc_t &desc);
ThreadPool::Priority priority_of(const ze_command_queue_desc_t &desc);

} // namespace zeal::cpu
