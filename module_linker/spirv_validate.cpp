// spirv-val through SPIRV-Tools' C++ API: findings as text, for inspect_spirv and the transformations.
#include "module_linker/module_info.hpp"

#include <spirv-tools/libspirv.hpp>

#include <fmt/format.h>

namespace zeal::module_linker {
namespace {

// The universal environment of the module's own version: OpenCL kernels are validated by the
// universal rules plus the Kernel capability's, which is what drivers consuming them check.
spv_target_env environment_for(std::span<const uint32_t> words) {
  uint32_t minor = words.size() > 1 ? (words[1] >> 8) & 0xffu : 0;
  switch (minor) {
  case 0: return SPV_ENV_UNIVERSAL_1_0;
  case 1: return SPV_ENV_UNIVERSAL_1_1;
  case 2: return SPV_ENV_UNIVERSAL_1_2;
  case 3: return SPV_ENV_UNIVERSAL_1_3;
  case 4: return SPV_ENV_UNIVERSAL_1_4;
  case 5: return SPV_ENV_UNIVERSAL_1_5;
  default: return SPV_ENV_UNIVERSAL_1_6;
  }
}

} // namespace

std::vector<std::string> validate_spirv(std::span<const uint32_t> words) {
  std::vector<std::string> findings;
  spvtools::SpirvTools tools(environment_for(words));
  tools.SetMessageConsumer([&](spv_message_level_t, const char *, const spv_position_t &position, const char *message) {
    // One line per finding: SPIRV-Tools appends the disassembled instruction on a new line.
    std::string text = message;
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    for (size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', nl))
      text.replace(nl, text.find_first_not_of(' ', nl + 1) - nl, " -- ");
    findings.push_back(fmt::format("word {}: {}", position.index, text));
  });
  if (!tools.Validate(words.data(), words.size()) && findings.empty()) findings.push_back("word 0: invalid module");
  return findings;
}

} // namespace zeal::module_linker
