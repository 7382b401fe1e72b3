// Real compilers' SPIR-V rewritten into the equivalent SPIR-V LLVMSPIRVLib 15 reads (legalize.hpp).
#include "spirv_frontend/legalize.hpp"
#include "spirv_frontend/instruction_calls.hpp"
#include "spirv_frontend/block_order.hpp"

#include "spirv/words.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#define SPV_ENABLE_UTILITY_CODE // spv::HasResultAndType
#include <spirv/unified1/spirv.hpp>

#include "spirv/opcodes.hpp" // after spirv.hpp: it includes it without the utility code

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace zeal::frontend {
namespace {

using spirv::header_words;
constexpr uint32_t debug_source = 35;          // DebugSource in OpenCL.DebugInfo.100: File, then optional Text
constexpr uint32_t debug_source_words = 7;     // with Text: opcode, type, result, set, instruction, File, Text
// The name of llvm-spirv's debug instruction set before OpenCL.DebugInfo.100 (clang 9 to 11 era output).
constexpr std::string_view legacy_debug_info = "SPIRV.debug";
constexpr uint32_t nontemporal_mask = 0x4000;  // SPIR-V 1.6's memory-operand hint
constexpr uint32_t version_1_4 = 0x00010400;
// The type OpenCL C++'s cl::spec_constant<T, ID> is read through: its name carries the id, not a SpecId.
constexpr std::string_view cpp_spec_constant_type = "struct.cl::__spirv::OpSpecConstant<";

uint32_t word_of(uint32_t opcode, uint32_t count) { return (count << 16) | opcode; }

// Every instruction, or nothing when a word count does not fit (the guard then says how).
std::optional<std::vector<spirv::Instruction>> instruction_list(std::span<const uint32_t> words) {
  std::vector<spirv::Instruction> out;
  for (const spirv::Instruction &i : spirv::instructions(words)) {
    if (i.cut) return std::nullopt;
    out.push_back(i);
  }
  return out;
}

// Instructions whose result LLVMSPIRVLib 15 reads as an LLVM constant.
bool is_constant_opcode(uint32_t opcode) {
  switch (opcode) {
  case spv::OpConstant: case spv::OpConstantTrue: case spv::OpConstantFalse: case spv::OpConstantComposite:
  case spv::OpConstantNull: case spv::OpUndef: case spv::OpSpecConstant: case spv::OpSpecConstantTrue:
  case spv::OpSpecConstantFalse: case spv::OpSpecConstantComposite: case spv::OpSpecConstantOp: return true;
  default: return false;
  }
}

// Whether any rewrite below may apply: one pass over the instructions' first words, so that a module that needs
// none (most of them) costs a scan, not the maps the rewrites build (a 700 KB module: 0.2 ms, not 9 ms).
bool may_need_rewriting(std::span<const uint32_t> words) {
  if (words[1] == 0x00010500 || words[1] == 0x00010600) return true;
  std::unordered_set<uint32_t> builtins, scalars, constants;
  for (const spirv::Instruction &i : spirv::instructions(words)) {
    if (i.cut) return false; // the guard says how the module is cut
    const uint32_t count = i.count;
    std::span<const uint32_t> w = i.words;
    if (is_constant_opcode(i.opcode) && count >= 3) constants.insert(w[2]);
    switch (i.opcode) {
    case spv::OpExtInstImport: {
      std::string name = count > 2 ? spirv::literal_string(w.subspan(2)) : std::string();
      if (name == "OpenCL.DebugInfo.100" || name == legacy_debug_info ||
          std::string_view(name).starts_with("NonSemantic."))
        return true;
      break;
    }
    case spv::OpTypeInt:
    case spv::OpTypeFloat:
    case spv::OpTypeBool:
      if (count >= 2) scalars.insert(w[1]);
      break;
    case spv::OpConstantNull:
      if (count == 3 && scalars.contains(w[1])) return true;
      break;
    case spv::OpTypeVector:
      if (count == 4 && w[3] == 1) return true;
      break;
    case spv::OpName: // the name's first bytes, without making a string of every name
      if (count > 2 && (count - 2) * 4 > cpp_spec_constant_type.size() &&
          std::memcmp(&w[2], cpp_spec_constant_type.data(), cpp_spec_constant_type.size()) == 0)
        return true;
      break;
    case spv::OpDecorate:
      if (count == 4 && w[2] == spv::DecorationFuncParamAttr &&
          w[3] == spv::FunctionParameterAttributeNoReadWrite) {
        return true;
      }
      if (count == 4 && w[2] == spv::DecorationBuiltIn) builtins.insert(w[1]);
      break;
    case spv::OpBitcast:
    case spv::OpPtrAccessChain:
    case spv::OpInBoundsPtrAccessChain:
      if (count >= 4 && builtins.contains(w[3])) return true;
      break;
    case spv::OpCompositeConstruct: // of a value that is not a constant: construct_by_inserting()
      for (uint32_t k = 3; k < count; ++k)
        if (!constants.contains(w[k])) return true;
      break;
    default: break;
    }
  }
  return false;
}

// The rewrites of one module: each instruction is kept, dropped or replaced by other words.
class Legalizer {
public:
  Legalizer(std::span<const uint32_t> words, std::vector<spirv::Instruction> insts)
      : words_(words), insts_(std::move(insts)), replaced_(insts_.size()), version_(words[1]) {}

  Legalized run() {
    index_definitions();
    drop_no_read_write();
    drop_unreadable_debug_info();
    scalarize_one_component_vectors();
    zero_scalar_nulls();
    read_builtins_whole();
    construct_by_inserting();
    read_newer_versions_as_1_4();
    specialise_cpp_spec_constants();
    Legalized out;
    out.notes = std::move(notes_);
    if (!changed_) return out;
    std::vector<uint32_t> result(words_.begin(), words_.begin() + header_words);
    for (size_t i = 0; i < insts_.size(); ++i) {
      std::span<const uint32_t> kept = replaced_[i] ? std::span<const uint32_t>(*replaced_[i]) : inst(i);
      result.insert(result.end(), kept.begin(), kept.end());
    }
    result[1] = version_;
    result[3] = bound_;
    out.spirv.resize(result.size() * 4);
    std::memcpy(out.spirv.data(), result.data(), out.spirv.size());
    return out;
  }

private:
  std::span<const uint32_t> inst(size_t i) const { return insts_[i].words; }
  void replace(size_t i, std::vector<uint32_t> with) {
    replaced_[i] = std::move(with);
    changed_ = true;
  }
  void drop(size_t i) { replace(i, {}); }

  // Result id -> instruction index, for the instructions that have a result (types, constants, variables, values).
  void index_definitions() {
    bound_ = words_[3];
    in_function_.resize(insts_.size());
    bool inside = false;
    for (size_t i = 0; i < insts_.size(); ++i) {
      auto w = inst(i);
      inside = insts_[i].opcode == spv::OpFunction || (inside && insts_[i].opcode != spv::OpFunctionEnd);
      in_function_[i] = inside;
      bool has_result = false, has_type = false;
      spv::HasResultAndType(spv::Op(insts_[i].opcode), &has_result, &has_type);
      size_t slot = has_type ? 2 : 1;
      if (has_result && w.size() > slot) definition_[w[slot]] = i;
      if (insts_[i].opcode == spv::OpExtInstImport && w.size() >= 3 && spirv::literal_string(w.subspan(2)) == "OpenCL.std") {
        opencl_std_ = w[1];
      }
    }
  }
  std::span<const uint32_t> defining(uint32_t id) const {
    auto found = definition_.find(id);
    return found == definition_.end() ? std::span<const uint32_t>() : inst(found->second);
  }

  void drop_no_read_write() {
    for (size_t i = 0; i < insts_.size(); ++i) {
      auto w = inst(i);
      if (insts_[i].opcode == spv::OpDecorate && w.size() == 4 && w[2] == spv::DecorationFuncParamAttr &&
          w[3] == spv::FunctionParameterAttributeNoReadWrite) {
        drop(i);
      }
    }
  }

  // Non-semantic sets go always (the translator knows none of them, nor their extension); OpenCL.DebugInfo.100
  // only when it holds a form the translator asserts on.
  void drop_unreadable_debug_info() {
    std::unordered_map<uint32_t, std::string> sets; // id -> name
    for (size_t i = 0; i < insts_.size(); ++i) {
      auto w = inst(i);
      if (insts_[i].opcode == spv::OpExtInstImport && w.size() >= 3) sets[w[1]] = spirv::literal_string(w.subspan(2));
    }
    std::unordered_set<uint32_t> dropped_sets;
    for (const auto &[id, name] : sets) {
      if (std::string_view(name).starts_with("NonSemantic.")) {
        dropped_sets.insert(id);
        notes_.push_back(fmt::format("info: the non-semantic instructions of '{}' were dropped: this driver's "
                                     "SPIR-V reader (LLVMSPIRVLib 15) does not read them", name));
      } else if (name == legacy_debug_info) {
        dropped_sets.insert(id);
        notes_.push_back(fmt::format("info: the module's debug information was dropped: it is written in '{}', the "
                                     "name older llvm-spirv gave its debug instructions before OpenCL.DebugInfo.100, "
                                     "which this driver's SPIR-V readers do not take; debug information does not "
                                     "change what the kernels compute", name));
      } else if (name == "OpenCL.DebugInfo.100") {
        if (std::optional<uint32_t> bad = source_without_text(id)) {
          dropped_sets.insert(id);
          notes_.push_back(fmt::format("info: the module's debug information was dropped: its DebugSource %{} has "
                                       "no Text operand, which this driver's SPIR-V reader (LLVMSPIRVLib 15) cannot "
                                       "read; debug information does not change what the kernels compute", *bad));
        }
      }
    }
    if (dropped_sets.empty()) return;
    std::unordered_set<uint32_t> dropped_ids;
    for (size_t i = 0; i < insts_.size(); ++i) {
      auto w = inst(i);
      uint32_t op = insts_[i].opcode;
      if (op == spv::OpExtInstImport && w.size() >= 2 && dropped_sets.contains(w[1])) {
        drop(i);
      } else if (op == spv::OpExtInst && w.size() >= 5 && dropped_sets.contains(w[3])) {
        dropped_ids.insert(w[2]);
        drop(i);
      } else if (op == spv::OpExtension && w.size() >= 2 &&
                 spirv::literal_string(w.subspan(1)) == "SPV_KHR_non_semantic_info") {
        drop(i);
      }
    }
    for (size_t i = 0; i < insts_.size(); ++i) {
      uint32_t op = insts_[i].opcode;
      bool names = op == spv::OpName || op == spv::OpMemberName || op == spv::OpDecorate ||
                   op == spv::OpMemberDecorate;
      if (names && insts_[i].count >= 2 && dropped_ids.contains(inst(i)[1])) drop(i);
    }
  }

  std::optional<uint32_t> source_without_text(uint32_t set) const {
    for (size_t i = 0; i < insts_.size(); ++i) {
      auto w = inst(i);
      if (insts_[i].opcode == spv::OpExtInst && w.size() >= 5 && w[3] == set && w[4] == debug_source &&
          w.size() < debug_source_words) {
        return w[2];
      }
    }
    return std::nullopt;
  }

  void zero_scalar_nulls() {
    for (size_t i = 0; i < insts_.size(); ++i) {
      auto w = inst(i);
      if (insts_[i].opcode != spv::OpConstantNull || w.size() != 3 || replaced_[i]) continue;
      if (std::optional<std::vector<uint32_t>> zero = scalar_zero(w[1], w[2])) replace(i, std::move(*zero));
    }
  }

  // The constant `result` of scalar `type` that is zero (false for a bool), if `type` is a scalar.
  std::optional<std::vector<uint32_t>> scalar_zero(uint32_t type_id, uint32_t result) const {
    auto type = defining(type_id);
    if (type.empty()) return std::nullopt;
    uint32_t type_op = type[0] & 0xffff;
    if (type_op == spv::OpTypeBool) return std::vector<uint32_t>{word_of(spv::OpConstantFalse, 3), type_id, result};
    if ((type_op != spv::OpTypeInt && type_op != spv::OpTypeFloat) || type.size() < 3 || type[2] > 64) {
      return std::nullopt;
    }
    uint32_t value_words = type[2] > 32 ? 2 : 1;
    std::vector<uint32_t> constant = {word_of(spv::OpConstant, 3 + value_words), type_id, result};
    constant.resize(3 + value_words, 0);
    return constant;
  }

  // VectorAnyINTEL's one-component vectors (Triton emits them), which the translator cannot hold, become their
  // component: the type is renamed wherever a type is named, and the composite instructions over it copy.
  void scalarize_one_component_vectors() {
    std::unordered_map<uint32_t, uint32_t> component; // one-component vector type -> its component
    for (size_t i = 0; i < insts_.size(); ++i) {
      auto w = inst(i);
      if (insts_[i].opcode == spv::OpTypeVector && w.size() == 4 && w[3] == 1) {
        component[w[1]] = w[2];
        drop(i);
      }
    }
    if (component.empty()) return;
    auto one = [&](uint32_t value) { return component.contains(value_type_of(value)); };
    for (size_t i = 0; i < insts_.size(); ++i) {
      if (replaced_[i]) continue;
      std::vector<uint32_t> w(inst(i).begin(), inst(i).end());
      std::optional<std::vector<uint32_t>> scalar = scalarized(insts_[i].opcode, w, component, one);
      if (scalar) replace(i, std::move(*scalar));
    }
  }

  // One lane of two vectors (either may be a one-component one): an extract, or a copy of a one-component operand.
  template <class IsOne>
  std::optional<std::vector<uint32_t>> shuffle_one(const std::vector<uint32_t> &w, const IsOne &one) const {
    auto lanes = [&](uint32_t value) -> uint32_t {
      if (one(value)) return 1;
      auto type = defining(value_type_of(value));
      return type.size() == 4 && (type[0] & 0xffff) == spv::OpTypeVector ? type[3] : 0;
    };
    uint32_t first = lanes(w[3]), second = lanes(w[4]), lane = w[5] == 0xffffffffu ? 0 : w[5];
    if (first == 0 || second == 0 || lane >= first + second) return std::nullopt;
    uint32_t from = lane < first ? w[3] : w[4];
    if (lane >= first) lane -= first;
    if (one(from)) return std::vector<uint32_t>{word_of(spv::OpCopyObject, 4), w[1], w[2], from};
    return std::vector<uint32_t>{word_of(spv::OpCompositeExtract, 5), w[1], w[2], from, lane};
  }

  bool is_constant(uint32_t id) const {
    auto def = defining(id);
    return !def.empty() && is_constant_opcode(def[0] & 0xffff);
  }

  // LLVMSPIRVLib 15 reads OpCompositeConstruct as a constant (ConstantVector::get of its constituents) and crashes
  // the process when a constituent is not one. A composite of values the kernel computes is built one part at a
  // time instead, with OpCompositeInsert from an OpUndef; a vector constituent of a vector gives its components.
  void construct_by_inserting() {
    for (size_t i = 0; i < insts_.size(); ++i) {
      auto w = inst(i);
      if (insts_[i].opcode != spv::OpCompositeConstruct || w.size() < 4 || replaced_[i]) continue;
      bool constant = true;
      for (size_t k = 3; k < w.size(); ++k) constant = constant && is_constant(w[k]);
      if (constant) continue;
      const uint32_t type = w[1];
      auto composite = defining(type);
      const bool vector = composite.size() == 4 && (composite[0] & 0xffff) == spv::OpTypeVector;
      std::vector<uint32_t> out;
      std::vector<std::pair<uint32_t, uint32_t>> parts; // value, index in the composite
      for (size_t k = 3; k < w.size(); ++k) {
        auto part_type = defining(value_type_of(w[k]));
        if (vector && part_type.size() == 4 && (part_type[0] & 0xffff) == spv::OpTypeVector) {
          for (uint32_t lane = 0; lane < part_type[3]; ++lane) {
            const uint32_t component = bound_++;
            out.insert(out.end(), {word_of(spv::OpCompositeExtract, 5), part_type[2], component, w[k], lane});
            parts.emplace_back(component, uint32_t(parts.size()));
          }
        } else {
          parts.emplace_back(w[k], uint32_t(parts.size()));
        }
      }
      uint32_t current = bound_++;
      out.insert(out.end(), {word_of(spv::OpUndef, 3), type, current});
      for (size_t p = 0; p < parts.size(); ++p) {
        const uint32_t next = p + 1 == parts.size() ? w[2] : bound_++;
        out.insert(out.end(), {word_of(spv::OpCompositeInsert, 6), type, next, parts[p].first, current, parts[p].second});
        current = next;
      }
      replace(i, std::move(out));
    }
  }

  uint32_t value_type_of(uint32_t value) const {
    auto def = defining(value);
    bool has_result = false, has_type = false;
    if (def.empty()) return 0;
    spv::HasResultAndType(spv::Op(def[0] & 0xffff), &has_result, &has_type);
    return has_type && def.size() >= 3 ? def[1] : 0;
  }

  template <class IsOne>
  std::optional<std::vector<uint32_t>> scalarized(uint32_t op, std::vector<uint32_t> w,
                                                  const std::unordered_map<uint32_t, uint32_t> &component,
                                                  const IsOne &one) const {
    auto rename = [&](uint32_t &id) {
      auto c = component.find(id);
      if (c == component.end()) return false;
      id = c->second;
      return true;
    };
    bool changed = false;
    auto copy = [&](uint32_t from) {
      return std::vector<uint32_t>{word_of(spv::OpCopyObject, 4), w[1], w[2], from};
    };
    switch (op) {
    case spv::OpCompositeExtract:
    case spv::OpVectorExtractDynamic:
      if (w.size() >= 5 && one(w[3])) return copy(w[3]);
      break;
    case spv::OpCompositeInsert:
      if (w.size() == 6 && rename(w[1])) return copy(w[3]);
      break;
    case spv::OpVectorInsertDynamic:
      if (w.size() == 6 && rename(w[1])) return copy(w[4]);
      break;
    case spv::OpCompositeConstruct:
      if (w.size() == 4 && rename(w[1])) return copy(w[3]);
      break;
    case spv::OpVectorShuffle:
      if (w.size() == 6 && rename(w[1])) return shuffle_one(w, one);
      break;
    case spv::OpConstantComposite:
      if (w.size() == 4 && rename(w[1])) {
        auto constant = defining(w[3]);
        if (constant.size() < 3) return std::nullopt;
        std::vector<uint32_t> out(constant.begin(), constant.end());
        out[2] = w[2];
        return out;
      }
      break;
    case spv::OpConstantNull:
      if (w.size() == 3 && rename(w[1])) return scalar_zero(w[1], w[2]);
      break;
    case spv::OpTypePointer:
      if (w.size() == 4) changed = rename(w[3]);
      return changed ? std::optional(w) : std::nullopt;
    case spv::OpTypeFunction:
    case spv::OpTypeStruct:
      for (size_t k = 2; k < w.size(); ++k) changed = rename(w[k]) || changed;
      return changed ? std::optional(w) : std::nullopt;
    case spv::OpTypeArray:
    case spv::OpTypeRuntimeArray:
      if (w.size() >= 3) changed = rename(w[2]);
      return changed ? std::optional(w) : std::nullopt;
    case spv::OpName:
    case spv::OpDecorate:
      if (w.size() >= 2 && component.contains(w[1])) return std::vector<uint32_t>{};
      return std::nullopt;
    default: break;
    }
    bool has_result = false, has_type = false;
    spv::HasResultAndType(spv::Op(op), &has_result, &has_type);
    if (has_type && w.size() >= 2 && rename(w[1])) return w;
    return std::nullopt;
  }

  // The integer value of an OpConstant, if `id` is one that fits 32 bits.
  std::optional<uint32_t> constant_value(uint32_t id) const {
    auto c = defining(id);
    if (c.size() < 4 || (c[0] & 0xffff) != spv::OpConstant) return std::nullopt;
    if (c.size() == 5 && c[4] != 0) return std::nullopt;
    return c[3];
  }

  // A built-in variable's pointee when it is a vector (the three-component ids and sizes), else 0.
  uint32_t builtin_vector(uint32_t variable) const {
    auto var = defining(variable);
    if (var.size() < 4 || (var[0] & 0xffff) != spv::OpVariable) return 0;
    auto pointer = defining(var[1]);
    if (pointer.size() != 4 || (pointer[0] & 0xffff) != spv::OpTypePointer) return 0;
    auto vector = defining(pointer[3]);
    if (vector.size() != 4 || (vector[0] & 0xffff) != spv::OpTypeVector) return 0;
    return pointer[3];
  }

  // The scalar a pointer type points to.
  uint32_t pointee(uint32_t pointer_type) const {
    auto pointer = defining(pointer_type);
    return pointer.size() == 4 && (pointer[0] & 0xffff) == spv::OpTypePointer ? pointer[3] : 0;
  }

  // Bytes of a scalar type, 0 for anything else.
  uint32_t scalar_bytes(uint32_t type) const {
    auto t = defining(type);
    if (t.size() < 3 || ((t[0] & 0xffff) != spv::OpTypeInt && (t[0] & 0xffff) != spv::OpTypeFloat)) return 0;
    return t[2] % 8 == 0 ? t[2] / 8 : 0;
  }

  // A pointer into a built-in vector variable: where it points, in bytes from the vector's start, or at the lane a
  // run-time index names (DPC++'s get_global_id(dim) with a dim that is not a constant).
  struct Derived {
    uint32_t variable;
    uint32_t offset;
    uint32_t pointee;
    size_t derivation;     // the instruction that makes it; none for the variable itself
    uint32_t dynamic = 0;  // the id of a run-time lane index, with offset 0
  };
  static constexpr size_t none = ~size_t(0);

  // How instruction i moves a pointer in `derived`, if it does: OpBitcast to another pointee, and pointer access
  // chains at constant indices (byte steps after a cast to char*, as Triton emits; element steps from the vector
  // itself, as DPC++ does).
  std::optional<Derived> derive(size_t i, const std::unordered_map<uint32_t, Derived> &derived) const {
    auto w = inst(i);
    uint32_t op = insts_[i].opcode;
    if (w.size() < 4 || !derived.contains(w[3])) return std::nullopt;
    const Derived &base = derived.at(w[3]);
    if (base.dynamic != 0) return std::nullopt; // read where it is made, or not at all
    if (op == spv::OpBitcast && w.size() == 4) return Derived{base.variable, base.offset, pointee(w[1]), i};
    if (op != spv::OpPtrAccessChain && op != spv::OpInBoundsPtrAccessChain) return std::nullopt;
    if (std::optional<Derived> d = derive_at_run_time(i, base)) return d;
    std::optional<uint32_t> element = w.size() >= 5 ? constant_value(w[4]) : std::nullopt;
    if (!element) return std::nullopt;
    uint32_t step = scalar_bytes(base.pointee);
    if (w.size() == 5 && step != 0) return Derived{base.variable, base.offset + *element * step, pointee(w[1]), i};
    auto vector = defining(base.pointee);
    if (w.size() == 6 && *element == 0 && vector.size() == 4 && (vector[0] & 0xffff) == spv::OpTypeVector) {
      std::optional<uint32_t> lane = constant_value(w[5]);
      if (lane && *lane < vector[3]) {
        return Derived{base.variable, base.offset + *lane * scalar_bytes(vector[2]), pointee(w[1]), i};
      }
    }
    return std::nullopt;
  }

  // A pointer access chain to a lane the program computes: %var 0 %lane on the vector itself, or %lane elements
  // from a cast of its start to a pointer to the lane's type.
  std::optional<Derived> derive_at_run_time(size_t i, const Derived &base) const {
    auto w = inst(i);
    if (base.offset != 0) return std::nullopt;
    auto vector = defining(base.pointee);
    if (w.size() == 6 && constant_value(w[4]) == 0u && !constant_value(w[5]) && vector.size() == 4 &&
        (vector[0] & 0xffff) == spv::OpTypeVector && pointee(w[1]) == vector[2])
      return Derived{base.variable, 0, vector[2], i, w[5]};
    auto variable = defining(builtin_vector(base.variable));
    if (w.size() == 5 && !constant_value(w[4]) && variable.size() == 4 && base.pointee == variable[2] &&
        pointee(w[1]) == variable[2])
      return Derived{base.variable, 0, variable[2], i, w[4]};
    return std::nullopt;
  }

  // One element of a built-in vector read through casts and pointer access chains becomes a whole load and an
  // extract: the form the translator turns into a call. All of a variable's derived pointers are rewritten, or
  // none (the guard then refuses the pattern by name).
  void read_builtins_whole() {
    std::unordered_map<uint32_t, Derived> derived; // pointer id -> where it points
    std::unordered_map<uint32_t, uint32_t> vectors; // built-in variable -> its vector type
    for (size_t i = 0; i < insts_.size(); ++i) {
      auto w = inst(i);
      if (insts_[i].opcode != spv::OpDecorate || w.size() != 4 || w[2] != spv::DecorationBuiltIn) continue;
      if (uint32_t vector = builtin_vector(w[1])) {
        vectors[w[1]] = vector;
        derived[w[1]] = Derived{w[1], 0, vector, none};
      }
    }
    if (vectors.empty()) return;
    for (size_t i = 0; i < insts_.size(); ++i) {
      if (std::optional<Derived> d = derive(i, derived)) derived[inst(i)[2]] = *d;
    }
    // Every use of a derived pointer must be a derivation or a load of one whole element.
    std::unordered_set<uint32_t> blocked; // variables with another use
    std::vector<std::pair<size_t, uint32_t>> loads; // load, lane (an id when the pointer's lane is dynamic)
    for (size_t i = 0; i < insts_.size(); ++i) {
      auto w = inst(i);
      bool derivation = w.size() >= 3 && derived.contains(w[2]) && derived.at(w[2]).derivation == i;
      for (size_t k = 1, last = value_words(i); k <= last; ++k) {
        auto d = derived.find(w[k]);
        if (d == derived.end() || d->second.derivation == none || (derivation && k <= 3)) continue;
        std::optional<uint32_t> lane = element_load(i, d->second, vectors.at(d->second.variable));
        if (insts_[i].opcode == spv::OpLoad && k == 3 && lane) loads.emplace_back(i, *lane);
        else blocked.insert(d->second.variable);
      }
    }
    for (const auto &[load, lane] : loads) {
      auto w = inst(load);
      uint32_t variable = derived.at(w[3]).variable;
      if (blocked.contains(variable)) continue;
      uint32_t whole = bound_++;
      const auto extract = derived.at(w[3]).dynamic != 0 ? spv::OpVectorExtractDynamic : spv::OpCompositeExtract;
      replace(load, {word_of(spv::OpLoad, 4), vectors.at(variable), whole, variable, word_of(extract, 5), w[1], w[2],
                     whole, lane});
    }
    for (const auto &[id, d] : derived) {
      if (d.derivation != none && !blocked.contains(d.variable)) drop(d.derivation);
    }
  }

  // How many leading words of instruction i (after the opcode word) may name a value: none outside functions
  // (derived pointers live in them), in dropped instructions or in debug information, whose literals (lines,
  // columns, sizes) may equal any id; memory operands, loop controls and switch literals are left out too.
  size_t value_words(size_t i) const {
    if (!in_function_[i] || (replaced_[i] && replaced_[i]->empty())) return 0;
    uint32_t op = insts_[i].opcode, count = insts_[i].count;
    switch (op) {
    case spv::OpLine:
    case spv::OpNoLine: return 0;
    case spv::OpExtInst: return count >= 4 && inst(i)[3] == opencl_std_ ? count - 1 : 0;
    case spv::OpLoad: return std::min<size_t>(count - 1, 3);
    case spv::OpStore: return std::min<size_t>(count - 1, 2);
    case spv::OpCopyMemory: return std::min<size_t>(count - 1, 2);
    case spv::OpCopyMemorySized: return std::min<size_t>(count - 1, 3);
    case spv::OpLoopMerge: return std::min<size_t>(count - 1, 2);
    case spv::OpSwitch: return std::min<size_t>(count - 1, 2);
    default: return count - 1;
    }
  }

  // The lane an OpLoad at instruction i reads, when it loads one whole element of the vector.
  std::optional<uint32_t> element_load(size_t i, const Derived &d, uint32_t vector_type) const {
    auto w = inst(i);
    auto vector = defining(vector_type);
    uint32_t bytes = scalar_bytes(vector[2]);
    if (insts_[i].opcode != spv::OpLoad || w.size() < 4 || w[1] != vector[2] || d.pointee != vector[2]) {
      return std::nullopt;
    }
    if (d.dynamic != 0) return d.dynamic;
    if (bytes == 0 || d.offset % bytes != 0 || d.offset / bytes >= vector[3]) return std::nullopt;
    return d.offset / bytes;
  }

  // Kernels gain nothing from SPIR-V 1.5 and 1.6 that the translator would need: read them as 1.4 unless
  // they use the Vulkan memory model (the guard then refuses the version by number).
  void read_newer_versions_as_1_4() {
    const uint32_t version = version_;
    if (version != 0x00010500 && version != 0x00010600) return;
    for (size_t i = 0; i < insts_.size(); ++i) {
      auto w = inst(i);
      if (insts_[i].opcode == spv::OpMemoryModel && w.size() >= 3 && w[2] == spv::MemoryModelVulkan) return;
    }
    for (size_t i = 0; i < insts_.size(); ++i) {
      auto w = inst(i);
      size_t operand = insts_[i].opcode == spv::OpLoad ? 4 : insts_[i].opcode == spv::OpStore ? 3 : 0;
      if (operand == 0 || w.size() <= operand || (w[operand] & nontemporal_mask) == 0) continue;
      std::vector<uint32_t> copy(w.begin(), w.end());
      copy[operand] &= ~nontemporal_mask;
      replace(i, std::move(copy));
    }
    notes_.push_back(fmt::format("info: the module is SPIR-V {}.{}; it is read as SPIR-V 1.4, which has everything "
                                 "it uses", version >> 16, (version >> 8) & 0xff));
    version_ = version_1_4;
    changed_ = true;
  }

  // OpenCL C++'s cl::spec_constant<T, ID> (the convention of level-zero-tests' update_variable_with_spec_constant)
  // is a UniformConstant variable of a one-member struct named "struct.cl::__spirv::OpSpecConstant<T, ID>",
  // initialised with the default and read through a cast: no SpecId anywhere, yet Intel's driver applies
  // ze_module_constants_t to it by that ID. Each such variable's initialiser becomes a specialisation-constant
  // composite of a new OpSpecConstant decorated SpecId ID, which the translator then specialises. An ID the module
  // already uses as a SpecId is left alone.
  void specialise_cpp_spec_constants() {
    std::unordered_map<uint32_t, uint32_t> spec_id_of_type;
    std::unordered_set<uint32_t> used_ids;
    size_t first_declaration = insts_.size();
    for (size_t i = 0; i < insts_.size(); ++i) {
      auto w = inst(i);
      const uint32_t op = insts_[i].opcode;
      if (op == spv::OpDecorate && w.size() == 4 && w[2] == spv::DecorationSpecId) used_ids.insert(w[3]);
      if (op == spv::OpName && w.size() > 2) {
        std::string name = spirv::literal_string(w.subspan(2));
        if (name.starts_with(cpp_spec_constant_type) && name.ends_with(">")) {
          std::string id = name.substr(name.rfind(',') + 1);
          id.pop_back();
          char *end = nullptr;
          unsigned long value = std::strtoul(id.c_str(), &end, 10);
          if (end != id.c_str() && *end == '\0' && value <= UINT32_MAX) spec_id_of_type[w[1]] = uint32_t(value);
        }
      }
      if (first_declaration == insts_.size() && is_declaration(op)) first_declaration = i;
    }
    std::vector<uint32_t> decorations;
    std::vector<uint32_t> specialised;
    for (size_t i = 0; i < insts_.size(); ++i) {
      auto w = inst(i);
      if (insts_[i].opcode != spv::OpVariable || in_function_[i] || w.size() < 5) continue;
      auto pointer = defining(w[1]);
      if (pointer.size() != 4 || (pointer[0] & 0xffff) != spv::OpTypePointer) continue;
      auto type = spec_id_of_type.find(pointer[3]);
      if (type == spec_id_of_type.end() || used_ids.contains(type->second)) continue;
      auto composite_at = definition_.find(w[4]);
      if (composite_at == definition_.end() || replaced_[composite_at->second]) continue;
      auto composite = inst(composite_at->second);
      if ((composite[0] & 0xffff) != spv::OpConstantComposite || composite.size() != 4) continue;
      auto value = defining(composite[3]);
      if (value.size() < 3) continue;
      // A scalar number (a bool cannot live in UniformConstant memory).
      if ((value[0] & 0xffff) != spv::OpConstant) continue;
      const uint32_t id = bound_++;
      std::vector<uint32_t> words = {word_of(spv::OpSpecConstant, uint32_t(value.size())), value[1], id};
      words.insert(words.end(), value.begin() + 3, value.end());
      words.insert(words.end(), {word_of(spv::OpSpecConstantComposite, 4), composite[1], composite[2], id});
      replace(composite_at->second, std::move(words));
      decorations.insert(decorations.end(), {word_of(spv::OpDecorate, 4), id, spv::DecorationSpecId, type->second});
      used_ids.insert(type->second);
      specialised.push_back(type->second);
    }
    if (specialised.empty() || first_declaration == insts_.size()) return;
    // The decorations go last among the annotations: in front of the first type, constant or variable.
    std::vector<uint32_t> &slot = replaced_[first_declaration]
                                      ? *replaced_[first_declaration]
                                      : replaced_[first_declaration].emplace(inst(first_declaration).begin(),
                                                                             inst(first_declaration).end());
    slot.insert(slot.begin(), decorations.begin(), decorations.end());
    changed_ = true;
    notes_.push_back(fmt::format("info: the module's OpenCL C++ cl::spec_constant variables (ids {}) are read as "
                                 "specialisation constants of those ids",
                                 fmt::join(specialised, ", ")));
  }

  // Types, constants, global variables and functions: what follows the annotations in a module's layout.
  static bool is_declaration(uint32_t op) {
    return spirv::is_module_level(op) || op == spv::OpVariable || op == spv::OpUndef || op == spv::OpFunction;
  }

  std::span<const uint32_t> words_;
  std::vector<spirv::Instruction> insts_;
  std::vector<std::optional<std::vector<uint32_t>>> replaced_;
  std::unordered_map<uint32_t, size_t> definition_;
  std::vector<bool> in_function_;
  std::vector<std::string> notes_;
  uint32_t version_;
  uint32_t bound_ = 0;
  uint32_t opencl_std_ = 0; // the OpenCL.std instruction set's id
  bool changed_ = false;
};

} // namespace

Legalized legalize_for_translator(std::span<const uint8_t> spirv) {
  if (spirv.size() % 4 != 0 || spirv.size() < header_words * 4) return {};
  std::vector<uint32_t> words(spirv.size() / 4); // copied: the input need not be 4-byte aligned
  std::memcpy(words.data(), spirv.data(), spirv.size());
  if (words[0] != spv::MagicNumber) return {};
  Legalized out;
  if (std::vector<uint32_t> calls = call_unknown_instructions(words); !calls.empty()) {
    words = std::move(calls);
    out.spirv.resize(words.size() * 4);
    std::memcpy(out.spirv.data(), words.data(), out.spirv.size());
  }
  if (may_need_rewriting(words)) {
    std::optional<std::vector<spirv::Instruction>> insts = instruction_list(words);
    if (!insts) return {};
    Legalized legal = Legalizer(words, std::move(*insts)).run();
    out.notes = std::move(legal.notes);
    if (!legal.spirv.empty()) out.spirv = std::move(legal.spirv);
    if (!out.spirv.empty()) {
      words.resize(out.spirv.size() / 4);
      std::memcpy(words.data(), out.spirv.data(), out.spirv.size());
    }
  }
  if (size_t functions = order_blocks_by_dominance(words); functions > 0) {
    out.notes.push_back(fmt::format("info: {} function{} listed a block before one that dominates it, as older "
                                    "llvm-spirv versions wrote them; their blocks are read in dominance order",
                                    functions, functions == 1 ? "" : "s"));
    out.spirv.resize(words.size() * 4);
    std::memcpy(out.spirv.data(), words.data(), out.spirv.size());
  }
  return out;
}

} // namespace zeal::frontend
