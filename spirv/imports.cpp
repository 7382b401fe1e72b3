// Which imports a driver provides itself (imports.hpp).
#include "spirv/imports.hpp"

namespace zeal::spirv {

bool is_spirv_builtin_name(std::string_view name) { return name.starts_with("__spirv_"); }

bool is_driver_library_name(std::string_view name) {
  return name.starts_with("__builtin_spirv_") || name == "__devicelib_assert_fail";
}

} // namespace zeal::spirv
