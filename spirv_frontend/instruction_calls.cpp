// Intel instructions LLVMSPIRVLib 15 does not know as calls the CPU driver defines (instruction_calls.hpp).
#include "spirv_frontend/instruction_calls.hpp"

#include "spirv/newer.hpp"
#include "spirv/words.hpp"

#define SPV_ENABLE_UTILITY_CODE // spv::HasResultAndType
#include <spirv/unified1/spirv.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace zeal::frontend {
namespace {

// The extensions' numbers, newer than the SPIR-V headers Debian 12 ships, are spirv/newer.hpp's.
using spirv::capability_2d_block_io, spirv::capability_2d_block_transpose, spirv::capability_matrix_mad,
    spirv::capability_cache_controls, spirv::decoration_cache_load, spirv::decoration_cache_store;
using spirv::op_2d_block_load, spirv::op_2d_block_load_transform, spirv::op_2d_block_load_transpose,
    spirv::op_2d_block_prefetch, spirv::op_2d_block_store, spirv::op_matrix_mad;
using spirv::op_convert_bf16_to_f, spirv::op_convert_f_to_bf16;
constexpr std::string_view extensions[] = {"SPV_INTEL_2d_block_io", "SPV_INTEL_subgroup_matrix_multiply_accumulate",
                                           "SPV_INTEL_cache_controls"};
constexpr uint32_t linkage_import = 1;

// Matrix Multiply Accumulate Operands (SPV_INTEL_subgroup_matrix_multiply_accumulate).
constexpr uint32_t a_signed = 0x1, b_signed = 0x2, a_int8 = 0x10, a_int4 = 0x40, a_tf32 = 0x100, a_f16 = 0x400,
                   a_bf16 = 0x1000;

bool dropped_capability(uint32_t c) {
  return (c >= capability_2d_block_io && c <= capability_2d_block_transpose) || c == capability_matrix_mad ||
         c == capability_cache_controls;
}

// The OpenCL built-in's operand types for a product of `k` with `flags`, or empty when none computes it.
std::string_view matrix_kind(uint32_t flags, uint32_t k) {
  const uint32_t sign = flags & (a_signed | b_signed);
  if (flags & a_int8 && k == 32) return sign == 3 ? "i8_i8" : sign == 1 ? "i8_u8" : sign == 2 ? "u8_i8" : "u8_u8";
  if (flags & a_int4 && k == 64) return sign == 3 ? "i4_i4" : sign == 1 ? "i4_u4" : sign == 2 ? "u4_i4" : "u4_u4";
  if (flags & a_f16 && k == 16) return "f16_f16";
  if (flags & a_bf16 && k == 16) return "bf16_bf16";
  if (flags & a_tf32 && k == 8) return "tf32_tf32";
  return {};
}

uint32_t word_of(uint32_t opcode, size_t count) { return uint32_t(count) << 16 | opcode; }

std::optional<std::string_view> op_name(uint32_t opcode) {
  switch (opcode) {
  case op_matrix_mad: return "matrix_mad";
  case op_2d_block_load: return "load";
  case op_2d_block_load_transform: return "load_transform";
  case op_2d_block_load_transpose: return "load_transpose";
  case op_2d_block_prefetch: return "prefetch";
  case op_2d_block_store: return "store";
  default: return std::nullopt;
  }
}

std::vector<uint32_t> string_words(std::string_view text) {
  std::vector<uint32_t> out(text.size() / 4 + 1, 0); // the terminator included
  for (size_t i = 0; i < text.size(); ++i) out[i / 4] |= uint32_t(uint8_t(text[i])) << (8 * (i % 4));
  return out;
}

class Rewrite {
public:
  explicit Rewrite(std::span<const uint32_t> words) : words_(words), bound_(words[3]) {}

  std::vector<uint32_t> run() {
    index();
    if (sites_.empty() && !has_capability_) return {};
    std::vector<uint32_t> out(words_.begin(), words_.begin() + spirv::header_words);
    for (const spirv::Instruction &i : spirv::instructions(words_)) {
      if (i.at == first_capability_ && !has_linkage_ && !sites_.empty())
        out.insert(out.end(), {word_of(spv::OpCapability, 2), spv::CapabilityLinkage}); // for the imports
      if (i.at == first_type_) append_decorations(out);
      if (i.at == first_function_) append_declarations(out);
      if (drops(i)) continue;
      if (auto site = call_at_.find(i.at); site != call_at_.end()) {
        append_call(out, i, site->second);
        continue;
      }
      out.insert(out.end(), i.words.begin(), i.words.end());
    }
    out[3] = bound_;
    return out;
  }

private:
  // The value types of the operands name the signature; one imported function per opcode and signature.
  struct Function {
    uint32_t id, type_id, result;
    std::vector<uint32_t> params; // the arguments' types
    std::string name;
  };

  // The operands that become the call's arguments: all of a 2-D block instruction's; Matrix A, B and C of a
  // matrix product (after its result type, result and K).
  static size_t first_argument(const spirv::Instruction &site) { return site.opcode == op_matrix_mad ? 4 : 1; }
  static size_t arguments_end(const spirv::Instruction &site) {
    return site.opcode == op_matrix_mad ? 7 : site.words.size();
  }

  uint32_t type_of(uint32_t id) const {
    auto found = typed_.find(id);
    return found == typed_.end() ? 0 : found->second;
  }

  void index() {
    for (const spirv::Instruction &i : spirv::instructions(words_)) {
      if (i.cut) return; // the guard says how the module is cut
      std::span<const uint32_t> w = i.words;
      bool has_result = false, has_type = false;
      spv::HasResultAndType(spv::Op(i.opcode), &has_result, &has_type);
      // The SPIR-V headers know neither the matrix product nor the bfloat16 conversions: their results, typed too.
      const bool newer = i.opcode == op_matrix_mad || i.opcode == op_convert_f_to_bf16 || i.opcode == op_convert_bf16_to_f;
      if ((newer || (has_result && has_type)) && w.size() > 2) typed_[w[2]] = w[1];
      if (i.opcode == spv::OpCapability && w.size() == 2) {
        if (first_capability_ == SIZE_MAX) first_capability_ = i.at;
        has_linkage_ = has_linkage_ || w[1] == spv::CapabilityLinkage;
        has_capability_ = has_capability_ || dropped_capability(w[1]);
      }
      if (i.opcode == spv::OpConstant && w.size() == 4) constants_[w[2]] = w[3];
      if (i.opcode == spv::OpTypeVoid && w.size() == 2 && void_id_ == 0) void_id_ = w[1];
      if (i.opcode == spv::OpTypeFunction && w.size() >= 3) // (return type, parameters) -> id
        function_types_.emplace(std::vector<uint32_t>(w.begin() + 2, w.end()), w[1]);
      if (i.opcode >= spv::OpTypeVoid && i.opcode <= spv::OpTypeForwardPointer && first_type_ == SIZE_MAX) first_type_ = i.at;
      if (i.opcode == spv::OpFunction && first_function_ == SIZE_MAX) first_function_ = i.at;
      if (op_name(i.opcode) && w.size() >= 2 && (i.opcode != op_matrix_mad || w.size() >= 7)) sites_.push_back(i);
    }
    if (sites_.empty()) return;
    if (void_id_ == 0) void_id_ = new_void_ = bound_++;
    for (const spirv::Instruction &site : sites_) {
      std::vector<uint32_t> params;
      for (size_t k = first_argument(site); k < arguments_end(site); ++k) params.push_back(type_of(site.words[k]));
      const uint32_t result = site.opcode == op_matrix_mad ? site.words[1] : void_id_;
      std::string name = fmt::format("__zeal_2d_block_{}_{}", *op_name(site.opcode), functions_.size());
      if (site.opcode == op_matrix_mad) {
        auto k = constants_.find(site.words[3]);
        std::string_view kind = matrix_kind(site.words.size() > 7 ? site.words[7] : 0, k == constants_.end() ? 0 : k->second);
        if (kind.empty()) kind = "unknown"; // no driver function: the kernel is refused by that name
        name = fmt::format("__zeal_matrix_mad_{}_{}", kind, functions_.size());
      }
      params.insert(params.begin(), result); // the key: return type, then parameters
      auto key = std::pair(name.substr(0, name.rfind('_')), params);
      auto found = by_signature_.find(key);
      if (found == by_signature_.end()) {
        found = by_signature_.emplace(key, functions_.size()).first;
        std::vector<uint32_t> parameters(params.begin() + 1, params.end());
        functions_.push_back({bound_++, function_type(result, parameters), result, parameters, name});
      }
      call_at_[site.at] = found->second;
    }
  }

  // A function type is declared once (SPIR-V forbids two of one signature): the module's, or one made here.
  uint32_t function_type(uint32_t result, const std::vector<uint32_t> &params) {
    std::vector<uint32_t> signature{result};
    signature.insert(signature.end(), params.begin(), params.end());
    auto [found, made] = function_types_.emplace(signature, 0);
    if (made) {
      found->second = bound_++;
      new_types_.push_back(found->first);
    }
    return found->second;
  }

  bool drops(const spirv::Instruction &i) const {
    std::span<const uint32_t> w = i.words;
    if (i.opcode == spv::OpCapability && w.size() == 2) return dropped_capability(w[1]);
    if (i.opcode == spv::OpDecorate && w.size() >= 3) return w[2] == decoration_cache_load || w[2] == decoration_cache_store;
    if (i.opcode != spv::OpExtension || w.size() < 2) return false;
    const std::string name = spirv::literal_string(w.subspan(1));
    return std::find(std::begin(extensions), std::end(extensions), name) != std::end(extensions);
  }

  void append_decorations(std::vector<uint32_t> &out) const {
    for (const Function &f : functions_) {
      std::vector<uint32_t> name = string_words(f.name);
      out.insert(out.end(), {word_of(spv::OpDecorate, 3 + name.size() + 1), f.id, spv::DecorationLinkageAttributes});
      out.insert(out.end(), name.begin(), name.end());
      out.push_back(linkage_import);
    }
  }

  // Before the first function: the void type if the module had none, each function's type and its declaration.
  void append_declarations(std::vector<uint32_t> &out) {
    if (new_void_ != 0) out.insert(out.end(), {word_of(spv::OpTypeVoid, 2), new_void_});
    for (const std::vector<uint32_t> &signature : new_types_) {
      out.insert(out.end(), {word_of(spv::OpTypeFunction, 2 + signature.size()), function_types_.at(signature)});
      out.insert(out.end(), signature.begin(), signature.end());
    }
    for (const Function &f : functions_) {
      out.insert(out.end(), {word_of(spv::OpFunction, 5), f.result, f.id, spv::FunctionControlMaskNone, f.type_id});
      for (uint32_t type : f.params) out.insert(out.end(), {word_of(spv::OpFunctionParameter, 3), type, bound_++});
      out.push_back(word_of(spv::OpFunctionEnd, 1));
    }
  }

  void append_call(std::vector<uint32_t> &out, const spirv::Instruction &site, size_t function) {
    const bool matrix = site.opcode == op_matrix_mad;
    const auto arguments = site.words.subspan(first_argument(site), arguments_end(site) - first_argument(site));
    out.insert(out.end(), {word_of(spv::OpFunctionCall, 4 + arguments.size()), functions_[function].result,
                           matrix ? site.words[2] : bound_++, functions_[function].id});
    out.insert(out.end(), arguments.begin(), arguments.end());
  }

  std::span<const uint32_t> words_;
  uint32_t bound_;
  std::unordered_map<uint32_t, uint32_t> typed_;     // value id -> its type
  std::unordered_map<uint32_t, uint32_t> constants_; // 32-bit OpConstant id -> its value
  std::vector<spirv::Instruction> sites_;
  std::map<std::pair<std::string, std::vector<uint32_t>>, size_t> by_signature_; // (name but its number, types)
  std::vector<Function> functions_;
  std::map<std::vector<uint32_t>, uint32_t> function_types_; // (return type, parameters) -> id
  std::vector<std::vector<uint32_t>> new_types_;
  std::unordered_map<size_t, size_t> call_at_; // instruction offset -> function
  size_t first_capability_ = SIZE_MAX, first_type_ = SIZE_MAX, first_function_ = SIZE_MAX;
  uint32_t void_id_ = 0, new_void_ = 0;
  bool has_linkage_ = false, has_capability_ = false;
};

} // namespace

std::vector<uint32_t> call_unknown_instructions(std::span<const uint32_t> words) {
  if (words.size() < spirv::header_words) return {};
  return Rewrite(words).run();
}

bool is_block_2d_call(std::string_view name) { return name.starts_with("__zeal_2d_block_"); }

std::string_view matrix_call_kind(std::string_view name) {
  constexpr std::string_view prefix = "__zeal_matrix_mad_";
  if (!name.starts_with(prefix)) return {};
  name.remove_prefix(prefix.size());
  const size_t number = name.rfind('_');
  return number == std::string_view::npos ? std::string_view() : name.substr(0, number);
}

} // namespace zeal::frontend
