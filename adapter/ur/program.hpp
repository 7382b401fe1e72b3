// What the UR face's program files share: a UR program is a UrProgram, a zeal Program for each of its devices.
#pragma once

#include "adapter/ur/program_set.hpp"

namespace zeal::adapter::ur {

// The queries (info, build info, symbols, native handle), in program_info.cpp.
void implement_program_queries(ur_program_dditable_t &table);

} // namespace zeal::adapter::ur
