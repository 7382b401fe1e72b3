// The range_type names zeal knows, with the values each represents, and the rule a call between two keeps.
#include "module_linker/range_type.hpp"

#include <charconv>
#include <cstdint>

namespace zeal::module_linker {

std::optional<RangeType> parse_range_type(std::string_view text) {
  uint64_t count = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), count);
  if (!text.empty() && ec == std::errc() && end == text.data() + text.size()) return RangeType{0, count};
  if (text.starts_with("std::")) text.remove_prefix(5);
  constexpr int64_t i8 = INT8_MIN, i16 = INT16_MIN, i32 = INT32_MIN, i64 = INT64_MIN;
  struct Row {
    std::string_view name;
    RangeType range;
  };
  static constexpr Row kRows[] = {
      {"char", {i8, INT8_MAX}},          {"signed char", {i8, INT8_MAX}},   {"int8_t", {i8, INT8_MAX}},
      {"unsigned char", {0, UINT8_MAX}}, {"uint8_t", {0, UINT8_MAX}},       {"short", {i16, INT16_MAX}},
      {"int16_t", {i16, INT16_MAX}},     {"unsigned short", {0, UINT16_MAX}}, {"uint16_t", {0, UINT16_MAX}},
      {"int", {i32, INT32_MAX}},         {"int32_t", {i32, INT32_MAX}},     {"unsigned int", {0, UINT32_MAX}},
      {"unsigned", {0, UINT32_MAX}},     {"uint32_t", {0, UINT32_MAX}},     {"long", {i64, INT64_MAX}},
      {"long long", {i64, INT64_MAX}},   {"int64_t", {i64, INT64_MAX}},     {"ptrdiff_t", {i64, INT64_MAX}},
      {"unsigned long", {0, UINT64_MAX}}, {"unsigned long long", {0, UINT64_MAX}},
      {"uint64_t", {0, UINT64_MAX}},     {"size_t", {0, UINT64_MAX}},
  };
  for (const Row &row : kRows)
    if (row.name == text) return row.range;
  return std::nullopt;
}

bool represents(const RangeType &callee, const RangeType &caller) {
  return callee.min <= caller.min && callee.max >= caller.max;
}

} // namespace zeal::module_linker
