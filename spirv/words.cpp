// SPIR-V read word by word (words.hpp).
#include "spirv/words.hpp"

namespace zeal::spirv {

std::string literal_string(std::span<const uint32_t> words) {
  std::string text;
  for (uint32_t word : words) {
    for (int byte = 0; byte < 4; ++byte) {
      char c = char((word >> (8 * byte)) & 0xff);
      if (c == '\0') return text;
      text += c;
    }
  }
  return text;
}

} // namespace zeal::spirv
