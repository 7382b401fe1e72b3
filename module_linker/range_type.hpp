// range_type (sycl_ext_oneapi_range_type): the types a kernel or function may declare, and when a call between two fits.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace zeal::module_linker {

// The values a range_type can represent.
struct RangeType {
  int64_t min = 0;
  uint64_t max = 0;
};

// A C++ integral type name (LP64; "std::" and the <cstdint> names accepted) or a work-item count N, which
// stands for the range 0..N; nullopt for anything else.
std::optional<RangeType> parse_range_type(std::string_view text);

// What a kernel or function declaring no range_type has: the spec's default, size_t. A caller without one can
// be launched with any size_t range, so a callee declaring a narrower one is refused ("if the range_type
// property is missing in the translation unit that makes the call ... the program is ill-formed").
inline constexpr std::string_view kUndeclaredRangeType = "size_t";

// The spec's rule: the callee's range_type must represent every value the caller's can.
bool represents(const RangeType &callee, const RangeType &caller);

} // namespace zeal::module_linker
