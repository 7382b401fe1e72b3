// The dispatch-table plumbing: which tables the runtime implements, and the one place that answers "unsupported".
#pragma once

#include <level_zero/ze_ddi.h>
#include <level_zero/zes_ddi.h>
#include <level_zero/zet_ddi.h>

#include <exception>
#include <new>

// Only the table getters leave the shared object; everything else is hidden.
#define ZEAL_CPU_EXPORT extern "C" __attribute__((visibility("default")))

namespace zeal::cpu {

// The newest API version the driver implements; tables of newer versions are refused.
inline constexpr ze_api_version_t driver_api_version = ZE_API_VERSION_1_4;

// Every entry point the driver does not implement ends here: logs the name at debug level.
ze_result_t unsupported(const char *entry_point);

// Checks a table getter's arguments (version, null table) before it fills the table.
ze_result_t check_table_request(const char *getter, ze_api_version_t version, const void *table);

// Entries written by hand, one overload per table, each in the file of its object;
// they overwrite the generated "unsupported" entries.
void implement(ze_global_dditable_t &table);
void implement(ze_driver_dditable_t &table);
void implement(ze_device_dditable_t &table);
void implement(ze_context_dditable_t &table);
void implement(ze_mem_dditable_t &table);
void implement(ze_command_queue_dditable_t &table);
void implement(ze_command_list_dditable_t &table);
void implement(ze_event_pool_dditable_t &table);
void implement(ze_event_dditable_t &table);
void implement(ze_event_exp_dditable_t &table);
void implement(ze_fence_dditable_t &table);
void implement(ze_module_dditable_t &table);
void implement(ze_module_build_log_dditable_t &table);
void implement(ze_kernel_dditable_t &table);
void implement(ze_kernel_exp_dditable_t &table);
void implement(ze_virtual_mem_dditable_t &table);
void implement(ze_physical_mem_dditable_t &table);
// Tables with nothing implemented yet keep only their generated entries.
template <class Table>
void implement(Table &) {}

// Keeps exceptions (std::bad_alloc from a container, mostly) from crossing the C ABI:
// `guarded<fn>` is `fn` with every exception turned into a result code.
ze_result_t exception_to_result(const char *entry_point) noexcept;

template <auto Fn>
struct Guard;
template <class... Args, ze_result_t (*Fn)(Args...)>
struct Guard<Fn> {
  static ze_result_t call(Args... args) noexcept {
    try {
      return Fn(args...);
    } catch (...) {
      return exception_to_result(__PRETTY_FUNCTION__);
    }
  }
};
template <auto Fn>
inline constexpr auto guarded = &Guard<Fn>::call;

} // namespace zeal::cpu
