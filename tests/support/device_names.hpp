// What a zeal CPU device's name says of its place among the driver's devices, for tests that check which
// devices a setting or selector leaves.
#pragma once

#include <string>

namespace zeal::test {

// "device 0 sub-device 1" of "zeal CPU device 0 sub-device 1 (host profile, ...)"; empty for the only root
// device ("zeal CPU (host profile, ...)"); the whole name when it is not a zeal CPU device's.
inline std::string device_position(const std::string &name) {
  const std::string prefix = "zeal CPU";
  const size_t open = name.find(" (");
  if (name.rfind(prefix, 0) != 0 || open == std::string::npos) return name;
  std::string position = name.substr(prefix.size(), open - prefix.size());
  return position.empty() ? position : position.substr(1); // drop the space after "zeal CPU"
}

} // namespace zeal::test
