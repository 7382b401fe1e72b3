// The generic answers of the dispatch tables: "unsupported", table-request checks, exceptions at the boundary.
#include "ze_driver/ddi.hpp"
#include "ze_driver/handles.hpp"

#include "common/log.hpp"

#include <cstdio>
#include <cstring>

namespace zeal::ze {

ze_result_t unsupported(const char *driver, const char *entry_point) {
  zeal::logger("zeal-driver").debug("{} is not implemented by the {}", entry_point, driver);
  return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
}

ze_result_t check_table_request(const char *getter, ze_api_version_t version, const void *table) {
  if (table == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // Same major version, minor no newer than ours: the table layout only grows at its end.
  if (ZE_MAJOR_VERSION(version) != ZE_MAJOR_VERSION(driver_api_version) ||
      ZE_MINOR_VERSION(version) > ZE_MINOR_VERSION(driver_api_version)) {
    zeal::logger("zeal-driver").warn("{}: API version {}.{} is newer than the driver's {}.{}", getter,
                                     ZE_MAJOR_VERSION(version), ZE_MINOR_VERSION(version),
                                     ZE_MAJOR_VERSION(driver_api_version), ZE_MINOR_VERSION(driver_api_version));
    return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t exception_to_result(const char *entry_point) noexcept {
  try {
    throw;
  } catch (const std::bad_alloc &) {
    return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  } catch (const std::exception &e) {
    try {
      zeal::logger("zeal-driver").error("{}: {}", entry_point, e.what());
    } catch (...) {
    }
    return ZE_RESULT_ERROR_UNKNOWN;
  } catch (...) {
    return ZE_RESULT_ERROR_UNKNOWN;
  }
}

ze_result_t copy_string_out(const char *text, size_t length, size_t *size, char *out) {
  if (size == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (*size == 0 || out == nullptr) {
    *size = length + 1;
    return ZE_RESULT_SUCCESS;
  }
  size_t n = std::min(length, *size - 1);
  std::memcpy(out, text, n);
  out[n] = '\0';
  *size = n + 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t list_extensions(std::span<const std::pair<const char *, uint32_t>> listed, uint32_t *count,
                            ze_driver_extension_properties_t *out) {
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const auto available = static_cast<uint32_t>(listed.size());
  if (*count == 0 || out == nullptr) {
    *count = available;
    return ZE_RESULT_SUCCESS;
  }
  *count = std::min(*count, available);
  for (uint32_t i = 0; i < *count; ++i) {
    std::snprintf(out[i].name, sizeof(out[i].name), "%s", listed[i].first);
    out[i].version = listed[i].second;
  }
  return ZE_RESULT_SUCCESS;
}

namespace {

ze_result_t build_log_get_string(ze_module_build_log_handle_t log, size_t *size, char *text) {
  if (log == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const std::string &t = BuildLog::from(log)->text();
  return copy_string_out(t.c_str(), t.size(), size, text);
}

} // namespace

void fill_build_log_table(ze_module_build_log_dditable_t &t) {
  t.pfnDestroy = guarded<destroy<BuildLog>>;
  t.pfnGetString = guarded<build_log_get_string>;
}

} // namespace zeal::ze
