// parse_module_metadata: device-image metadata entries (DESIGN.md) into a ModuleMetadata.
#include "module_linker/link_plan.hpp"

#include <fmt/format.h>

#include <charconv>

namespace zeal::module_linker {

Result<ModuleMetadata> parse_module_metadata(std::span<const std::pair<std::string, std::string>> entries) {
  ModuleMetadata meta;
  for (const auto &[key, value] : entries) {
    std::string_view k = key;
    if (k == "library") {
      meta.library = value;
    } else if (k.starts_with("sub_group_size:")) {
      uint32_t size = 0;
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), size);
      if (ec != std::errc() || end != value.data() + value.size() || size == 0)
        return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                          fmt::format("metadata '{}' is '{}', not a positive sub-group size", key, value));
      meta.functions[std::string(k.substr(15))].sub_group_size = size;
    } else if (k.starts_with("range_type:")) {
      meta.functions[std::string(k.substr(11))].range_type = value;
    } else if (k.starts_with("kernel_range_type:")) {
      meta.kernel_range_types[std::string(k.substr(18))] = value;
    }
  }
  return meta;
}

} // namespace zeal::module_linker
