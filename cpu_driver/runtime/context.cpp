// The zeContext* entry points.
#include "cpu_driver/runtime/context.hpp"

#include "cpu_driver/runtime/ddi.hpp"
#include "cpu_driver/runtime/driver.hpp"

namespace zeal::cpu {
namespace {

ze_result_t context_create(ze_driver_handle_t driver, const ze_context_desc_t *desc, ze_context_handle_t *out) {
  if (driver == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *out = new Context(*Driver::from(driver));
  return ZE_RESULT_SUCCESS;
}

ze_result_t context_create_ex(ze_driver_handle_t driver, const ze_context_desc_t *desc, uint32_t device_count,
                              ze_device_handle_t *devices, ze_context_handle_t *out) {
  if (device_count > 0 && devices == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return context_create(driver, desc, out);
}

ze_result_t context_destroy(ze_context_handle_t context) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete Context::from(context);
  return ZE_RESULT_SUCCESS;
}

ze_result_t context_get_status(ze_context_handle_t context) {
  return context == nullptr ? ZE_RESULT_ERROR_INVALID_NULL_HANDLE : ZE_RESULT_SUCCESS;
}

} // namespace

void implement(ze_context_dditable_t &t) {
  t.pfnCreate = guarded<context_create>;
  t.pfnCreateEx = guarded<context_create_ex>;
  t.pfnDestroy = guarded<context_destroy>;
  t.pfnGetStatus = guarded<context_get_status>;
}

} // namespace zeal::cpu
