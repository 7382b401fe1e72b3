// SPV_INTEL_global_variable_host_access rewritten for readers that do not know it (host_access.hpp).
#include "spirv/host_access.hpp"

#include "spirv/words.hpp"

#include <spirv/unified1/spirv.hpp>

#include <cstring>
#include <string_view>
#include <unordered_map>

namespace zeal::spirv {
namespace {

// SPV_INTEL_global_variable_host_access is newer than the SPIR-V headers Debian 12
// ships (1.3.239): its two numbers, from the extension's specification.
constexpr uint32_t CapabilityHostAccess = 6187, HostAccessINTEL = 6188;
constexpr std::string_view host_access_extension = "SPV_INTEL_global_variable_host_access";

// The words of a literal string, nul-terminated and padded to a word.
std::vector<uint32_t> string_to_words(const std::string &text) {
  std::vector<uint32_t> words(text.size() / 4 + 1, 0);
  std::memcpy(words.data(), text.data(), text.size());
  return words;
}

// The instructions before the first function (where capabilities, extensions
// and decorations live), or nothing when a word count does not fit.
std::vector<Instruction> module_section(std::span<const uint32_t> words) {
  std::vector<Instruction> out;
  for (const Instruction &i : instructions(words)) {
    if (i.cut) return {};
    if (i.opcode == spv::OpFunction) break;
    out.push_back(i);
  }
  return out;
}

// Whether the module declares the extension's capability or decorates a variable
// HostAccessINTEL. Most modules do not, so it reads the bytes where they lie
// (they need not be aligned to a word) rather than copy the module to scan it.
bool uses_host_access(std::span<const uint8_t> spirv) {
  auto word = [&](size_t index) {
    uint32_t w;
    std::memcpy(&w, spirv.data() + 4 * index, sizeof w);
    return w;
  };
  const size_t size = spirv.size() / 4;
  for (size_t at = header_words; at < size;) {
    const uint32_t count = word(at) >> 16, opcode = word(at) & 0xffff;
    if (count == 0 || count > size - at || opcode == spv::OpFunction) return false;
    if (opcode == spv::OpCapability && count == 2 && word(at + 1) == CapabilityHostAccess) return true;
    if (opcode == spv::OpDecorate && count >= 5 && word(at + 2) == HostAccessINTEL) return true;
    at += count;
  }
  return false;
}

} // namespace

HostAccessRewrite rewrite_host_access(std::span<const uint8_t> spirv) {
  HostAccessRewrite result;
  if (spirv.size() % 4 != 0 || spirv.size() < header_words * 4 || !uses_host_access(spirv)) return result;
  std::vector<uint32_t> words(spirv.size() / 4);
  std::memcpy(words.data(), spirv.data(), spirv.size());
  std::vector<Instruction> section = module_section(words);

  std::unordered_map<uint32_t, std::string> host_names; // variable id -> host name
  std::unordered_map<uint32_t, std::pair<std::string, uint32_t>> linkage; // id -> (name, Export/Import)
  bool has_linkage_capability = false;
  for (const Instruction &i : section) {
    std::span<const uint32_t> op = i.words.subspan(1);
    if (i.opcode == spv::OpCapability && op.size() == 1 && op[0] == spv::CapabilityLinkage) {
      has_linkage_capability = true;
    }
    if (i.opcode != spv::OpDecorate || op.size() < 3) continue;
    if (op[1] == HostAccessINTEL && op.size() >= 4) host_names[op[0]] = literal_string(op.subspan(3));
    if (op[1] == spv::DecorationLinkageAttributes && op.size() >= 4) {
      linkage[op[0]] = {literal_string(op.subspan(2, op.size() - 3)), op.back()};
    }
  }
  bool uses_extension = !host_names.empty();
  for (const Instruction &i : section) {
    if (i.opcode == spv::OpCapability && i.count == 2 && i.words[1] == CapabilityHostAccess) uses_extension = true;
  }
  if (!uses_extension) return result;

  std::vector<uint32_t> out(words.begin(), words.begin() + header_words);
  bool capability_added = has_linkage_capability;
  for (const Instruction &i : section) {
    std::span<const uint32_t> op = i.words.subspan(1);
    if (i.opcode == spv::OpCapability && op.size() == 1 && op[0] == CapabilityHostAccess) continue;
    if (i.opcode == spv::OpExtension && literal_string(op) == host_access_extension) continue;
    if (i.opcode == spv::OpDecorate && op.size() >= 4 && op[1] == HostAccessINTEL) {
      const std::string &host = host_names[op[0]];
      auto linked = linkage.find(op[0]);
      if (linked == linkage.end()) {
        // No linkage: exported under the host name, as if the module said so.
        std::vector<uint32_t> name = string_to_words(host);
        out.push_back(uint32_t(4 + name.size()) << 16 | spv::OpDecorate);
        out.push_back(op[0]);
        out.push_back(spv::DecorationLinkageAttributes);
        out.insert(out.end(), name.begin(), name.end());
        out.push_back(spv::LinkageTypeExport);
      } else if (linked->second.second == spv::LinkageTypeExport && linked->second.first != host) {
        result.aliases.emplace_back(host, linked->second.first);
      }
      // An import's host access belongs to the module that defines the variable.
      continue;
    }
    out.insert(out.end(), i.words.begin(), i.words.end());
    if (i.opcode == spv::OpCapability && !capability_added) {
      out.push_back(2u << 16 | spv::OpCapability);
      out.push_back(spv::CapabilityLinkage);
      capability_added = true;
    }
  }
  size_t rest = section.empty() ? header_words : section.back().at + section.back().count;
  out.insert(out.end(), words.begin() + rest, words.end());
  result.spirv.resize(out.size() * 4);
  std::memcpy(result.spirv.data(), out.data(), result.spirv.size());
  return result;
}

} // namespace zeal::spirv
