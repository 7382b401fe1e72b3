// inspect_spirv: one pass of spvBinaryParse collecting what module_linker needs to know of a module.
#include "module_linker/module_info.hpp"

#include "spirv/host_access.hpp"
#include "spirv/newer.hpp"
#include "spirv/words.hpp"

#include <spirv-tools/libspirv.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <set>

#include "common/log.hpp"
#include "common/settings.hpp"
#include "module_linker/inspect_state.hpp"

namespace zeal::module_linker {
namespace detail {

// A literal string operand: UTF-8 bytes packed little-endian into words, NUL-terminated.
std::string literal_string(const spv_parsed_instruction_t &inst, const spv_parsed_operand_t &op) {
  return spirv::literal_string(std::span<const uint32_t>(inst.words + op.offset, op.num_words));
}

} // namespace detail

namespace {

using namespace detail;

void on_decorate(ParseState &s, const spv_parsed_instruction_t &inst) {
  uint32_t target = inst.words[1];
  uint32_t decoration = inst.words[2];
  if (decoration == DecorationBuiltIn && inst.num_words >= 4) s.builtins[target] = inst.words[3];
  if (decoration == DecorationSpecId && inst.num_words >= 4) s.spec_ids[target] = inst.words[3];
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
  auto &s = *static_cast<ParseState *>(user);
  s.types.reserve(id_bound, s.word_count);
  s.global_keys.reserve(id_bound, s.word_count);
  s.value_types.reserve(id_bound, s.word_count);
  s.function_index.reserve(id_bound, s.word_count);
  s.locals.reserve(id_bound, s.word_count);
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
  case OpName: s.names[inst->words[1]] = literal_string(*inst, inst->operands[1]); break;
  case OpExtInstImport: s.global_keys[inst->result_id] = hash_string(literal_string(*inst, inst->operands[1])); break;
  case OpVariable:
    if (s.current < 0) on_variable(s, *inst);
    else on_function_instruction(s, *inst);
    break;
  default:
    if (inst->opcode >= OpTypeVoid && inst->opcode <= OpTypeForwardPointer) on_type(s, *inst);
    else if (inst->opcode >= OpConstantTrue && inst->opcode <= OpSpecConstantOp) on_constant(s, *inst);
    else if (inst->opcode >= OpFunction || s.current >= 0) on_function_instruction(s, *inst);
    break;
  }
  return SPV_SUCCESS;
}

void finish_entry_points(ParseState &s) {
  for (EntryPoint &ep : s.info.entry_points) {
    const Reach &reach = reach_from(s, ep.function_id);
    ep.features = reach.features;
    ep.reached_imports = reach.imports;
    auto it = s.modes.find(ep.function_id);
    if (it == s.modes.end()) continue;
    ep.modes = it->second;
    for (const ExecutionModeInfo &m : ep.modes) {
      auto mode = static_cast<spv::ExecutionMode>(m.mode);
      if (mode == spv::ExecutionMode::SubgroupSize && !m.operands.empty())
        ep.required_sub_group_size = m.operands[0];
      if (mode == spv::ExecutionMode::LocalSize && m.operands.size() >= 3)
        std::copy_n(m.operands.begin(), 3, ep.required_work_group_size.begin());
      if (mode == spv::ExecutionMode::LocalSizeHint && m.operands.size() >= 3)
        std::copy_n(m.operands.begin(), 3, ep.local_size_hint.begin());
      if (mode == spv::ExecutionMode::SubgroupsPerWorkgroup && !m.operands.empty())
        ep.sub_groups_per_work_group = m.operands[0];
    }
  }
}

Symbol make_symbol(ParseState &s, uint32_t id, const Linkage &link) {
  Symbol sym;
  sym.name = link.name;
  sym.id = id;
  sym.kind = s.function_index.get(id) > 0 ? SymbolKind::Function : SymbolKind::Variable;
  sym.type = symbol_type(s, id, sym.kind);
  sym.link_once_odr = link.type == LinkageTypeLinkOnceODR;
  if (link.type == LinkageTypeImport) return sym;
  if (sym.kind == SymbolKind::Function) {
    const FunctionState &fn = s.functions[size_t(s.function_index.get(id) - 1)];
    sym.definition_hash = mix(fn.hash, s.global_keys.get(fn.type_id));
    const Reach &reach = reach_from(s, id);
    sym.features = reach.features;
    sym.reached_imports = reach.imports;
  } else {
    sym.definition_hash = s.global_keys.get(id);
  }
  return sym;
}

void finish_linkage(ParseState &s) {
  for (const auto &[id, link] : s.linkage) {
    if (link.type == LinkageTypeImport) {
      if (is_builtin_import(s, id, link.name)) continue;
      s.info.imports.push_back(link.name);
      s.info.imported_symbols.push_back(make_symbol(s, id, link));
    } else if (link.type == LinkageTypeExport || link.type == LinkageTypeLinkOnceODR) {
      s.info.exports.push_back(link.name);
      s.info.exported_symbols.push_back(make_symbol(s, id, link));
    }
  }
  auto by_name = [](const Symbol &a, const Symbol &b) { return a.name < b.name; };
  std::sort(s.info.imports.begin(), s.info.imports.end());
  std::sort(s.info.exports.begin(), s.info.exports.end());
  std::sort(s.info.imported_symbols.begin(), s.info.imported_symbols.end(), by_name);
  std::sort(s.info.exported_symbols.begin(), s.info.exported_symbols.end(), by_name);
}

void finish(ParseState &s) {
  finish_entry_points(s);
  finish_linkage(s);
  std::set<std::string> builtins;
  for (const auto &[id, builtin] : s.builtins) builtins.insert(builtin_name(builtin));
  s.info.builtins.assign(builtins.begin(), builtins.end());
  std::sort(s.info.spec_constants.begin(), s.info.spec_constants.end(),
            [](const SpecConstant &a, const SpecConstant &b) { return a.spec_id < b.spec_id; });
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

const Symbol *ModuleInfo::find_export(std::string_view name) const {
  auto it = std::lower_bound(exported_symbols.begin(), exported_symbols.end(), name,
                             [](const Symbol &s, std::string_view n) { return s.name < n; });
  return it != exported_symbols.end() && it->name == name ? &*it : nullptr;
}

const Symbol *ModuleInfo::find_import(std::string_view name) const {
  auto it = std::lower_bound(imported_symbols.begin(), imported_symbols.end(), name,
                             [](const Symbol &s, std::string_view n) { return s.name < n; });
  return it != imported_symbols.end() && it->name == name ? &*it : nullptr;
}

std::optional<std::vector<uint32_t>> to_words(std::span<const uint8_t> bytes) {
  if (bytes.size() % 4 != 0) return std::nullopt;
  // Copy into words: the caller's bytes need not be 4-byte aligned.
  std::vector<uint32_t> words(bytes.size() / 4);
  if (!bytes.empty()) std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

namespace {

Result<ModuleInfo> parse(std::span<const uint32_t> words) {
  if (words.empty()) return make_error(ZEAL_RESULT_ERROR_INVALID_BINARY, "the SPIR-V binary is empty");
  if (words[0] != spv::kMagic && words[0] != __builtin_bswap32(spv::kMagic))
    return make_error(ZEAL_RESULT_ERROR_INVALID_BINARY,
                      fmt::format("the binary is not SPIR-V: its first word is {:#010x}, not the magic number {:#010x}",
                                  words[0], spv::kMagic));
  ParseState state;
  state.word_count = words.size();
  spv_diagnostic diagnostic = nullptr;
  spv_result_t r = spvBinaryParse(parser_context(), &state, words.data(), words.size(), on_header,
                                  on_instruction, &diagnostic);
  if (r != SPV_SUCCESS) {
    std::string what = diagnostic != nullptr && diagnostic->error != nullptr ? diagnostic->error : "unknown error";
    size_t at = diagnostic != nullptr ? diagnostic->position.index : 0;
    spvDiagnosticDestroy(diagnostic);
    if (std::optional<uint32_t> capability = spirv::unknown_capability(what)) {
      return make_error(ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE,
                        fmt::format("the module declares {}, which zeal's SPIR-V tools (SPIRV-Tools 2023.1) do not "
                                    "know", spirv::capability_name(*capability)));
    }
    return make_error(ZEAL_RESULT_ERROR_INVALID_BINARY,
                      fmt::format("the SPIR-V binary does not parse: {} (at word {})", what, at));
  }
  spvDiagnosticDestroy(diagnostic);
  finish(state);
  return std::move(state.info);
}

// Applies the validation policy to a module that parsed.
Status apply_validation(std::span<const uint32_t> words, Validation validation, ModuleInfo &info) {
  if (validation == Validation::FromSettings)
    validation = settings().validate_spirv == "strict" ? Validation::Strict : Validation::FromSettings;
  if (validation == Validation::Off) return {};
  info.validation_findings = validate_spirv(words);
  if (info.validation_findings.empty()) return {};
  std::string all;
  for (const std::string &f : info.validation_findings) all += (all.empty() ? "" : "; ") + f;
  if (validation == Validation::Strict)
    return make_error(ZEAL_RESULT_ERROR_INVALID_BINARY,
                      fmt::format("the SPIR-V binary fails validation (ZEAL_VALIDATE_SPIRV=strict): {}", all));
  if (validation == Validation::FromSettings)
    logger("module_linker").warn("spirv-val findings (set ZEAL_VALIDATE_SPIRV=strict to reject): {}", all);
  return {};
}

} // namespace

Result<ModuleInfo> inspect_spirv(std::span<const uint32_t> module, const InspectOptions &options) {
  // Triton's and oneCCL's bfloat16 conversions, which SPIRV-Tools 2023.1 cannot parse, seen as what it can.
  std::vector<uint32_t> view = spirv::spirv_tools_view(module);
  std::span<const uint32_t> words = view.empty() ? module : std::span<const uint32_t>(view);
  Result<ModuleInfo> info = parse(words);
  if (!info.ok()) return info;
  if (Status s = apply_validation(words, options.validation, info.value()); !s.ok()) return std::move(s).error();
  return info;
}

Result<ModuleInfo> inspect_spirv(std::span<const uint8_t> bytes, const InspectOptions &options) {
  // SPIRV-Tools 2023.1 cannot parse device_global's HostAccessINTEL: the module is
  // read as the CPU driver reads it, host names as exports (spirv/host_access.hpp).
  spirv::HostAccessRewrite host_access = spirv::rewrite_host_access(bytes);
  bytes = host_access.module_or(bytes);
  std::optional<std::vector<uint32_t>> words = to_words(bytes);
  if (!words)
    return make_error(ZEAL_RESULT_ERROR_INVALID_BINARY,
                      fmt::format("the SPIR-V binary is {} bytes long, which is not a multiple of 4", bytes.size()));
  return inspect_spirv(std::span<const uint32_t>(*words), options);
}

Result<ModuleInfo> inspect_spirv(std::span<const uint32_t> words) { return inspect_spirv(words, InspectOptions{}); }

Result<ModuleInfo> inspect_spirv(std::span<const uint8_t> bytes) { return inspect_spirv(bytes, InspectOptions{}); }

} // namespace zeal::module_linker
