// Kinds and types of ids where LLVMSPIRVLib casts or asserts without checking: check_translator_input, second
// half. This file: names, decorations, built-in variables, OpenCL.std instructions and composite constants.
#include "spirv_frontend/translator_guard_types.hpp"

#include <fmt/format.h>
#include <spirv/unified1/OpenCL.std.h>

#include <algorithm>

namespace zeal::frontend {

Status TypeCheck::check_name_target(uint32_t at, std::span<const uint32_t> inst) {
  const Definition *target = inst.size() >= 2 ? find(inst[1]) : nullptr;
  if (target && target->at < at) {
    return wrong(at, inst, fmt::format("names %{}, which is defined before the name", inst[1]));
  }
  if (inst.size() >= 3) note_builtin_name(at, inst[1], inst.subspan(2));
  return {};
}

Status TypeCheck::check_bfloat16_conversions() const {
  for (const auto &[at, to_bfloat16] : ids_.bfloat16_conversions) {
    std::span<const uint32_t> inst = spirv::instruction_at(words_, at).words;
    if (inst.size() < 4) continue;
    uint32_t result = inst[1], operand = type_of(inst[3]);
    uint32_t bf16 = to_bfloat16 ? result : operand, f32 = to_bfloat16 ? operand : result;
    bool lanes = (opcode_of(bf16) == spv::OpTypeVector) == (opcode_of(f32) == spv::OpTypeVector) &&
                 (opcode_of(bf16) != spv::OpTypeVector || word_of(bf16, 3) == word_of(f32, 3));
    bool types = opcode_of(component(bf16)) == spv::OpTypeInt && word_of(component(bf16), 2) == 16 &&
                 opcode_of(component(f32)) == spv::OpTypeFloat && word_of(component(f32), 2) == 32;
    if (!lanes || !types) {
      return wrong(at, inst, "converts between bfloat16 and float with other types than 16-bit integers and "
                             "32-bit floats of as many lanes");
    }
  }
  return {};
}

void TypeCheck::note_builtin_name(uint32_t at, uint32_t target, std::span<const uint32_t> name) {
  if (spirv::literal_string(name).starts_with("__spirv_BuiltIn")) builtin_names_.emplace(target, at);
}

Status TypeCheck::check_builtin_names() const {
  for (const auto &[target, at] : builtin_names_) {
    const Definition *variable = find(target);
    if (variable == nullptr || variable->opcode != spv::OpVariable || builtins_.contains(target)) continue;
    return invalid_binary(fmt::format("the SPIR-V instruction at word {} names variable %{} like a built-in "
                                      "(__spirv_BuiltIn...), but the variable is not decorated BuiltIn",
                                      at, target));
  }
  return {};
}

Status TypeCheck::check_decoration(uint32_t at, std::span<const uint32_t> inst) {
  bool member = (inst[0] & 0xffff) == spv::OpMemberDecorate;
  size_t kind = member ? 3 : 2;
  if (inst.size() <= kind) return {};
  const Definition *target = find(inst[1]);
  if (target && target->at < at) { // a group's decorations too come before its OpDecorationGroup
    return wrong(at, inst, fmt::format("decorates %{}, which is defined before the decoration", inst[1]));
  }
  if (member && !is_member(inst[1], inst[2])) return wrong(at, inst, "decorates a member its struct lacks");
  uint32_t value = inst.size() > kind + 1 ? inst[kind + 1] : 0;
  switch (inst[kind]) {
  case spv::DecorationAlignment:
    if (value == 0 || (value & (value - 1)) != 0) {
      return wrong(at, inst, fmt::format("declares an alignment of {}, which is not a power of 2", value));
    }
    return {};
  case spv::DecorationBuiltIn:
    if (!is_kernel_builtin(value)) {
      return wrong(at, inst, fmt::format("names built-in {}, which OpenCL lacks", value));
    }
    if (!member) builtins_[inst[1]] = value;
    return {};
  case spv::DecorationLinkageAttributes:
    if (!member && target && target->opcode != spv::OpFunction &&
        !(target->opcode == spv::OpVariable && body_of(target->at) < 0)) {
      return wrong(at, inst, fmt::format("gives linkage to %{}, which is neither a function nor a module variable",
                                         inst[1]));
    }
    if (!member && !linked_.insert(inst[1]).second) {
      return wrong(at, inst, fmt::format("gives %{} a second linkage name", inst[1]));
    }
    if (!member && inst.size() >= 5) note_builtin_name(at, inst[1], inst.subspan(3, inst.size() - 4));
    // A kernel may be exported, under its own name only (the translator pairs them by name).
    if (auto entry = entry_points_.find(inst[1]);
        !member && entry != entry_points_.end() && inst.size() >= 5 &&
        spirv::literal_string(inst.subspan(3, inst.size() - 4)) != entry->second) {
      return wrong(at, inst, fmt::format("gives kernel %{} ('{}') another linkage name", inst[1], entry->second));
    }
    return {};
  case spv::DecorationFuncParamAttr:
    if (value > spv::FunctionParameterAttributeNoWrite) {
      return wrong(at, inst, fmt::format("names parameter attribute {}, which the translator lacks", value));
    }
    return {};
  default: return {};
  }
}

Status TypeCheck::check_builtin_type(uint32_t at, std::span<const uint32_t> inst) const {
  auto builtin = inst.size() >= 3 ? builtins_.find(inst[2]) : builtins_.end();
  if (builtin == builtins_.end()) return {};
  uint32_t b = builtin->second, type = pointee(inst[1]);
  bool vector3 = (b >= spv::BuiltInNumWorkgroups && b <= spv::BuiltInGlobalInvocationId) ||
                 (b >= spv::BuiltInGlobalSize && b <= spv::BuiltInGlobalOffset);
  bool size_t_scalar = b == spv::BuiltInLocalInvocationIndex || b == spv::BuiltInGlobalLinearId;
  bool masks = b >= spv::BuiltInSubgroupEqMask && b <= spv::BuiltInSubgroupLtMask;
  uint32_t lanes = vector3 ? 3 : masks ? 4 : 1, bits = vector3 || size_t_scalar ? address_bits_ : 32;
  uint32_t scalar =
      lanes > 1 ? (opcode_of(type) == spv::OpTypeVector && word_of(type, 3) == lanes ? word_of(type, 2) : 0) : type;
  if (opcode_of(scalar) != spv::OpTypeInt || word_of(scalar, 2) != bits) {
    return wrong(at, inst, fmt::format("declares built-in {} with a type other than {} {}-bit integer{}", b,
                                       lanes > 1 ? fmt::format("a vector of {}", lanes) : std::string("a"), bits,
                                       lanes > 1 ? "s" : ""));
  }
  return {};
}

Status TypeCheck::check_ext_inst(uint32_t at, std::span<const uint32_t> inst) const {
  if (inst.size() < 5) return {};
  if (takes_numbers_only(inst[4]) && inst[3] == opencl_std_) {
    auto number = [&](uint32_t type) {
      uint32_t kind = opcode_of(component(type));
      return kind == spv::OpTypeInt || kind == spv::OpTypeFloat;
    };
    bool ok = number(inst[1]);
    for (size_t i = 5; ok && i < inst.size(); ++i) ok = number(type_of(inst[i]));
    // The math, common and geometric families (0 to 110; nan excepted) take floating point
    // first, the integer ones (s_abs to u_mul24, u_abs to u_mad_hi) integers.
    uint32_t n = inst[4], first = inst.size() > 5 ? opcode_of(component(type_of(inst[5]))) : 0;
    if (ok && n <= OpenCLLIB::Fast_normalize && n != OpenCLLIB::Nan) ok = first == spv::OpTypeFloat;
    if (ok &&
        ((n >= OpenCLLIB::SAbs && n <= OpenCLLIB::UMul24) || (n >= OpenCLLIB::UAbs && n <= OpenCLLIB::UMad_hi))) {
      ok = first == spv::OpTypeInt;
    }
    if (!ok) return wrong(at, inst, fmt::format("calls OpenCL.std instruction {} on or for something that is not a "
                                                "number of the kind it takes", inst[4]));
    return {};
  }
  if (inst[4] != OpenCLLIB::Printf) return {};
  uint32_t format = inst.size() >= 6 ? pointee(type_of(inst[5])) : 0;
  if (opcode_of(inst[1]) != spv::OpTypeInt || opcode_of(format) != spv::OpTypeInt || word_of(format, 2) != 8) {
    return wrong(at, inst, "calls printf without a format string or with a non-integer result");
  }
  return {};
}

bool TypeCheck::takes_numbers_only(uint32_t instruction) {
  switch (instruction) {
  case OpenCLLIB::Fract: case OpenCLLIB::Frexp: case OpenCLLIB::Lgamma_r: case OpenCLLIB::Modf:
  case OpenCLLIB::Remquo: case OpenCLLIB::Sincos: return false;
  default:
    return instruction < OpenCLLIB::Vloadn || instruction > OpenCLLIB::Prefetch ||
           instruction == OpenCLLIB::Shuffle || instruction == OpenCLLIB::Shuffle2;
  }
}

Status TypeCheck::check_composite_constant(uint32_t at, std::span<const uint32_t> inst) const {
  if (inst.size() < 3) return {};
  uint32_t type = inst[1], kind = opcode_of(type), parts = uint32_t(inst.size() - 3);
  bool ok = true;
  if (kind == spv::OpTypeVector) {
    ok = parts == word_of(type, 3);
    for (uint32_t i = 0; ok && i < parts; ++i) ok = type_of(inst[3 + i]) == word_of(type, 2);
  } else if (kind == spv::OpTypeStruct) {
    ok = parts + 2 == definition(type).size();
    for (uint32_t i = 0; ok && i < parts; ++i) ok = type_of(inst[3 + i]) == word_of(type, 2 + i);
  } else if (kind == spv::OpTypeArray) {
    ok = parts == word_of(word_of(type, 3), 3); // the length constant's value (arrays shorter than 2^32)
    for (uint32_t i = 0; ok && i < parts; ++i) ok = type_of(inst[3 + i]) == word_of(type, 2);
  } else {
    ok = false;
  }
  if (!ok) {
    return wrong(at, inst, fmt::format("builds a constant of %{} from constituents its type does not have", type));
  }
  return {};
}

Status TypeCheck::check_builtin_uses() const {
  std::unordered_set<uint32_t> derived;
  for (const auto &builtin : builtins_) derived.insert(builtin.first);
  for (const Use &use : ids_.used) {
    if (!derived.contains(use.id) || role_of(use) == Role::Any) continue;
    std::span<const uint32_t> inst = spirv::instruction_at(words_, use.at).words;
    const uint32_t count = uint32_t(inst.size());
    bool chain = use.opcode == spv::OpAccessChain || use.opcode == spv::OpInBoundsAccessChain;
    bool cast = use.opcode == spv::OpBitcast || use.opcode == spv::OpPtrCastToGeneric ||
                use.opcode == spv::OpGenericCastToPtr;
    if (use.opcode == spv::OpLoad && use.word == 3) continue;
    // A bitcast to another pointee reads one element of the vector: the translator has no pattern for
    // it (llvm_unreachable), and legalize_for_translator rewrites the loads it can.
    bool retyped = use.opcode == spv::OpBitcast && pointee(inst[1]) != pointee(type_of(use.id));
    if ((chain || cast) && use.word == 3 && !retyped) {
      bool constant = true;
      for (uint32_t i = 4; chain && i < count; ++i) constant = constant && opcode_of(inst[i]) == spv::OpConstant;
      if (constant) {
        derived.insert(inst[2]);
        continue;
      }
    }
    return invalid_binary(fmt::format("the SPIR-V instruction at word {} (opcode {}) uses built-in variable %{} "
                                      "other than by loading it (whole or at constant indices)",
                                      use.at, use.opcode, use.id));
  }
  return {};
}

} // namespace zeal::frontend
