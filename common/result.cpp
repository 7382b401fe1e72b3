// Error construction and formatting.
#include "common/result.hpp"

#include <fmt/format.h>

namespace zeal {

template <>
std::string Error::describe() const {
  return fmt::format("{}: {} (at {}:{})", zealResultName(code), message, where.file_name(), where.line());
}

Error make_error(zeal_result_t code, std::string message, std::source_location where) {
  return Error{code, std::move(message), where, 0, {}};
}

} // namespace zeal
