// The per-thread last error message of the C ABI and the guard that turns results into codes.
#pragma once

#include "common/result.hpp"

#include <string>

namespace zeal::adapter {

// Records the error as this thread's last error message and returns its code.
zeal_result_t report(const Error &error);

const char *last_error_message() noexcept;

// Turns an exception escaping an entry point into a code; nothing crosses the C ABI.
zeal_result_t report_exception() noexcept;

// A null output pointer or value at the boundary, as an INVALID_ARGUMENT naming it.
Status require(bool condition, const char *what);

} // namespace zeal::adapter
