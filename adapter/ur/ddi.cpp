// The UR face's table (filled once at load), the version check of the getters, results and the info protocol.
#include "adapter/ur/ddi.hpp"
#include "common/settings.hpp"

#include <mutex>

#include "adapter/ur/entry.hpp"
#include "common/log.hpp"

#include <atomic>

namespace zeal::adapter::ur {
namespace {

// Before any entry point runs, so that every object created later carries the table UR's loader reads.
const bool table_published = [] {
  Object::ur_dispatch_table = &dispatch_table();
  return true;
}();

} // namespace

const ur_dditable_t &dispatch_table() {
  static const ur_dditable_t table = [] {
    ur_dditable_t t{};
    // ZEAL_TRACE: every entry point through its traced stand-in (trace.hpp), as the zeal face's calls are.
    fill_all(t, settings().trace);
    return t;
  }();
  return table;
}

ur_result_t unsupported(const char *entry_point) noexcept {
  logger("zeal-adapter").debug("{}: not supported by zeal's UR adapter", entry_point);
  return UR_RESULT_ERROR_UNSUPPORTED_FEATURE;
}

ur_result_t check_table_request(const char *getter, ur_api_version_t version, const void *table) noexcept {
  if (table == nullptr) return UR_RESULT_ERROR_INVALID_NULL_POINTER;
  if (version != UR_API_VERSION_CURRENT) {
    // The loader asks for all 26 tables: one warning says it, the other refusals are debug lines.
    static std::atomic<bool> warned{false};
    logger("zeal-adapter")
        .log(warned.exchange(true) ? spdlog::level::debug : spdlog::level::warn,
             "{}: API version {}.{} asked, but zeal's UR adapter was built for {}.{} and the UR ABI changes without "
             "version bumps",
             getter, UR_MAJOR_VERSION(version), UR_MINOR_VERSION(version), UR_MAJOR_VERSION(UR_API_VERSION_CURRENT),
             UR_MINOR_VERSION(UR_API_VERSION_CURRENT));
    return UR_RESULT_ERROR_UNSUPPORTED_VERSION;
  }
  return UR_RESULT_SUCCESS;
}

ur_result_t to_ur_result(zeal_result_t code) noexcept {
  switch (code) {
  case ZEAL_RESULT_SUCCESS: return UR_RESULT_SUCCESS;
  case ZEAL_RESULT_NOT_READY: return UR_RESULT_ERROR_INVALID_OPERATION;
  case ZEAL_RESULT_ERROR_UNINITIALIZED: return UR_RESULT_ERROR_UNINITIALIZED;
  case ZEAL_RESULT_ERROR_INVALID_ARGUMENT: return UR_RESULT_ERROR_INVALID_VALUE;
  case ZEAL_RESULT_ERROR_INVALID_HANDLE: return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
  case ZEAL_RESULT_ERROR_INVALID_ENUMERATION: return UR_RESULT_ERROR_INVALID_ENUMERATION;
  case ZEAL_RESULT_ERROR_INVALID_SIZE: return UR_RESULT_ERROR_INVALID_SIZE;
  case ZEAL_RESULT_ERROR_INVALID_KERNEL_NAME: return UR_RESULT_ERROR_INVALID_KERNEL_NAME;
  case ZEAL_RESULT_ERROR_INVALID_KERNEL_ARGUMENT: return UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
  case ZEAL_RESULT_ERROR_INVALID_WORK_GROUP_SIZE: return UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE;
  case ZEAL_RESULT_ERROR_INVALID_ND_RANGE: return UR_RESULT_ERROR_INVALID_WORK_DIMENSION;
  case ZEAL_RESULT_ERROR_KERNEL_NOT_SUPPORTED: return UR_RESULT_ERROR_ADAPTER_SPECIFIC;
  case ZEAL_RESULT_ERROR_BUILD_FAILURE: return UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE;
  case ZEAL_RESULT_ERROR_LINK_FAILURE: return UR_RESULT_ERROR_PROGRAM_LINK_FAILURE;
  case ZEAL_RESULT_ERROR_INVALID_BINARY: return UR_RESULT_ERROR_INVALID_BINARY;
  case ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE: return UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE;
  case ZEAL_RESULT_ERROR_OUT_OF_HOST_MEMORY: return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  case ZEAL_RESULT_ERROR_OUT_OF_DEVICE_MEMORY: return UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  case ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE: return UR_RESULT_ERROR_UNSUPPORTED_FEATURE;
  case ZEAL_RESULT_ERROR_DEVICE_LOST: return UR_RESULT_ERROR_DEVICE_LOST;
  case ZEAL_RESULT_ERROR_TIMEOUT: return UR_RESULT_ERROR_INVALID_OPERATION;
  case ZEAL_RESULT_ERROR_INVALID_FUNCTION_NAME: return UR_RESULT_ERROR_FUNCTION_ADDRESS_NOT_AVAILABLE;
  case ZEAL_RESULT_ERROR_INVALID_GLOBAL_NAME: return UR_RESULT_ERROR_INVALID_GLOBAL_NAME;
  case ZEAL_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT: return UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT;
  case ZEAL_RESULT_ERROR_INVALID_IMAGE_SIZE: return UR_RESULT_ERROR_INVALID_IMAGE_SIZE;
  case ZEAL_RESULT_ERROR_UNKNOWN: break;
  }
  return UR_RESULT_ERROR_UNKNOWN;
}

namespace {
thread_local int32_t t_last_code = UR_RESULT_SUCCESS;

// urAdapterSetLoggerCallback's callback: every failure's sentence goes to it as an ERROR message.
struct LoggerCallback {
  ur_logger_callback_t callback = nullptr;
  void *user_data = nullptr;
  ur_logger_level_t level = UR_LOGGER_LEVEL_QUIET;
};
std::mutex g_logger_mutex;
LoggerCallback g_logger;

void tell_logger(const std::string &message) noexcept {
  LoggerCallback logger;
  {
    std::lock_guard lock(g_logger_mutex);
    logger = g_logger;
  }
  // Called outside the lock: the callback may call UR again.
  if (logger.callback != nullptr && logger.level <= UR_LOGGER_LEVEL_ERROR)
    logger.callback(UR_LOGGER_LEVEL_ERROR, message.c_str(), logger.user_data);
}
} // namespace

void set_logger_callback(ur_logger_callback_t callback, void *user_data, ur_logger_level_t level) noexcept {
  std::lock_guard lock(g_logger_mutex);
  g_logger = {callback, user_data, level};
}

void set_logger_level(ur_logger_level_t level) noexcept {
  std::lock_guard lock(g_logger_mutex);
  g_logger.level = level;
}

ur_result_t record(Failure failure) noexcept {
  tell_logger(failure.message);
  // The thread's last error is the zeal ABI's: one sentence, whichever face asked.
  try {
    report(make_error(ZEAL_RESULT_ERROR_UNKNOWN, std::move(failure.message)));
  } catch (...) {
    // Only the sentence is lost when there is no memory to keep it; the code still reaches the caller.
  }
  return remember(failure.code);
}

ur_result_t remember(ur_result_t code) noexcept {
  t_last_code = code;
  return code;
}

int32_t last_error_code() noexcept { return t_last_code; }

Outcome write_ur_info(const InfoValue &answer, size_t size, void *value, size_t *size_ret, std::string_view what) {
  Status written = write_info(answer, size, value, size_ret, what);
  if (written.ok()) return {};
  Error e = std::move(written).error();
  // The zeal ABI's INVALID_ARGUMENT here means both outputs are null, which UR calls INVALID_NULL_POINTER.
  return fail(e.code == ZEAL_RESULT_ERROR_INVALID_ARGUMENT ? UR_RESULT_ERROR_INVALID_NULL_POINTER
                                                           : to_ur_result(e.code),
              std::move(e.message));
}

} // namespace zeal::adapter::ur
