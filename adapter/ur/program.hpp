// What the UR face's program files share: a UR program is one zeal Program, for one device.
#pragma once

#include "adapter/program.hpp"
#include "adapter/ur/entry.hpp"

namespace zeal::adapter::ur {

// A device named alongside a program must be the program's one device (INVALID_DEVICE otherwise).
Outcome check_program_device(const Program &program, ur_device_handle_t handle, std::string_view entry);

// The queries (info, build info, symbols, native handle), in program_info.cpp.
void implement_program_queries(ur_program_dditable_t &table);

} // namespace zeal::adapter::ur
