// ZEAL_TRACE=1: every call of either face logged with its arguments, result and duration, on one sink; the
// zeal face's runner of every entry point (the UR face wraps its dispatch table instead, adapter/ur/trace.hpp).
#pragma once

#include "adapter/core/error.hpp"
#include "common/settings.hpp"

#include <chrono>
#include <string>
#include <string_view>

namespace zeal::adapter {

// One line on the trace sink: `name(args) -> result in N us`.
void trace_call(const char *name, const std::string &args, std::string_view result, std::chrono::nanoseconds took);
inline void trace_call(const char *name, const std::string &args, zeal_result_t result,
                       std::chrono::nanoseconds took) {
  trace_call(name, args, zealResultName(result), took);
}

// Runs an entry point's body: a Status becomes a code (the message kept for
// getLastErrorMessage), an exception becomes a code, and the call is traced.
// `args` formats the arguments and is only called when tracing is on.
template <class ArgsFn, class Body>
zeal_result_t run_entry(const char *name, ArgsFn &&args, Body &&body) noexcept {
  const bool tracing = settings().trace;
  const auto start = tracing ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  zeal_result_t result = ZEAL_RESULT_SUCCESS;
  try {
    Status status = body();
    if (!status.ok()) result = report(status.error());
  } catch (...) {
    result = report_exception();
  }
  if (tracing) {
    try {
      trace_call(name, args(), result, std::chrono::steady_clock::now() - start);
    } catch (...) {
      // Tracing is diagnostics only; a failure to format never changes the result.
    }
  }
  return result;
}

} // namespace zeal::adapter
