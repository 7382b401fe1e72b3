// parse_module_metadata: device-image metadata entries (DESIGN.md) into a ModuleMetadata.
#include "module_linker/link_plan.hpp"

#include <fmt/format.h>

#include <charconv>
#include <optional>

namespace zeal::module_linker {

namespace {

// "<kind>.<name>.<property>", the key form of include/zeal/zeal_adapter.h: the
// name is everything between the first and the last '.', so it may hold dots.
struct KeyParts {
  std::string_view kind, name, property;
};

std::optional<KeyParts> split_key(std::string_view key) {
  size_t first = key.find('.'), last = key.rfind('.');
  if (first == std::string_view::npos || first == last || last == first + 1) return std::nullopt;
  return KeyParts{key.substr(0, first), key.substr(first + 1, last - first - 1), key.substr(last + 1)};
}

} // namespace

Result<ModuleMetadata> parse_module_metadata(std::span<const std::pair<std::string, std::string>> entries) {
  ModuleMetadata meta;
  for (const auto &[key, value] : entries) {
    if (key == "library") {
      meta.library = value;
      continue;
    }
    auto parts = split_key(key);
    if (!parts) continue; // kernels, exports, imports and keys of newer producers
    if (parts->kind == "function" && parts->property == "sub_group_size") {
      uint32_t size = 0;
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), size);
      if (ec != std::errc() || end != value.data() + value.size() || size == 0)
        return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                          fmt::format("metadata '{}' is '{}', not a positive sub-group size", key, value));
      meta.functions[std::string(parts->name)].sub_group_size = size;
    } else if (parts->kind == "function" && parts->property == "range_type") {
      meta.functions[std::string(parts->name)].range_type = value;
    } else if (parts->kind == "kernel" && parts->property == "range_type") {
      meta.kernel_range_types[std::string(parts->name)] = value;
    }
  }
  return meta;
}

} // namespace zeal::module_linker
