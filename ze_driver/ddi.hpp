// The dispatch-table plumbing every zeal Level Zero driver shares: table-request checks, the one place a driver
// answers "unsupported", and exceptions kept from crossing the C ABI. Each driver's own ddi.hpp declares the
// `implement` overloads of the tables it fills; ze_driver/generate_ddi.cmake writes the rest.
#pragma once

#include <level_zero/ze_ddi.h>
#include <level_zero/zes_ddi.h>
#include <level_zero/zet_ddi.h>

#include <exception>
#include <new>

// Only the table getters leave a driver's shared object; everything else is hidden.
#define ZEAL_DRIVER_EXPORT extern "C" __attribute__((visibility("default")))

namespace zeal::ze {

// The newest API version the drivers implement; tables of newer versions are refused.
inline constexpr ze_api_version_t driver_api_version = ZE_API_VERSION_1_4;

// An entry point `driver` does not implement: logs the name at debug level, answers ZE_RESULT_ERROR_UNSUPPORTED_FEATURE.
ze_result_t unsupported(const char *driver, const char *entry_point);

// Checks a table getter's arguments (version, null table) before it fills the table.
ze_result_t check_table_request(const char *getter, ze_api_version_t version, const void *table);

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

// zeModuleBuildLogDestroy and zeModuleBuildLogGetString on ze::BuildLog (handles.hpp), the same in every driver.
void fill_build_log_table(ze_module_build_log_dditable_t &table);

} // namespace zeal::ze
