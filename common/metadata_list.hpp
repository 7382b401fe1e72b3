// The list form of device-image metadata values ("a;b;c"): one reader for the runtime's registry and module_linker.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace zeal {

// The names of a ';'-separated list, empty names dropped (include/zeal/zeal_device_image.h).
inline std::vector<std::string> split_metadata_list(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(';', start);
    if (end == std::string_view::npos) end = text.size();
    if (end > start) out.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

} // namespace zeal
