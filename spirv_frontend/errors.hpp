// The errors of a Level Zero driver's SPIR-V front end: Level Zero codes (ze_result_t) with the sentence and build
// log that explain them. Every zeal driver reports in these (cpu_driver/compiler/errors.hpp takes them as its own).
#pragma once

#include "common/basic_result.hpp"

#include <level_zero/ze_api.h>

#include <source_location>
#include <string>
#include <utility>

namespace zeal::frontend {

// A driver is a Level Zero driver: what it reports is a ze_result_t, whoever loads it. zeal's own codes
// (ZEAL_RESULT_*) belong to the adapter, which translates a driver's results at its side of the Level Zero API.
using Error = BasicError<ze_result_t, ZE_RESULT_ERROR_UNKNOWN>;
template <class T>
using Result = zeal::Result<T, Error>;
using Status = Result<void>;

inline Error make_error(ze_result_t code, std::string message,
                        std::source_location where = std::source_location::current()) {
  return Error{code, std::move(message), where, 0, {}};
}

// A build failure: `log` is the whole sentence, also used as the message.
inline Error build_failure(std::string log, ze_result_t code = ZE_RESULT_ERROR_MODULE_BUILD_FAILURE) {
  Error error = make_error(code, log);
  error.log = std::move(log);
  return error;
}

// Input that is not what its format says (not SPIR-V at all, a broken id, a corrupt native binary), as against
// input that is well formed but could not be built (ZE_RESULT_ERROR_MODULE_BUILD_FAILURE).
inline Error malformed_spirv(std::string sentence) {
  return build_failure(std::move(sentence), ZE_RESULT_ERROR_INVALID_ARGUMENT);
}
inline Error malformed_native_binary(std::string sentence) {
  return build_failure(std::move(sentence), ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
}

} // namespace zeal::frontend
