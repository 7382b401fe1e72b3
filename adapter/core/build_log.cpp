// Reading driver build logs: the line that says why a build failed.
#include "adapter/core/build_log.hpp"

namespace zeal::adapter {
namespace {

std::string_view first_line(std::string_view text) {
  size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return {};
  size_t end = text.find_first_of("\r\n", start);
  return text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

} // namespace

std::string driver_reason(std::string_view log) {
  constexpr std::string_view kNote = "zeal: kernel";
  size_t at = 0;
  while (log.substr(at).starts_with(kNote) && log.find('\n', at) != std::string_view::npos)
    at = log.find('\n', at) + 1;
  return std::string(first_line(log.substr(at)));
}

} // namespace zeal::adapter
