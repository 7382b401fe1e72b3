// Command queues and fences (command_queue.hpp); the zeCommandQueue* and zeFence* entry points.
#include "cuda_driver/runtime/command_queue.hpp"
#include "cuda_driver/runtime/command_list.hpp"
#include "cuda_driver/runtime/cuda_call.hpp"
#include "cuda_driver/runtime/ddi.hpp"

#include "common/log.hpp"

#include <fmt/format.h>

namespace zeal::cuda {

CommandQueue::~CommandQueue() {
  feeder_.reset(); // once everything is enqueued
  wait_for_stream(device_, stream_, UINT64_MAX);
  checked(device_.api().cuStreamDestroy_v2(stream_), "cuStreamDestroy_v2");
}

ze_result_t CommandQueue::submit(const std::vector<const CommandList *> &lists, Fence *fence) {
  WorkTraits traits{.commands = 0};
  for (const CommandList *list : lists) traits.add(list->traits());
  return feeder_->submit(
      [lists, fence](CUstream stream) {
        for (const CommandList *list : lists)
          if (ze_result_t r = list->replay(stream); r != ZE_RESULT_SUCCESS) return r;
        return fence != nullptr ? fence->record() : ZE_RESULT_SUCCESS;
      },
      traits, "zeCommandQueueExecuteCommandLists", [&] {
        for (const CommandList *list : lists)
          if (ze_result_t r = list->use_words(); r != ZE_RESULT_SUCCESS) return r;
        return ZE_RESULT_SUCCESS;
      });
}

Fence::~Fence() {
  queue_.device().make_current();
  checked(queue_.device().api().cuEventDestroy_v2(event_), "cuEventDestroy_v2");
}

ze_result_t Fence::record() {
  queue_.device().make_current();
  ze_result_t r = checked(queue_.device().api().cuEventRecord(event_, queue_.stream()), "cuEventRecord");
  recorded_ = r == ZE_RESULT_SUCCESS;
  return r;
}

ze_result_t Fence::query() const {
  if (!recorded_) return ZE_RESULT_NOT_READY;
  queue_.device().make_current();
  CUresult r = queue_.device().api().cuEventQuery(event_);
  return r == CUDA_ERROR_NOT_READY ? ZE_RESULT_NOT_READY : checked(r, "cuEventQuery");
}

ze_result_t Fence::wait(uint64_t timeout) const {
  ze_result_t result = poll_until(timeout, [this](unsigned) { return query(); });
  const Device &device = queue_.device();
  if (result == ZE_RESULT_SUCCESS && device.prints()) // the event has happened: this prints what kernels wrote
    result = checked(device.api().cuEventSynchronize(event_), "cuEventSynchronize");
  return result;
}

uint32_t queues_in_group(const Device &device, uint32_t ordinal) {
  return ordinal == copy_group ? device.copy_engines() : device.work_queues();
}

bool valid_queue(const Device &device, uint32_t ordinal, uint32_t index, std::string &why) {
  if (ordinal >= queue_group_count) {
    why = fmt::format("queue group {} does not exist; {} has groups 0 (compute and copy) and 1 (copy)", ordinal,
                      device.properties().name);
    return false;
  }
  if (const uint32_t queues = queues_in_group(device, ordinal); index >= queues) {
    why = fmt::format("queue group {} of {} has {} queues; index {} is past them", ordinal, device.properties().name,
                      queues, index);
    return false;
  }
  return true;
}

namespace {

ze_result_t queue_create(ze_context_handle_t context, ze_device_handle_t device, const ze_command_queue_desc_t *desc,
                         ze_command_queue_handle_t *out) {
  if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Device &d = *Device::from(device);
  if (std::string why; !valid_queue(d, desc->ordinal, desc->index, why)) {
    zeal::logger("zeal-cuda").error("zeCommandQueueCreate: {}", why);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  CUstream stream = nullptr;
  if (ze_result_t r = new_stream(d, stream, desc->priority); r != ZE_RESULT_SUCCESS) return r;
  *out = new CommandQueue(d, stream, desc->ordinal, desc->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  return ZE_RESULT_SUCCESS;
}

ze_result_t queue_execute(ze_command_queue_handle_t handle, uint32_t count, ze_command_list_handle_t *lists,
                          ze_fence_handle_t fence) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (count == 0 || lists == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  CommandQueue *queue = CommandQueue::from(handle);
  for (uint32_t i = 0; i < count; ++i) {
    if (lists[i] == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    const CommandList *list = CommandList::from(lists[i]);
    if (list->immediate() || !list->closed()) return ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE;
    if (list->group() != queue->group()) {
      zeal::logger("zeal-cuda").error("zeCommandQueueExecuteCommandLists: list {} was made for queue group {}, the "
                                      "queue belongs to group {}", i, list->group(), queue->group());
      return ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE;
    }
  }
  std::vector<const CommandList *> submitted;
  for (uint32_t i = 0; i < count; ++i) submitted.push_back(CommandList::from(lists[i]));
  if (fence != nullptr) Fence::from(fence)->reset(); // recorded again once its lists are enqueued
  if (ze_result_t r = queue->submit(std::move(submitted), fence != nullptr ? Fence::from(fence) : nullptr);
      r != ZE_RESULT_SUCCESS)
    return r;
  return queue->synchronous() ? queue->synchronize(UINT64_MAX) : ZE_RESULT_SUCCESS;
}

ze_result_t queue_synchronize(ze_command_queue_handle_t handle, uint64_t timeout) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return CommandQueue::from(handle)->synchronize(timeout);
}

ze_result_t fence_create(ze_command_queue_handle_t handle, const ze_fence_desc_t *desc, ze_fence_handle_t *out) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  CommandQueue *queue = CommandQueue::from(handle);
  queue->device().make_current();
  CUevent event = nullptr;
  if (ze_result_t r = checked(queue->device().api().cuEventCreate(&event, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
      r != ZE_RESULT_SUCCESS)
    return r;
  auto *fence = new Fence(*queue, event);
  if ((desc->flags & ZE_FENCE_FLAG_SIGNALED) != 0) fence->record();
  *out = fence;
  return ZE_RESULT_SUCCESS;
}

ze_result_t fence_host_synchronize(ze_fence_handle_t handle, uint64_t timeout) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return Fence::from(handle)->wait(timeout);
}

ze_result_t fence_query_status(ze_fence_handle_t handle) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return Fence::from(handle)->query();
}

ze_result_t fence_reset(ze_fence_handle_t handle) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Fence::from(handle)->reset();
  return ZE_RESULT_SUCCESS;
}

} // namespace

void implement(ze_command_queue_dditable_t &t) {
  t.pfnCreate = guarded<queue_create>;
  t.pfnDestroy = guarded<destroy<CommandQueue>>;
  t.pfnExecuteCommandLists = guarded<queue_execute>;
  t.pfnSynchronize = guarded<queue_synchronize>;
}

void implement(ze_fence_dditable_t &t) {
  t.pfnCreate = guarded<fence_create>;
  t.pfnDestroy = guarded<destroy<Fence>>;
  t.pfnHostSynchronize = guarded<fence_host_synchronize>;
  t.pfnQueryStatus = guarded<fence_query_status>;
  t.pfnReset = guarded<fence_reset>;
}

} // namespace zeal::cuda
