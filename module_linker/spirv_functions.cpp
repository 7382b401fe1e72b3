// Function bodies: call edges, device features used, a fingerprint of each definition, reachability.
#include "module_linker/inspect_state.hpp"
#include "spirv/imports.hpp"

#include <algorithm>
#include <iterator>
#include <set>

namespace zeal::module_linker::detail {
namespace {

bool is_atomic(uint32_t opcode) { return opcode >= OpAtomicLoad && opcode <= OpAtomicXor; }

bool is_shuffle(uint32_t opcode) {
  return (opcode >= OpGroupNonUniformShuffle && opcode <= OpGroupNonUniformShuffleDown) ||
         (opcode >= OpSubgroupShuffleINTEL && opcode <= OpSubgroupShuffleXorINTEL);
}

// The device features one instruction needs: its result type, atomics' width, shuffles.
uint32_t instruction_features(const ParseState &s, const spv_parsed_instruction_t &inst) {
  uint32_t f = 0;
  if (inst.type_id != 0) f |= s.types.get(inst.type_id).features;
  if (is_shuffle(inst.opcode)) f |= kFeatureSubgroupShuffle;
  if (is_atomic(inst.opcode)) {
    // OpAtomicStore has no result; its value is the last operand.
    uint32_t type = inst.opcode == OpAtomicStore ? s.value_types.get(inst.words[inst.num_words - 1]) : inst.type_id;
    if (s.types.get(type).int_width == 64) f |= kFeatureInt64Atomics;
  }
  return f;
}

bool is_id_operand(spv_operand_type_t type) {
  return type == SPV_OPERAND_TYPE_ID || type == SPV_OPERAND_TYPE_TYPE_ID || type == SPV_OPERAND_TYPE_RESULT_ID ||
         type == SPV_OPERAND_TYPE_SCOPE_ID || type == SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID;
}

// A callee's key: its linkage or debug name, so that calls compare across modules.
uint64_t callee_key(const ParseState &s, uint32_t id) {
  auto link = s.linkage.find(id);
  if (link != s.linkage.end()) return hash_string(link->second.name);
  auto name = s.names.find(id);
  return name != s.names.end() ? hash_string(name->second) : hash_string("<unnamed function>");
}

// Ids defined in the module's global section hash by value; the function's own ids by their
// order of first appearance, which is the same for the same code in any module.
uint64_t id_key(ParseState &s, uint32_t id) {
  if (uint64_t k = s.global_keys.get(id); k != 0) return k;
  uint64_t &slot = s.locals[id];
  const uint64_t tag = uint64_t(uint32_t(s.current + 1)) << 32;
  if ((slot & ~0xffffffffull) != tag) slot = tag | s.local_count++;
  return 0x9e3779b97f4a7c15ull * ((slot & 0xffffffffull) + 1);
}

void hash_instruction(ParseState &s, FunctionState &fn, const spv_parsed_instruction_t &inst) {
  uint64_t h = mix(fn.hash, inst.opcode);
  for (uint16_t i = 0; i < inst.num_operands; ++i) {
    const spv_parsed_operand_t &op = inst.operands[i];
    if (inst.opcode == OpFunctionCall && i == 2) {
      h = mix(h, callee_key(s, inst.words[op.offset]));
      continue;
    }
    for (uint16_t j = 0; j < op.num_words; ++j) {
      uint32_t word = inst.words[op.offset + j];
      h = mix(h, is_id_operand(op.type) ? id_key(s, word) : word);
    }
  }
  fn.hash = h;
}

} // namespace

void on_function_instruction(ParseState &s, const spv_parsed_instruction_t &inst) {
  if (inst.opcode == OpFunction) {
    FunctionState fn;
    fn.id = inst.result_id;
    fn.type_id = inst.num_words >= 5 ? inst.words[4] : 0;
    fn.hash = kHashSeed;
    s.functions.push_back(std::move(fn));
    s.current = static_cast<int32_t>(s.functions.size() - 1);
    s.function_index[inst.result_id] = s.current + 1;
    s.local_count = 0;
  }
  if (s.current < 0) return;
  FunctionState &fn = s.functions[size_t(s.current)];
  if (inst.type_id != 0 && inst.result_id != 0) s.value_types[inst.result_id] = inst.type_id;
  if (inst.opcode != OpFunction && inst.opcode != OpFunctionParameter && inst.opcode != OpFunctionEnd)
    fn.has_body = true;
  if (inst.opcode == OpFunctionCall) fn.callees.push_back(inst.words[3]);
  fn.features |= instruction_features(s, inst);
  hash_instruction(s, fn, inst);
  if (inst.opcode == OpFunctionEnd) s.current = -1;
}

// Built-in variables, and functions the drivers provide rather than another image (spirv/imports.hpp).
bool is_builtin_import(const ParseState &s, uint32_t id, const std::string &name) {
  return s.builtins.count(id) != 0 || spirv::driver_provides(name);
}

namespace {

void merge_imports(std::vector<std::string> &into, const std::vector<std::string> &from) {
  if (from.empty()) return;
  std::vector<std::string> out;
  out.reserve(into.size() + from.size());
  std::set_union(into.begin(), into.end(), from.begin(), from.end(), std::back_inserter(out));
  into = std::move(out);
}

// What one function needs by itself: its features, and its name when it is a real import.
Reach own_reach(const ParseState &s, const FunctionState &fn) {
  Reach r{fn.features, {}};
  if (fn.has_body) return r;
  auto link = s.linkage.find(fn.id);
  if (link != s.linkage.end() && link->second.type == LinkageTypeImport &&
      !is_builtin_import(s, fn.id, link->second.name))
    r.imports.push_back(link->second.name);
  return r;
}

} // namespace

// Post-order over the call graph with memoisation, so the closures of every kernel and export
// cost one visit per function. A recursive cycle (which OpenCL C forbids) is cut where it
// closes: the function in progress contributes what it has so far.
const Reach &reach_from(ParseState &s, uint32_t root) {
  static const Reach kNone;
  int32_t root_index = s.function_index.get(root);
  if (root_index <= 0) return kNone;
  if (s.reach.empty()) s.reach.resize(s.functions.size());
  struct Frame { size_t fn; size_t next_callee; };
  std::vector<Frame> stack{{size_t(root_index - 1), 0}};
  while (!stack.empty()) {
    Frame &top = stack.back();
    ReachMemo &memo = s.reach[top.fn];
    if (memo.state == ReachMemo::Done) { stack.pop_back(); continue; }
    const FunctionState &fn = s.functions[top.fn];
    if (memo.state == ReachMemo::Unvisited) {
      memo.state = ReachMemo::InProgress;
      memo.reach = own_reach(s, fn);
    }
    if (top.next_callee < fn.callees.size()) {
      int32_t callee = s.function_index.get(fn.callees[top.next_callee++]);
      if (callee > 0 && s.reach[size_t(callee - 1)].state == ReachMemo::Unvisited) stack.push_back({size_t(callee - 1), 0});
      continue;
    }
    for (uint32_t id : fn.callees) {
      int32_t callee = s.function_index.get(id);
      if (callee <= 0 || size_t(callee - 1) == top.fn) continue;
      const Reach &r = s.reach[size_t(callee - 1)].reach;
      memo.reach.features |= r.features;
      merge_imports(memo.reach.imports, r.imports);
    }
    memo.state = ReachMemo::Done;
    stack.pop_back();
  }
  return s.reach[size_t(root_index - 1)].reach;
}

} // namespace zeal::module_linker::detail
