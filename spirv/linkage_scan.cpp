// The names a SPIR-V module imports and exports, read from its LinkageAttributes decorations.
#include "spirv/linkage_scan.hpp"

#include "spirv/imports.hpp"
#include "spirv/words.hpp"

#include <spirv/unified1/spirv.hpp>

#include <cstring>
#include <unordered_set>

namespace zeal::spirv {
namespace {

enum LinkageType : uint32_t { Export = 0, Import = 1 };

} // namespace

Linkage scan_linkage(std::span<const uint8_t> spirv) {
  std::vector<uint32_t> words(spirv.size() / 4);
  std::memcpy(words.data(), spirv.data(), words.size() * 4);
  struct Linked {
    uint32_t id;
    std::string name;
    uint32_t type;
  };
  std::vector<Linked> linked;
  std::unordered_set<uint32_t> builtins;
  std::unordered_set<std::string> entry_points;
  bool function_pointers = false;
  // Decorations and entry points come before any function: stop at the first.
  for (const Instruction &i : instructions(words)) {
    const uint32_t opcode = i.opcode;
    std::span<const uint32_t> inst = i.words;
    if (i.cut || opcode == spv::OpFunction) break;
    if (opcode == spv::OpCapability && inst.size() >= 2 && inst[1] == spv::CapabilityFunctionPointersINTEL)
      function_pointers = true;
    if (opcode == spv::OpEntryPoint && inst.size() >= 4) entry_points.insert(literal_string(inst.subspan(3)));
    if (opcode != spv::OpDecorate || inst.size() < 3) continue;
    if (inst[2] == spv::DecorationBuiltIn) builtins.insert(inst[1]);
    if (inst[2] == spv::DecorationLinkageAttributes && inst.size() >= 5) {
      linked.push_back({inst[1], literal_string(inst.subspan(3, inst.size() - 4)), inst.back()});
    }
  }
  Linkage out;
  out.function_pointers = function_pointers;
  for (const Linked &symbol : linked) {
    if (symbol.type == Import && !builtins.contains(symbol.id) && !is_spirv_builtin_name(symbol.name)) {
      out.imports.push_back(symbol.name);
    } else if (symbol.type == Export && !entry_points.contains(symbol.name)) {
      out.exports.push_back(symbol.name);
    }
  }
  return out;
}

} // namespace zeal::spirv
