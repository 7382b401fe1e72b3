// The zeEventPool* and zeEvent* entry points.
#include "cpu_driver/runtime/event.hpp"

#include "cpu_driver/runtime/context.hpp"
#include "cpu_driver/runtime/ddi.hpp"

namespace zeal::cpu {
namespace {

ze_result_t event_pool_create(ze_context_handle_t context, const ze_event_pool_desc_t *desc, uint32_t device_count,
                              ze_device_handle_t *devices, ze_event_pool_handle_t *out) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (device_count > 0 && devices == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->count == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  *out = new EventPool(*Context::from(context), *desc);
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_pool_destroy(ze_event_pool_handle_t pool) {
  if (pool == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete EventPool::from(pool);
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_create(ze_event_pool_handle_t pool, const ze_event_desc_t *desc, ze_event_handle_t *out) {
  if (pool == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  EventPool *p = EventPool::from(pool);
  if (desc->index >= p->count()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  *out = new Event(*p);
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_destroy(ze_event_handle_t event) {
  if (event == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete Event::from(event);
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_host_signal(ze_event_handle_t event) {
  if (event == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Event::from(event)->signal();
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_host_synchronize(ze_event_handle_t event, uint64_t timeout_ns) {
  if (event == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return Event::from(event)->wait(timeout_ns) ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ze_result_t event_query_status(ze_event_handle_t event) {
  if (event == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return Event::from(event)->is_signaled() ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ze_result_t event_host_reset(ze_event_handle_t event) {
  if (event == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Event::from(event)->reset();
  return ZE_RESULT_SUCCESS;
}

ze_result_t event_query_kernel_timestamp(ze_event_handle_t event, ze_kernel_timestamp_result_t *out) {
  if (event == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Event *e = Event::from(event);
  if (!e->is_signaled()) return ZE_RESULT_NOT_READY;
  *out = e->timestamps();
  return ZE_RESULT_SUCCESS;
}

} // namespace

void implement(ze_event_pool_dditable_t &t) {
  t.pfnCreate = guarded<event_pool_create>;
  t.pfnDestroy = guarded<event_pool_destroy>;
}

void implement(ze_event_dditable_t &t) {
  t.pfnCreate = guarded<event_create>;
  t.pfnDestroy = guarded<event_destroy>;
  t.pfnHostSignal = guarded<event_host_signal>;
  t.pfnHostSynchronize = guarded<event_host_synchronize>;
  t.pfnQueryStatus = guarded<event_query_status>;
  t.pfnHostReset = guarded<event_host_reset>;
  t.pfnQueryKernelTimestamp = guarded<event_query_kernel_timestamp>;
}

} // namespace zeal::cpu
