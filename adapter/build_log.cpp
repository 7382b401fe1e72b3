// Reading driver build logs: the line that says why, and the kernel a log blames for a sub-group size.
#include "adapter/build_log.hpp"

#include <algorithm>
#include <cctype>

namespace zeal::adapter {
namespace {

std::string_view first_line(std::string_view text) {
  size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return {};
  size_t end = text.find_first_of("\r\n", start);
  return text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

bool speaks_of_sub_groups(std::string_view log) {
  std::string lower(log);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (std::string_view word : {"sub-group", "subgroup", "sub_group", "sub group"})
    if (lower.find(word) != std::string::npos) return true;
  return false;
}

bool names_in_quotes(std::string_view log, const std::string &name) {
  for (char quote : {'\'', '"'})
    if (log.find(quote + name + quote) != std::string_view::npos) return true;
  return false;
}

} // namespace

std::string driver_reason(std::string_view log) {
  constexpr std::string_view kNote = "zeal: kernel";
  size_t at = 0;
  while (log.substr(at).starts_with(kNote) && log.find('\n', at) != std::string_view::npos)
    at = log.find('\n', at) + 1;
  return std::string(first_line(log.substr(at)));
}

const KernelRequirements *kernel_blamed_for_sub_group_size(std::string_view driver_log,
                                                           std::span<const KernelRequirements> candidates,
                                                           std::span<const std::string> skip) {
  if (!speaks_of_sub_groups(driver_log)) return nullptr;
  for (const auto &k : candidates) {
    if (k.sub_group_size == 0 || std::find(skip.begin(), skip.end(), k.name) != skip.end()) continue;
    if (names_in_quotes(driver_log, k.name)) return &k;
  }
  return nullptr;
}

} // namespace zeal::adapter
