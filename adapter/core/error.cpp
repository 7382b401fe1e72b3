// The per-thread last error message of the C ABI.
#include "adapter/core/error.hpp"

#include "common/log.hpp"

#include <new>

namespace zeal::adapter {
namespace {
thread_local std::string t_last_error;

// Setting the message must not throw while an out-of-memory error is being reported.
void set_message(const char *text) noexcept {
  try {
    t_last_error = text;
  } catch (...) {
    t_last_error.clear();
  }
}
} // namespace

zeal_result_t report(const Error &error) {
  set_message(error.message.c_str());
  logger("zeal-adapter").debug("{}", error.describe());
  return error.code;
}

const char *last_error_message() noexcept { return t_last_error.c_str(); }

zeal_result_t report_exception() noexcept {
  try {
    throw;
  } catch (const std::bad_alloc &) {
    set_message("the adapter ran out of host memory");
    return ZEAL_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  } catch (const std::exception &e) {
    set_message(e.what());
    return ZEAL_RESULT_ERROR_UNKNOWN;
  } catch (...) {
    set_message("internal adapter error of unknown type");
    return ZEAL_RESULT_ERROR_UNKNOWN;
  }
}

Status require(bool condition, const char *what) {
  if (condition) return {};
  return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, what);
}

} // namespace zeal::adapter
