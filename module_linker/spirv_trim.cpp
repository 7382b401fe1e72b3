// trim_unused: after functions are removed, drop the globals nobody uses and the device capabilities no code
// needs; merge_builtin_variables: after a static link, one variable per built-in.
#include "module_linker/spirv_trim.hpp"

#include <spirv/unified1/spirv.hpp>
#include <spirv-tools/libspirv.h>

#include <algorithm>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>

namespace zeal::module_linker::detail {
namespace {

using enum ::spv::Op;
using enum ::spv::Decoration;
using enum ::spv::LinkageType;

struct Instruction {
  size_t offset = 0, count = 0;
  uint32_t opcode = 0, result = 0;
  std::vector<uint32_t> uses;   // ids it refers to, except its result
  std::vector<uint32_t> use_at; // where each of `uses` is, in words from the instruction's start
};

struct Scan {
  std::vector<Instruction> insts;
  bool in_function = false;
};

bool is_annotation(uint32_t op) {
  return op == OpName || op == OpMemberName || op == OpDecorate || op == OpMemberDecorate;
}

// A module-scope definition that may go when unused: types, constants, variables, undefs.
bool is_global_definition(const Instruction &i, bool in_function) {
  if (in_function) return false;
  return (i.opcode >= OpTypeVoid && i.opcode <= OpTypeForwardPointer - 1) ||
         (i.opcode >= OpConstantTrue && i.opcode <= OpSpecConstantOp) || i.opcode == OpVariable || i.opcode == OpUndef;
}

spv_result_t on_instruction(void *user, const spv_parsed_instruction_t *p) {
  auto &scan = *static_cast<Scan *>(user);
  Instruction inst{0, p->num_words, p->opcode, p->result_id, {}, {}};
  for (uint16_t i = 0; i < p->num_operands; ++i) {
    const spv_parsed_operand_t &op = p->operands[i];
    bool id = op.type == SPV_OPERAND_TYPE_ID || op.type == SPV_OPERAND_TYPE_TYPE_ID ||
              op.type == SPV_OPERAND_TYPE_SCOPE_ID || op.type == SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID;
    if (id) {
      inst.uses.push_back(p->words[op.offset]);
      inst.use_at.push_back(op.offset);
    }
  }
  scan.insts.push_back(std::move(inst));
  return SPV_SUCCESS;
}

// Ids decorated as exported, and spec constants (the application sets them by SpecId), stay
// even when nothing in the module uses them.
std::unordered_set<uint32_t> exported_ids(std::span<const uint32_t> words, const Scan &scan) {
  std::unordered_set<uint32_t> ids;
  for (const Instruction &i : scan.insts)
    if (i.opcode == OpDecorate && i.count >= 3) {
      uint32_t decoration = words[i.offset + 2];
      bool exported = decoration == DecorationLinkageAttributes && words[i.offset + i.count - 1] != LinkageTypeImport;
      if (exported || decoration == DecorationSpecId) ids.insert(words[i.offset + 1]);
    }
  return ids;
}

// The unused global definitions, found by deleting to a fixpoint (a type used only by a dead
// constant dies with it).
std::unordered_set<uint32_t> dead_globals(std::span<const uint32_t> words, const Scan &scan,
                                          const std::vector<bool> &global) {
  std::unordered_map<uint32_t, size_t> refs, def_of;
  for (size_t n = 0; n < scan.insts.size(); ++n) {
    const Instruction &i = scan.insts[n];
    if (global[n]) def_of[i.result] = n;
    if (!is_annotation(i.opcode))
      for (uint32_t id : i.uses) ++refs[id];
  }
  std::unordered_set<uint32_t> keep = exported_ids(words, scan), dead;
  std::vector<uint32_t> work;
  for (auto &[id, n] : def_of)
    if (refs[id] == 0 && keep.count(id) == 0) work.push_back(id);
  while (!work.empty()) {
    uint32_t id = work.back();
    work.pop_back();
    if (!dead.insert(id).second) continue;
    for (uint32_t used : scan.insts[def_of[id]].uses)
      if (--refs[used] == 0 && def_of.count(used) != 0 && keep.count(used) == 0) work.push_back(used);
  }
  return dead;
}

// The module's instructions, each with its offset; false when it does not parse.
bool parse(std::span<const uint32_t> words, Scan &scan) {
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  spv_result_t r = spvBinaryParse(context, &scan, words.data(), words.size(), nullptr, on_instruction, nullptr);
  spvContextDestroy(context);
  size_t offset = 5;
  for (Instruction &i : scan.insts) {
    i.offset = offset;
    offset += i.count;
  }
  return r == SPV_SUCCESS;
}

} // namespace

std::vector<uint32_t> trim_unused(std::span<const uint32_t> words, uint32_t features_in_use) {
  Scan scan;
  if (!parse(words, scan)) return {words.begin(), words.end()};
  std::vector<bool> global(scan.insts.size());
  bool in_function = false;
  for (size_t n = 0; n < scan.insts.size(); ++n) {
    in_function = in_function || scan.insts[n].opcode == OpFunction;
    global[n] = is_global_definition(scan.insts[n], in_function);
  }
  std::unordered_set<uint32_t> dead = dead_globals(words, scan, global);
  bool double_type_left = false;
  for (size_t n = 0; n < scan.insts.size(); ++n) {
    const Instruction &i = scan.insts[n];
    if (i.opcode == OpTypeFloat && words[i.offset + 2] == 64 && dead.count(i.result) == 0) double_type_left = true;
  }
  auto capability_unneeded = [&](uint32_t cap) {
    if (cap == uint32_t(spv::Capability::Float64)) return !double_type_left && (features_in_use & kFeatureFp64) == 0;
    if (cap == uint32_t(spv::Capability::Int64Atomics)) return (features_in_use & kFeatureInt64Atomics) == 0;
    if (cap == uint32_t(spv::Capability::SubgroupShuffleINTEL)) return (features_in_use & kFeatureSubgroupShuffle) == 0;
    return false;
  };
  std::vector<uint32_t> out(words.begin(), words.begin() + 5);
  for (const Instruction &i : scan.insts) {
    bool drop = (i.result != 0 && dead.count(i.result) != 0) ||
                ((is_annotation(i.opcode) || i.opcode == OpTypeForwardPointer) && dead.count(words[i.offset + 1]) != 0) ||
                (i.opcode == OpCapability && capability_unneeded(words[i.offset + 1]));
    if (!drop) out.insert(out.end(), words.begin() + long(i.offset), words.begin() + long(i.offset + i.count));
  }
  return out;
}

std::vector<uint32_t> merge_builtin_variables(std::span<const uint32_t> words) {
  Scan scan;
  if (!parse(words, scan)) return {words.begin(), words.end()};
  std::unordered_map<uint32_t, uint32_t> builtin_of; // variable -> built-in
  for (const Instruction &i : scan.insts)
    if (i.opcode == OpDecorate && i.count >= 4 && words[i.offset + 2] == DecorationBuiltIn)
      builtin_of[words[i.offset + 1]] = words[i.offset + 3];
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> first; // (built-in, pointer type) -> variable kept
  std::unordered_map<uint32_t, uint32_t> replaced;
  for (const Instruction &i : scan.insts)
    if (auto b = builtin_of.find(i.result); i.opcode == OpVariable && b != builtin_of.end())
      if (auto [kept, fresh] = first.emplace(std::pair{b->second, words[i.offset + 1]}, i.result); !fresh)
        replaced[i.result] = kept->second;
  if (replaced.empty()) return {words.begin(), words.end()};
  std::vector<uint32_t> out(words.begin(), words.begin() + 5);
  for (const Instruction &i : scan.insts) {
    if ((i.opcode == OpVariable && replaced.count(i.result) != 0) ||
        (is_annotation(i.opcode) && replaced.count(words[i.offset + 1]) != 0))
      continue;
    std::vector<uint32_t> inst(words.begin() + long(i.offset), words.begin() + long(i.offset + i.count));
    for (uint32_t at : i.use_at)
      if (auto r = replaced.find(inst[at]); r != replaced.end()) inst[at] = r->second;
    if (i.opcode == OpEntryPoint && i.use_at.size() > 1) {
      // The interface (every id after the entry function's) lists each variable once.
      auto begin = inst.begin() + i.use_at[1];
      std::vector<uint32_t> seen;
      inst.erase(std::remove_if(begin, inst.end(), [&](uint32_t id) {
                   if (std::find(seen.begin(), seen.end(), id) != seen.end()) return true;
                   seen.push_back(id);
                   return false;
                 }), inst.end());
      inst[0] = uint32_t(inst.size()) << 16 | OpEntryPoint;
    }
    out.insert(out.end(), inst.begin(), inst.end());
  }
  return out;
}

} // namespace zeal::module_linker::detail
