// UR's result names for the trace, from the SDK's printer (ur_print.hpp is large: one file includes it).
#include "adapter/ur/trace.hpp"

#include <unified-runtime/ur_print.hpp>

#include <sstream>

namespace zeal::adapter::ur {

std::string ur_result_name(ur_result_t result) {
  std::ostringstream text;
  text << result;
  return text.str();
}

} // namespace zeal::adapter::ur
