// The CPU driver's handles: the Level Zero handle types and helpers every zeal driver shares (ze_driver/handles.hpp).
#pragma once

#include "ze_driver/handles.hpp"

namespace zeal::cpu {

using ze::copy_keeping_header;
using ze::copy_string_out;
using ze::destroy;
using ze::find_in_chain;
using ze::HandleOf;
using ze::list_out;

} // namespace zeal::cpu
