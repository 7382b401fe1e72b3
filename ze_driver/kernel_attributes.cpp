// zeKernelGetSourceAttributes's text and copy (kernel_attributes.hpp).
#include "ze_driver/kernel_attributes.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace zeal::ze {

std::string source_attributes(const uint32_t required_group_size[3], const uint32_t group_size_hint[3],
                              std::string_view vec_type_hint, uint32_t required_subgroup_size) {
  std::vector<std::string> attributes;
  if (required_group_size[0] != 0)
    attributes.push_back(fmt::format("reqd_work_group_size({},{},{})", required_group_size[0], required_group_size[1],
                                     required_group_size[2]));
  if (group_size_hint[0] != 0)
    attributes.push_back(fmt::format("work_group_size_hint({},{},{})", group_size_hint[0], group_size_hint[1],
                                     group_size_hint[2]));
  if (!vec_type_hint.empty()) attributes.push_back(fmt::format("vec_type_hint({})", vec_type_hint));
  if (required_subgroup_size != 0)
    attributes.push_back(fmt::format("intel_reqd_sub_group_size({})", required_subgroup_size));
  return fmt::format("{}", fmt::join(attributes, " "));
}

ze_result_t copy_source_attributes(const std::string &text, uint32_t *size, char **string) {
  if (size == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const auto needed = static_cast<uint32_t>(text.size() + 1);
  if (string != nullptr && *string == nullptr) {
    *string = const_cast<char *>(text.c_str()); // the spec's char** is not const; nothing writes through it
    *size = needed;
    return ZE_RESULT_SUCCESS;
  }
  if (string == nullptr || *size == 0) {
    *size = needed;
    return ZE_RESULT_SUCCESS;
  }
  uint32_t n = std::min(*size - 1, needed - 1);
  std::memcpy(*string, text.data(), n);
  (*string)[n] = '\0';
  *size = n + 1;
  return ZE_RESULT_SUCCESS;
}

} // namespace zeal::ze
