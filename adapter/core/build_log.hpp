// Reading driver build logs: the line that says why a build failed.
#pragma once

#include <string>
#include <string_view>

namespace zeal::adapter {

// The first non-blank line of `log` past the adapter's own "zeal: kernel ... left
// out" notes: what the driver said first. Empty when the driver said nothing.
std::string driver_reason(std::string_view log);

} // namespace zeal::adapter
