// The zeCommandQueue* entry points.
#include "cpu_driver/runtime/command_queue.hpp"

#include "common/log.hpp"
#include "cpu_driver/runtime/command_list.hpp"
#include "cpu_driver/runtime/context.hpp"
#include "cpu_driver/runtime/ddi.hpp"
#include "cpu_driver/runtime/driver.hpp"
#include "cpu_driver/runtime/fence.hpp"

namespace zeal::cpu {

CommandQueue::CommandQueue(Context &context, ThreadPool &pool, DeviceHealth &health, uint32_t group, bool synchronous,
                           ThreadPool::Priority priority)
    : context_(context), group_(group), synchronous_(synchronous), executor_(pool, health, priority) {
  context_.add_stream(executor_);
}

CommandQueue::~CommandQueue() { context_.remove_stream(executor_); }

// Also used for immediate command lists, which take the same descriptor.
ze_result_t check_queue_desc(const ze_command_queue_desc_t &desc) {
  // Two groups of queues_per_group queues each, as zeDeviceGetCommandQueueGroupProperties says.
  if (desc.ordinal >= queue_group_count || desc.index >= queues_per_group) {
    zeal::logger("zeal-cpu").warn("command queue ordinal {} index {} does not exist; the device has queues (0, 0) to "
                                  "(0, {}) for compute and (1, 0) to (1, {}) for copies",
                                  desc.ordinal, desc.index, queues_per_group - 1, queues_per_group - 1);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  if (desc.priority > ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  return ZE_RESULT_SUCCESS;
}

ThreadPool::Priority priority_of(const ze_command_queue_desc_t &desc) {
  switch (desc.priority) {
  case ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_LOW: return ThreadPool::Priority::low;
  case ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH: return ThreadPool::Priority::high;
  default: return ThreadPool::Priority::normal;
  }
}

namespace {

ze_result_t queue_create(ze_context_handle_t context, ze_device_handle_t device, const ze_command_queue_desc_t *desc,
                         ze_command_queue_handle_t *out) {
  if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ze_result_t r = check_queue_desc(*desc); r != ZE_RESULT_SUCCESS) return r;
  Context *c = Context::from(context);
  Device *d = Device::from(device);
  *out = new CommandQueue(*c, d->pool(), d->health(), desc->ordinal,
                          desc->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, priority_of(*desc));
  return ZE_RESULT_SUCCESS;
}

ze_result_t queue_execute_command_lists(ze_command_queue_handle_t queue, uint32_t count,
                                        ze_command_list_handle_t *lists, ze_fence_handle_t fence) {
  if (queue == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (lists == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (count == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  // Check every list before submitting any, so that a failed call ran nothing.
  CommandQueue *q = CommandQueue::from(queue);
  if (q->executor().health().lost()) {
    zeal::logger("zeal-cpu").warn("zeCommandQueueExecuteCommandLists: the queue's device is lost ({})",
                                  q->executor().health().reason());
    return ZE_RESULT_ERROR_DEVICE_LOST;
  }
  std::vector<Executor::Batch> batches;
  batches.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    if (lists[i] == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    CommandList *list = CommandList::from(lists[i]);
    if (list->group() != q->group()) {
      zeal::logger("zeal-cpu").warn("zeCommandQueueExecuteCommandLists: list {} was created for queue group {}, "
                                    "the queue belongs to group {}",
                                    i, list->group(), q->group());
      return ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE;
    }
    Executor::Batch batch = list->is_immediate() ? nullptr : list->recorded();
    if (batch == nullptr) {
      zeal::logger("zeal-cpu").warn("zeCommandQueueExecuteCommandLists: list {} is {}", i,
                                    list->is_immediate() ? "an immediate list" : "not closed");
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    batches.push_back(std::move(batch));
  }
  for (uint32_t i = 0; i < count; ++i) {
    bool last = i + 1 == count;
    q->executor().submit(std::move(batches[i]), last && fence != nullptr ? &Fence::from(fence)->signal() : nullptr);
  }
  if (q->synchronous()) q->executor().synchronize(UINT64_MAX);
  return ZE_RESULT_SUCCESS;
}

ze_result_t queue_synchronize(ze_command_queue_handle_t queue, uint64_t timeout_ns) {
  if (queue == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Executor &executor = CommandQueue::from(queue)->executor();
  if (!executor.synchronize(timeout_ns)) return ZE_RESULT_NOT_READY;
  return executor.health().lost() ? ZE_RESULT_ERROR_DEVICE_LOST : ZE_RESULT_SUCCESS;
}

} // namespace

void implement(ze_command_queue_dditable_t &t) {
  t.pfnCreate = guarded<queue_create>;
  t.pfnDestroy = guarded<destroy<CommandQueue>>;
  t.pfnExecuteCommandLists = guarded<queue_execute_command_lists>;
  t.pfnSynchronize = guarded<queue_synchronize>;
}

} // namespace zeal::cpu
