// inspect_spirv: one pass of spvBinaryParse collecting what module_linker needs to know of a module.
#include "module_linker/module_info.hpp"

#include <spirv-tools/libspirv.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <set>

namespace zeal::module_linker {
namespace {

// The opcodes and decorations the pass reacts to (SPIR-V spec, section 3.32 / 3.20).
enum Op : uint32_t {
  OpExtension = 10, OpMemoryModel = 14, OpEntryPoint = 15, OpExecutionMode = 16,
  OpCapability = 17, OpDecorate = 71, OpExecutionModeId = 331
};
enum Decoration : uint32_t { DecorationBuiltIn = 11, DecorationLinkageAttributes = 41 };
enum LinkageType : uint32_t { LinkageExport = 0, LinkageImport = 1, LinkageLinkOnceODR = 2 };

struct Linkage {
  std::string name;
  uint32_t type = 0;
};

// What the parse callbacks collect; turned into a ModuleInfo once the parse succeeded.
struct ParseState {
  ModuleInfo info;
  std::map<uint32_t, Linkage> linkage;             // by target id
  std::set<uint32_t> builtins;                      // ids decorated BuiltIn
  std::map<uint32_t, std::vector<ExecutionModeInfo>> modes; // by entry-point function id
};

// A literal string operand: UTF-8 bytes packed little-endian into words, NUL-terminated.
std::string literal_string(const spv_parsed_instruction_t &inst, const spv_parsed_operand_t &op) {
  std::string out;
  for (uint16_t w = 0; w < op.num_words; ++w) {
    uint32_t word = inst.words[op.offset + w];
    for (int byte = 0; byte < 4; ++byte) {
      char c = static_cast<char>((word >> (8 * byte)) & 0xffu);
      if (c == '\0') return out;
      out.push_back(c);
    }
  }
  return out;
}

void on_decorate(ParseState &s, const spv_parsed_instruction_t &inst) {
  uint32_t target = inst.words[1];
  uint32_t decoration = inst.words[2];
  if (decoration == DecorationBuiltIn) s.builtins.insert(target);
  if (decoration == DecorationLinkageAttributes && inst.num_operands >= 4)
    s.linkage[target] = Linkage{literal_string(inst, inst.operands[2]), inst.words[inst.num_words - 1]};
}

void on_entry_point(ParseState &s, const spv_parsed_instruction_t &inst) {
  EntryPoint ep;
  ep.execution_model = inst.words[1];
  ep.function_id = inst.words[2];
  ep.name = literal_string(inst, inst.operands[2]);
  s.info.entry_points.push_back(std::move(ep));
}

void on_execution_mode(ParseState &s, const spv_parsed_instruction_t &inst) {
  ExecutionModeInfo mode;
  mode.mode = inst.words[2];
  mode.operands.assign(inst.words + 3, inst.words + inst.num_words);
  s.modes[inst.words[1]].push_back(std::move(mode));
}

spv_result_t on_header(void *user, spv_endianness_t, uint32_t, uint32_t version, uint32_t generator,
                       uint32_t id_bound, uint32_t) {
  auto &info = static_cast<ParseState *>(user)->info;
  info.version_major = (version >> 16) & 0xffu;
  info.version_minor = (version >> 8) & 0xffu;
  info.generator = generator;
  info.id_bound = id_bound;
  return SPV_SUCCESS;
}

spv_result_t on_instruction(void *user, const spv_parsed_instruction_t *inst) {
  auto &s = *static_cast<ParseState *>(user);
  switch (inst->opcode) {
  case OpCapability: s.info.capabilities.push_back(inst->words[1]); break;
  case OpExtension: s.info.extensions.push_back(literal_string(*inst, inst->operands[0])); break;
  case OpMemoryModel:
    s.info.addressing_model = inst->words[1];
    s.info.memory_model = inst->words[2];
    break;
  case OpEntryPoint: on_entry_point(s, *inst); break;
  case OpExecutionMode:
  case OpExecutionModeId: on_execution_mode(s, *inst); break;
  case OpDecorate: on_decorate(s, *inst); break;
  default: break;
  }
  return SPV_SUCCESS;
}

// Imports that are not real dependencies: built-in variables and the SPIR-V
// friendly built-in functions every consumer provides itself.
bool is_builtin_import(const ParseState &s, uint32_t id, const std::string &name) {
  return s.builtins.count(id) != 0 || name.rfind("__spirv_", 0) == 0;
}

void finish(ParseState &s) {
  for (EntryPoint &ep : s.info.entry_points) {
    auto it = s.modes.find(ep.function_id);
    if (it == s.modes.end()) continue;
    ep.modes = it->second;
    for (const ExecutionModeInfo &m : ep.modes) {
      auto mode = static_cast<spv::ExecutionMode>(m.mode);
      if (mode == spv::ExecutionMode::SubgroupSize && !m.operands.empty())
        ep.required_sub_group_size = m.operands[0];
      if (mode == spv::ExecutionMode::LocalSize && m.operands.size() >= 3)
        std::copy_n(m.operands.begin(), 3, ep.required_work_group_size.begin());
    }
  }
  for (const auto &[id, link] : s.linkage) {
    if (link.type == LinkageImport) {
      if (!is_builtin_import(s, id, link.name)) s.info.imports.push_back(link.name);
    } else if (link.type == LinkageExport || link.type == LinkageLinkOnceODR) {
      s.info.exports.push_back(link.name);
    }
  }
  std::sort(s.info.imports.begin(), s.info.imports.end());
  std::sort(s.info.exports.begin(), s.info.exports.end());
}

spv_const_context parser_context() {
  // The context only holds grammar tables, so one is shared by every thread.
  static const std::unique_ptr<spv_context_t, void (*)(spv_context)> context(
      spvContextCreate(SPV_ENV_UNIVERSAL_1_6), spvContextDestroy);
  return context.get();
}

} // namespace

const EntryPoint *ModuleInfo::find_entry_point(std::string_view name) const {
  auto it = std::find_if(entry_points.begin(), entry_points.end(), [&](auto &ep) { return ep.name == name; });
  return it == entry_points.end() ? nullptr : &*it;
}

bool ModuleInfo::has_capability(uint32_t capability) const {
  return std::find(capabilities.begin(), capabilities.end(), capability) != capabilities.end();
}

bool looks_like_spirv(std::span<const uint8_t> bytes) {
  if (bytes.size() < 4) return false;
  uint32_t word = 0;
  std::memcpy(&word, bytes.data(), 4);
  return word == spv::kMagic || word == __builtin_bswap32(spv::kMagic);
}

Result<ModuleInfo> inspect_spirv(std::span<const uint32_t> words) {
  if (words.empty()) return make_error(ZEAL_RESULT_ERROR_INVALID_BINARY, "the SPIR-V binary is empty");
  if (words[0] != spv::kMagic && words[0] != __builtin_bswap32(spv::kMagic))
    return make_error(ZEAL_RESULT_ERROR_INVALID_BINARY,
                      fmt::format("the binary is not SPIR-V: its first word is {:#010x}, not the magic number {:#010x}",
                                  words[0], spv::kMagic));
  ParseState state;
  spv_diagnostic diagnostic = nullptr;
  spv_result_t r = spvBinaryParse(parser_context(), &state, words.data(), words.size(), on_header,
                                  on_instruction, &diagnostic);
  if (r != SPV_SUCCESS) {
    std::string what = diagnostic != nullptr && diagnostic->error != nullptr ? diagnostic->error : "unknown error";
    size_t at = diagnostic != nullptr ? diagnostic->position.index : 0;
    spvDiagnosticDestroy(diagnostic);
    return make_error(ZEAL_RESULT_ERROR_INVALID_BINARY,
                      fmt::format("the SPIR-V binary does not parse: {} (at word {})", what, at));
  }
  spvDiagnosticDestroy(diagnostic);
  finish(state);
  return std::move(state.info);
}

Result<ModuleInfo> inspect_spirv(std::span<const uint8_t> bytes) {
  if (bytes.size() % 4 != 0)
    return make_error(ZEAL_RESULT_ERROR_INVALID_BINARY,
                      fmt::format("the SPIR-V binary is {} bytes long, which is not a multiple of 4", bytes.size()));
  // Copy into words: the caller's bytes need not be 4-byte aligned.
  std::vector<uint32_t> words(bytes.size() / 4);
  if (!bytes.empty()) std::memcpy(words.data(), bytes.data(), bytes.size());
  return inspect_spirv(std::span<const uint32_t>(words));
}

} // namespace zeal::module_linker
