// The zeFence* entry points.
#include "cpu_driver/runtime/fence.hpp"

#include "cpu_driver/runtime/command_queue.hpp"
#include "cpu_driver/runtime/ddi.hpp"

namespace zeal::cpu {
namespace {

ze_result_t fence_create(ze_command_queue_handle_t queue, const ze_fence_desc_t *desc, ze_fence_handle_t *out) {
  if (queue == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *out = new Fence(*CommandQueue::from(queue), (desc->flags & ZE_FENCE_FLAG_SIGNALED) != 0);
  return ZE_RESULT_SUCCESS;
}

ze_result_t fence_host_synchronize(ze_fence_handle_t fence, uint64_t timeout_ns) {
  if (fence == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return Fence::from(fence)->signal().wait(timeout_ns) ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ze_result_t fence_query_status(ze_fence_handle_t fence) {
  if (fence == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return Fence::from(fence)->signal().is_set() ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ze_result_t fence_reset(ze_fence_handle_t fence) {
  if (fence == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Fence::from(fence)->signal().reset();
  return ZE_RESULT_SUCCESS;
}

} // namespace

void implement(ze_fence_dditable_t &t) {
  t.pfnCreate = guarded<fence_create>;
  t.pfnDestroy = guarded<destroy<Fence>>;
  t.pfnHostSynchronize = guarded<fence_host_synchronize>;
  t.pfnQueryStatus = guarded<fence_query_status>;
  t.pfnReset = guarded<fence_reset>;
}

} // namespace zeal::cpu
