// The CPU driver's errors: those of the SPIR-V front end it shares with every zeal driver (spirv_frontend/errors.hpp),
// Level Zero codes with the sentence and build log that explain them.
#pragma once

#include "spirv_frontend/errors.hpp"

namespace zeal::cpu {

using frontend::Error;
template <class T>
using Result = frontend::Result<T>;
using frontend::Status;
using frontend::make_error;

namespace detail {
using frontend::build_failure;
using frontend::malformed_native_binary;
using frontend::malformed_spirv;
} // namespace detail
} // namespace zeal::cpu
