// Stripping entry points from SPIR-V by walking its instruction stream (SPIR-V spec 2.3, 3.32).
#include "adapter/spirv_strip.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace zeal::adapter {
namespace {

constexpr uint32_t kMagic = 0x07230203;
constexpr uint32_t kOpEntryPoint = 15;
constexpr uint32_t kOpExecutionMode = 16;
constexpr uint32_t kOpExecutionModeId = 331;
constexpr size_t kHeaderWords = 5;

// The literal string starting at words[0], bounded by the instruction's end.
std::string literal(std::span<const uint32_t> words) {
  std::string out;
  for (uint32_t w : words)
    for (int b = 0; b < 4; ++b) {
      char c = static_cast<char>((w >> (8 * b)) & 0xff);
      if (c == '\0') return out;
      out.push_back(c);
    }
  return out;
}

} // namespace

Result<std::vector<uint8_t>> strip_kernels(std::span<const uint8_t> spirv, const std::vector<std::string> &kernels) {
  if (spirv.size() % 4 != 0 || spirv.size() < kHeaderWords * 4)
    return make_error(ZEAL_RESULT_ERROR_INVALID_BINARY, "SPIR-V to strip is not a whole number of words");
  std::vector<uint32_t> words(spirv.size() / 4);
  std::memcpy(words.data(), spirv.data(), spirv.size());
  // module_linker accepted the module already; byte-swapped modules are rare enough to refuse here.
  if (words[0] != kMagic)
    return make_error(ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE, "stripping kernels from byte-swapped SPIR-V");
  std::vector<uint32_t> stripped_ids;
  // First pass: which function ids are the named entry points.
  for (size_t at = kHeaderWords; at < words.size();) {
    uint32_t count = words[at] >> 16, op = words[at] & 0xffff;
    if (count == 0 || at + count > words.size())
      return make_error(ZEAL_RESULT_ERROR_INVALID_BINARY, fmt::format("SPIR-V instruction at word {} is truncated", at));
    if (op == kOpEntryPoint && count >= 4) {
      std::string name = literal(std::span<const uint32_t>(words).subspan(at + 3, count - 3));
      if (std::find(kernels.begin(), kernels.end(), name) != kernels.end()) stripped_ids.push_back(words[at + 2]);
    }
    at += count;
  }
  std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
  out.reserve(words.size());
  for (size_t at = kHeaderWords; at < words.size();) {
    uint32_t count = words[at] >> 16, op = words[at] & 0xffff;
    bool drop = (op == kOpEntryPoint && count >= 3 &&
                 std::find(stripped_ids.begin(), stripped_ids.end(), words[at + 2]) != stripped_ids.end()) ||
                ((op == kOpExecutionMode || op == kOpExecutionModeId) && count >= 2 &&
                 std::find(stripped_ids.begin(), stripped_ids.end(), words[at + 1]) != stripped_ids.end());
    if (!drop) out.insert(out.end(), words.begin() + at, words.begin() + at + count);
    at += count;
  }
  std::vector<uint8_t> bytes(out.size() * 4);
  std::memcpy(bytes.data(), out.data(), bytes.size());
  return bytes;
}

} // namespace zeal::adapter
