// The checks a program link makes before linking any module: imports resolved once, callers and callees compiled alike.
#pragma once

#include "adapter/program.hpp"

#include <span>
#include <string>

namespace zeal::adapter {

// ZEAL_RESULT_ERROR_LINK_FAILURE whose log is its message.
Error link_error(std::string message);

// Every import exported by exactly one of the objects, with what the importer declares of it
// holding for its definition; then every call a kernel reaches into another object made with
// the kernel's sub-group size and within the callee's range_type.
Status check_link(std::span<Program *const> objects);

} // namespace zeal::adapter
