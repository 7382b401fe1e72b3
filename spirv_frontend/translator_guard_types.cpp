// Kinds and types of ids where LLVMSPIRVLib casts or asserts without checking: check_translator_input, second
// half. This file: the walk over the module and the checks of instructions and their operands.
#include "spirv_frontend/translator_guard_types.hpp"

#include <fmt/format.h>
#include <spirv/unified1/OpenCL.std.h>

#include <algorithm>

namespace zeal::frontend {

Status TypeCheck::run() {
  find_function_bodies();
  for (const spirv::Instruction &i : spirv::instructions(words_)) {
    if (i.opcode == spv::OpCapability && i.count == 2 && i.words[1] == spv::CapabilityVectorAnyINTEL) vector_any_ = true;
  }
  for (const Use &use : ids_.used) {
    if (Status ok = check_role(use); !ok) return ok;
    if (Status ok = check_scope(use); !ok) return ok;
  }
  for (const spirv::Instruction &i : spirv::instructions(words_)) {
    if (Status ok = check(uint32_t(i.at), i.words); !ok) return ok;
  }
  if (Status ok = check_builtin_names(); !ok) return ok;
  if (Status ok = check_bfloat16_conversions(); !ok) return ok;
  return check_builtin_uses();
}

const Definition *TypeCheck::find(uint32_t id) const {
  auto found = ids_.defined.find(id);
  return found == ids_.defined.end() ? nullptr : &found->second;
}

uint32_t TypeCheck::opcode_of(uint32_t id) const {
  const Definition *d = find(id);
  return d ? d->opcode : 0;
}

uint32_t TypeCheck::type_of(uint32_t id) const {
  const Definition *d = find(id);
  return d ? d->type : 0;
}

std::span<const uint32_t> TypeCheck::definition(uint32_t id) const {
  const Definition *d = find(id);
  return d ? spirv::instruction_at(words_, d->at).words : std::span<const uint32_t>();
}

uint32_t TypeCheck::word_of(uint32_t id, uint32_t index) const {
  std::span<const uint32_t> words = definition(id);
  return index < words.size() ? words[index] : 0;
}

bool TypeCheck::has_role(uint32_t id, Role role) const {
  const Definition *d = find(id);
  if (!d) return true; // reported as undefined by check_ids
  switch (role) {
  case Role::Any: return true;
  case Role::Type: return spirv::is_type_opcode(d->opcode);
  case Role::Value:
    return d->type != 0 && opcode_of(d->type) != spv::OpTypeVoid && opcode_of(d->type) != spv::OpTypeOpaque;
  case Role::Label: return d->opcode == spv::OpLabel;
  case Role::Function: return d->opcode == spv::OpFunction;
  case Role::FunctionType: return d->opcode == spv::OpTypeFunction;
  case Role::ExtInstSet: return d->opcode == spv::OpExtInstImport;
  case Role::DecorationGroup: return d->opcode == spv::OpDecorationGroup;
  case Role::Constant:
    return (d->opcode == spv::OpConstant || d->opcode == spv::OpSpecConstant) && opcode_of(d->type) == spv::OpTypeInt;
  }
  return false;
}

Status TypeCheck::check_role(const Use &use) const {
  Role role = role_of(use);
  if (has_role(use.id, role)) return check_constant_value(use);
  return invalid_binary(fmt::format("the SPIR-V instruction at word {} (opcode {}) names %{} as operand {}, "
                                    "which is not {}", use.at, use.opcode, use.id, use.word, role_name(role)));
}

void TypeCheck::find_function_bodies() {
  for (const spirv::Instruction &i : spirv::instructions(words_)) {
    if (i.opcode == spv::OpFunction) bodies_.push_back({uint32_t(i.at), uint32_t(words_.size())});
    if (i.opcode == spv::OpFunctionEnd && !bodies_.empty()) bodies_.back().second = uint32_t(i.at);
    if (i.opcode == spv::OpTypeForwardPointer && i.count >= 2) forward_pointers_.insert(i.words[1]);
  }
}

ptrdiff_t TypeCheck::body_of(uint32_t at) const {
  auto after = std::upper_bound(bodies_.begin(), bodies_.end(), std::pair{at, ~0u});
  if (after == bodies_.begin() || at > std::prev(after)->second) return -1;
  return std::prev(after) - bodies_.begin();
}

Status TypeCheck::check_scope(const Use &use) const {
  const Definition *d = find(use.id);
  if (!d || d->opcode == spv::OpFunction || d->opcode == spv::OpLabel || role_of(use) == Role::Any) return {};
  ptrdiff_t body = body_of(d->at);
  if (body < 0) {
    // Types and constants refer back, but for pointers declared ahead by OpTypeForwardPointer.
    if (d->at < use.at || body_of(use.at) >= 0 || forward_pointers_.contains(use.id)) return {};
    return invalid_binary(fmt::format("the SPIR-V instruction at word {} (opcode {}) uses %{} before the "
                                      "instruction that defines it", use.at, use.opcode, use.id));
  }
  if (role_of(use) != Role::Value) return {};
  if (body_of(use.at) != body || (d->at >= use.at && use.opcode != spv::OpPhi)) {
    return invalid_binary(fmt::format("the SPIR-V instruction at word {} (opcode {}) uses %{} outside the function "
                                      "or before the instruction that defines it", use.at, use.opcode, use.id));
  }
  return {};
}

Status TypeCheck::check_constant_value(const Use &use) const {
  if (use.operand != SPV_OPERAND_TYPE_SCOPE_ID && use.operand != SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID) return {};
  uint32_t value = word_of(use.id, 3);
  bool scope = use.operand == SPV_OPERAND_TYPE_SCOPE_ID;
  uint32_t order = value & ordering_semantics;
  bool known_bits = (value & ~(ordering_semantics | storage_semantics)) == 0;
  if (scope ? value <= spv::ScopeInvocation : known_bits && (order & (order - 1)) == 0) return {};
  return invalid_binary(fmt::format("the SPIR-V instruction at word {} (opcode {}) uses %{} = {} as a {}, which is "
                                    "not one", use.at, use.opcode, use.id, value,
                                    scope ? "memory scope" : "memory order"));
}

Error TypeCheck::wrong(uint32_t at, std::span<const uint32_t> inst, std::string_view what) const {
  return invalid_binary(
      fmt::format("the SPIR-V instruction at word {} (opcode {}) {}", at, inst[0] & 0xffff, what));
}

namespace {

// The families TypeCheck::check hands instructions to, by opcode; an opcode belongs to one at most.
enum class Family { None, Type, ModuleInfo, Function, Memory, Composite, ControlFlow, Arithmetic, Logic, Group, Image,
                    ExtInst };

Family family_of(uint32_t opcode) {
  switch (opcode) {
  case spv::OpTypeInt: case spv::OpTypeFloat: case spv::OpTypeVector: case spv::OpTypeImage: case spv::OpTypePointer:
  case spv::OpTypeForwardPointer:
    return Family::Type;
  case spv::OpExtInstImport: case spv::OpMemoryModel: case spv::OpEntryPoint: case spv::OpExecutionMode:
  case spv::OpExecutionModeId: case spv::OpGroupDecorate: case spv::OpDecorate: case spv::OpMemberDecorate:
  case spv::OpName: case spv::OpMemberName:
    return Family::ModuleInfo;
  case spv::OpVariable: case spv::OpFunction: case spv::OpFunctionParameter: case spv::OpLabel:
  case spv::OpFunctionCall:
    return Family::Function;
  case spv::OpLoad: case spv::OpStore: case spv::OpAccessChain: case spv::OpInBoundsAccessChain:
  case spv::OpPtrAccessChain: case spv::OpInBoundsPtrAccessChain: case spv::OpCopyMemory: case spv::OpCopyMemorySized:
  case spv::OpLifetimeStart: case spv::OpLifetimeStop: case spv::OpAtomicFlagTestAndSet: case spv::OpAtomicFlagClear:
    return Family::Memory;
  case spv::OpCompositeConstruct: case spv::OpCompositeExtract: case spv::OpCompositeInsert:
  case spv::OpVectorExtractDynamic: case spv::OpVectorInsertDynamic: case spv::OpVectorShuffle:
  case spv::OpConstantComposite: case spv::OpSpecConstantComposite:
    return Family::Composite;
  case spv::OpSelect: case spv::OpBranchConditional: case spv::OpPhi: return Family::ControlFlow;
  case spv::OpSNegate: case spv::OpFNegate: case spv::OpNot: case spv::OpBitReverse: case spv::OpBitCount:
  case spv::OpVectorTimesScalar: case spv::OpDot:
    return Family::Arithmetic;
  case spv::OpAny: case spv::OpAll: return Family::Logic;
  case spv::OpExtInst: return Family::ExtInst;
  default: break;
  }
  auto in = [opcode](uint32_t first, uint32_t last) { return opcode >= first && opcode <= last; };
  if (in(spv::OpAtomicLoad, spv::OpAtomicXor)) return Family::Memory;
  if (in(spv::OpConvertFToU, spv::OpBitcast) || in(spv::OpIAdd, spv::OpFMod) ||
      in(spv::OpShiftRightLogical, spv::OpBitwiseAnd)) {
    return Family::Arithmetic;
  }
  if (in(spv::OpIsNan, spv::OpFUnordGreaterThanEqual)) return Family::Logic; // OpSelect is control flow, above
  if (in(spv::OpGroupAll, spv::OpGroupSMax) || in(spv::OpGroupNonUniformElect, spv::OpGroupNonUniformQuadSwap)) {
    return Family::Group;
  }
  if (in(spv::OpSampledImage, spv::OpImageQuerySamples)) return Family::Image;
  return Family::None;
}

} // namespace

Status TypeCheck::check(uint32_t at, std::span<const uint32_t> inst) {
  uint32_t opcode = inst[0] & 0xffff;
  if (is_unimplemented(opcode)) return wrong(at, inst, "is an instruction the SPIR-V translator does not implement");
  if (is_device_enqueue(opcode)) {
    return wrong(at, inst, "enqueues work from the device, which this driver does not support");
  }
  if (is_pipe(opcode)) return wrong(at, inst, "uses a pipe, which this driver does not support");
  if (spirv::is_module_level(opcode) && body_of(at) >= 0) {
    return wrong(at, inst, "declares a type or constant inside a function");
  }
  switch (family_of(opcode)) {
  case Family::Type: return check_type_declaration(at, inst);
  case Family::ModuleInfo: return check_module_info(at, inst);
  case Family::Function: return check_function_part(at, inst);
  case Family::Memory: return check_memory_access(at, inst);
  case Family::Composite: return check_composite_part(at, inst);
  case Family::ControlFlow: return check_control_flow(at, inst);
  case Family::Arithmetic: return check_arithmetic(at, inst);
  case Family::Logic: return check_logic(at, inst);
  case Family::Group: return check_group(at, inst);
  case Family::Image: return check_image_operand(at, inst);
  case Family::ExtInst: return check_ext_inst(at, inst);
  case Family::None: break;
  }
  return {};
}

Status TypeCheck::check_type_declaration(uint32_t at, std::span<const uint32_t> inst) const {
  switch (inst[0] & 0xffff) {
  case spv::OpTypeInt:
    if (inst.size() < 3 || (inst[2] != 8 && inst[2] != 16 && inst[2] != 32 && inst[2] != 64)) {
      return wrong(at, inst, "declares an integer width other than 8, 16, 32 or 64");
    }
    return {};
  case spv::OpTypeFloat:
    if (inst.size() < 3 || (inst[2] != 16 && inst[2] != 32 && inst[2] != 64)) {
      return wrong(at, inst, "declares a floating-point width other than 16, 32 or 64");
    }
    return {};
  case spv::OpTypeVector: return check_vector_type(at, inst);
  case spv::OpTypeImage: return check_image_type(at, inst);
  case spv::OpTypePointer:
    if (inst.size() < 4 || !is_kernel_storage_class(inst[2])) {
      return wrong(at, inst,
                   fmt::format("uses storage class {}, which the translator maps to no address space", inst[2]));
    }
    return {};
  case spv::OpTypeForwardPointer:
    if (inst.size() >= 3 && !is_kernel_storage_class(inst[2])) {
      return wrong(at, inst,
                   fmt::format("uses storage class {}, which the translator maps to no address space", inst[2]));
    }
    return {};
  default: return {};
  }
}

Status TypeCheck::check_image_type(uint32_t at, std::span<const uint32_t> inst) const {
  // The translator asserts each of Depth, Arrayed, MS and Sampled is one it has a meaning for, and has
  // a name only for images of void, integers and floats.
  if (inst.size() < 9 || inst[3] > spv::DimBuffer || inst[4] > 2 || inst[5] > 1 || inst[6] > 1 || inst[7] != 0 ||
      inst[8] != 0) {
    return wrong(at, inst, "declares an image type with a dimension, depth, arrayed, multisampled, sampled or format "
                           "operand out of range (OpenCL images are sampled at run time (0), of Unknown format)");
  }
  if (uint32_t sampled = opcode_of(inst[2]); !(sampled == spv::OpTypeVoid ||
      (sampled == spv::OpTypeInt && word_of(inst[2], 2) == 32) ||
      (sampled == spv::OpTypeFloat && (word_of(inst[2], 2) == 16 || word_of(inst[2], 2) == 32)))) {
    return wrong(at, inst, "declares an image of something other than void, 32-bit integers or 16- or "
                           "32-bit floats");
  }
  return {};
}

Status TypeCheck::check_module_info(uint32_t at, std::span<const uint32_t> inst) {
  switch (inst[0] & 0xffff) {
  case spv::OpExtInstImport: // before any OpExtInst
    if (inst.size() >= 3 && spirv::literal_string(inst.subspan(2)) == "OpenCL.std") opencl_std_ = inst[1];
    return {};
  case spv::OpMemoryModel:
    if (inst.size() >= 2) address_bits_ = inst[1] == spv::AddressingModelPhysical32 ? 32 : 64;
    return {};
  case spv::OpEntryPoint:
    if (inst.size() >= 4) entry_points_[inst[2]] = spirv::literal_string(inst.subspan(3));
    return {};
  case spv::OpExecutionMode: case spv::OpExecutionModeId:
    if (inst.size() >= 2 && !entry_points_.contains(inst[1])) {
      return wrong(at, inst, fmt::format("sets an execution mode of %{}, which is not an entry point", inst[1]));
    }
    return {};
  case spv::OpGroupDecorate:
    if (inst.size() >= 2 && !applied_groups_.insert(inst[1]).second) {
      return wrong(at, inst, fmt::format("applies decoration group %{} a second time", inst[1]));
    }
    return {};
  case spv::OpDecorate: case spv::OpMemberDecorate: return check_decoration(at, inst);
  case spv::OpName: return check_name_target(at, inst);
  case spv::OpMemberName:
    if (inst.size() >= 3 && !is_member(inst[1], inst[2])) return wrong(at, inst, "names a member its struct lacks");
    return check_name_target(at, inst);
  default: return {};
  }
}

Status TypeCheck::check_function_part(uint32_t at, std::span<const uint32_t> inst) {
  switch (inst[0] & 0xffff) {
  case spv::OpVariable:
    if (Status ok = check_builtin_type(at, inst); !ok) return ok;
    return check_variable(at, inst);
  case spv::OpFunction: return check_function(at, inst);
  case spv::OpFunctionParameter: return check_parameter(at, inst);
  case spv::OpLabel:
    if (parameters_left_ != 0) return wrong(at, inst, "starts a function body before all its parameters");
    return {};
  case spv::OpFunctionCall: return check_call(at, inst);
  default: return {};
  }
}

Status TypeCheck::check_memory_access(uint32_t at, std::span<const uint32_t> inst) const {
  const uint32_t opcode = inst[0] & 0xffff;
  switch (opcode) {
  case spv::OpLoad:
    if (inst.size() >= 4 && pointee(type_of(inst[3])) != inst[1]) {
      return wrong(at, inst, fmt::format("loads through %{}, which is not a pointer to its result type", inst[3]));
    }
    return {};
  case spv::OpStore:
    if (inst.size() >= 3 && pointee(type_of(inst[1])) != type_of(inst[2])) {
      return wrong(at, inst, fmt::format("stores through %{}, which is not a pointer to the stored value's type",
                                         inst[1]));
    }
    return {};
  case spv::OpAccessChain: case spv::OpInBoundsAccessChain: return check_access_chain(at, inst, false);
  case spv::OpPtrAccessChain: case spv::OpInBoundsPtrAccessChain: return check_access_chain(at, inst, true);
  case spv::OpCopyMemory: case spv::OpCopyMemorySized:
    if (inst.size() >= 3 &&
        (pointee(type_of(inst[1])) == 0 || pointee(type_of(inst[2])) == 0 ||
         (opcode == spv::OpCopyMemory && pointee(type_of(inst[1])) != pointee(type_of(inst[2]))))) {
      return wrong(at, inst, "copies between operands that are not pointers to one type");
    }
    return {};
  case spv::OpLifetimeStart: case spv::OpLifetimeStop: return check_lifetime(at, inst);
  default: return check_atomic(at, inst); // OpAtomicLoad to OpAtomicXor, OpAtomicFlagTestAndSet, OpAtomicFlagClear
  }
}

Status TypeCheck::check_lifetime(uint32_t at, std::span<const uint32_t> inst) const {
  uint32_t object = inst.size() >= 2 ? pointee(type_of(inst[1])) : 0;
  if (inst.size() >= 2 && (object == 0 || word_of(type_of(inst[1]), 2) != spv::StorageClassFunction)) {
    return wrong(at, inst, "names an object that is not a pointer to a function variable");
  }
  // A size in bytes goes with a byte pointer (what LLVM's lifetime markers take).
  if (inst.size() >= 3 && inst[2] != 0 && (opcode_of(object) != spv::OpTypeInt || word_of(object, 2) != 8)) {
    return wrong(at, inst, "gives a size for an object that is not reached through a byte pointer");
  }
  return {};
}

Status TypeCheck::check_composite_part(uint32_t at, std::span<const uint32_t> inst) const {
  switch (inst[0] & 0xffff) {
  case spv::OpCompositeConstruct: {
    uint32_t kind = opcode_of(inst[1]);
    if (kind != spv::OpTypeVector && kind != spv::OpTypeArray && kind != spv::OpTypeStruct) {
      return wrong(at, inst, "constructs something other than a vector, array or struct");
    }
    return {};
  }
  case spv::OpCompositeExtract: return check_composite(at, inst, 3);
  case spv::OpCompositeInsert: return check_composite(at, inst, 4);
  case spv::OpVectorExtractDynamic: case spv::OpVectorInsertDynamic:
    if (inst.size() >= 4 && opcode_of(type_of(inst[3])) != spv::OpTypeVector) {
      return wrong(at, inst, fmt::format("indexes %{}, which is not a vector", inst[3]));
    }
    return {};
  case spv::OpVectorShuffle:
    if (inst.size() >= 5 &&
        (opcode_of(inst[1]) != spv::OpTypeVector || opcode_of(type_of(inst[3])) != spv::OpTypeVector ||
         opcode_of(type_of(inst[4])) != spv::OpTypeVector)) {
      return wrong(at, inst, "shuffles operands or into a result that are not vectors");
    }
    if (inst.size() >= 5 && inst.size() - 5 != word_of(inst[1], 3)) {
      return wrong(at, inst, "selects a number of components other than its result vector has");
    }
    return {};
  case spv::OpConstantComposite: case spv::OpSpecConstantComposite: return check_composite_constant(at, inst);
  default: return {};
  }
}

Status TypeCheck::check_control_flow(uint32_t at, std::span<const uint32_t> inst) const {
  switch (inst[0] & 0xffff) {
  case spv::OpSelect:
    if (inst.size() >= 6 &&
        (!is_boolean(type_of(inst[3])) || type_of(inst[4]) != inst[1] || type_of(inst[5]) != inst[1])) {
      return wrong(at, inst, "selects on a non-boolean or between values not of its result type");
    }
    return {};
  case spv::OpBranchConditional:
    if (opcode_of(type_of(inst[1])) != spv::OpTypeBool) {
      return wrong(at, inst, fmt::format("branches on %{}, which is not a boolean", inst[1]));
    }
    return {};
  case spv::OpPhi:
    for (size_t i = 3; i < inst.size(); i += 2) {
      if (type_of(inst[i]) != inst[1]) {
        return wrong(at, inst, fmt::format("merges %{}, which is not of its result type", inst[i]));
      }
    }
    return {};
  default: return {};
  }
}

Status TypeCheck::check_arithmetic(uint32_t at, std::span<const uint32_t> inst) const {
  const uint32_t opcode = inst[0] & 0xffff;
  if (opcode >= spv::OpConvertFToU && opcode <= spv::OpBitcast) return check_conversion(at, inst);
  if (opcode >= spv::OpIAdd && opcode <= spv::OpFMod) return check_binary(at, inst, false);
  if (opcode >= spv::OpShiftRightLogical && opcode <= spv::OpBitwiseAnd) return check_binary(at, inst, true);
  if (opcode == spv::OpDot && inst.size() >= 5 &&
      (type_of(inst[3]) != type_of(inst[4]) || opcode_of(type_of(inst[3])) != spv::OpTypeVector ||
       component(type_of(inst[3])) != inst[1] || opcode_of(inst[1]) != spv::OpTypeFloat)) {
    return wrong(at, inst, "is a dot product of operands that are not floating-point vectors of its result type");
  }
  if (opcode == spv::OpVectorTimesScalar && inst.size() >= 5 &&
      (opcode_of(inst[1]) != spv::OpTypeVector || type_of(inst[3]) != inst[1] ||
       opcode_of(component(inst[1])) != spv::OpTypeFloat || type_of(inst[4]) != component(inst[1]))) {
    return wrong(at, inst, "scales something other than a floating-point vector by its component type");
  }
  if ((opcode == spv::OpSNegate || opcode == spv::OpFNegate || opcode == spv::OpNot || opcode == spv::OpBitReverse ||
       opcode == spv::OpBitCount) && inst.size() >= 4) {
    uint32_t scalar = opcode_of(component(inst[1]));
    bool numeric = scalar == spv::OpTypeInt || (opcode == spv::OpFNegate && scalar == spv::OpTypeFloat);
    if (type_of(inst[3]) != inst[1] || !numeric) {
      return wrong(at, inst, fmt::format("negates or counts %{}, which is not a number of its result type", inst[3]));
    }
  }
  return {};
}

Status TypeCheck::check_logic(uint32_t at, std::span<const uint32_t> inst) const {
  const uint32_t opcode = inst[0] & 0xffff;
  // OpIEqual to OpFUnordGreaterThanEqual: the comparisons the translator makes LLVM comparisons of.
  if (opcode >= spv::OpIEqual) return check_comparison(at, inst);
  if (opcode == spv::OpAny || opcode == spv::OpAll) {
    if (inst.size() >= 4 && (opcode_of(inst[1]) != spv::OpTypeBool ||
                             opcode_of(type_of(inst[3])) != spv::OpTypeVector || !is_boolean(type_of(inst[3])))) {
      return wrong(at, inst,
                   fmt::format("tests %{}, which is not a boolean vector, or yields a non-boolean", inst[3]));
    }
    return {};
  }
  return check_compare(at, inst); // OpIsNan to OpLogicalNot
}

Status TypeCheck::check_group(uint32_t at, std::span<const uint32_t> inst) const {
  const uint32_t opcode = inst[0] & 0xffff;
  if (inst.size() < 4) return {};
  // OpenCL has sub-group non-uniform operations only; the translator asserts on any other scope.
  if (opcode >= spv::OpGroupNonUniformElect && opcode_of(inst[3]) == spv::OpConstant &&
      word_of(inst[3], 3) != spv::ScopeSubgroup) {
    return wrong(at, inst, "is a non-uniform group operation at a scope other than the sub-group");
  }
  uint32_t scope = word_of(inst[3], 3); // a constant, by its operand kind
  if (scope != spv::ScopeWorkgroup && scope != spv::ScopeSubgroup) {
    return wrong(at, inst, fmt::format("is a group operation over scope {}, not a work-group or sub-group", scope));
  }
  return {};
}

Status TypeCheck::check_image_operand(uint32_t at, std::span<const uint32_t> inst) const {
  const uint32_t opcode = inst[0] & 0xffff;
  size_t image = opcode == spv::OpImageWrite ? 1 : 3;
  uint32_t kind = inst.size() > image ? opcode_of(type_of(inst[image])) : 0;
  if (kind != spv::OpTypeImage && kind != spv::OpTypeSampledImage) {
    return wrong(at, inst, "takes an image operand that is not an image");
  }
  return {};
}

Status TypeCheck::check_vector_type(uint32_t at, std::span<const uint32_t> inst) const {
  if (inst.size() < 4) return {};
  uint32_t scalar = opcode_of(inst[2]);
  if (scalar != spv::OpTypeBool && scalar != spv::OpTypeInt && scalar != spv::OpTypeFloat) {
    return wrong(at, inst, fmt::format("declares a vector of %{}, which is not a scalar type", inst[2]));
  }
  uint32_t n = inst[3];
  // VectorAnyINTEL (Triton's XPU kernels declare it for their 32- and 64-lane vectors) allows other lengths, which
  // the translator reads as LLVM vectors; past 1024 lanes code generation would take the process's time and memory.
  if (vector_any_ && (n < 2 || n > 1024)) {
    return wrong(at, inst, fmt::format("declares a vector of {} components, not between 2 and 1024 (VectorAnyINTEL)", n));
  }
  if (!vector_any_ && n != 2 && n != 3 && n != 4 && n != 8 && n != 16) {
    return wrong(at, inst, fmt::format("declares a vector of {} components, not 2, 3, 4, 8 or 16", n));
  }
  return {};
}

Status TypeCheck::check_variable(uint32_t at, std::span<const uint32_t> inst) const {
  if (inst.size() < 4) return {};
  if (opcode_of(inst[1]) != spv::OpTypePointer) {
    return wrong(at, inst, "declares a variable whose type is not a pointer");
  }
  if (word_of(inst[1], 2) != inst[3]) {
    return wrong(at, inst, "declares a variable whose storage class differs from its pointer type's");
  }
  if (inst.size() > 4 && type_of(inst[4]) != pointee(inst[1])) {
    return wrong(at, inst, fmt::format("initialises a variable with %{}, whose type is not the variable's", inst[4]));
  }
  return {};
}

Status TypeCheck::check_function(uint32_t at, std::span<const uint32_t> inst) {
  if (inst.size() < 5) return {};
  function_type_ = inst[4];
  if (word_of(function_type_, 2) != inst[1]) {
    return wrong(at, inst, fmt::format("returns %{} but its function type %{} returns another type", inst[1],
                                       function_type_));
  }
  parameters_left_ = uint32_t(std::max<size_t>(3, definition(function_type_).size()) - 3);
  return {};
}

Status TypeCheck::check_parameter(uint32_t at, std::span<const uint32_t> inst) {
  if (parameters_left_ == 0) return wrong(at, inst, "is a parameter its function type does not have");
  uint32_t count = uint32_t(definition(function_type_).size() - 3);
  uint32_t expected = word_of(function_type_, 3 + count - parameters_left_--);
  if (inst.size() >= 2 && inst[1] != expected) {
    return wrong(at, inst, fmt::format("is a parameter of type %{} where the function type has %{}", inst[1],
                                       expected));
  }
  return {};
}

Status TypeCheck::check_call(uint32_t at, std::span<const uint32_t> inst) const {
  if (inst.size() < 4) return {};
  uint32_t type = word_of(inst[3], 4);
  uint32_t params = opcode_of(type) == spv::OpTypeFunction ? uint32_t(definition(type).size() - 3) : 0;
  if (word_of(type, 2) != inst[1] || inst.size() - 4 != params) {
    return wrong(at, inst, fmt::format("calls %{} with a result type or argument count its type does not have",
                                       inst[3]));
  }
  for (uint32_t i = 0; i < params; ++i) {
    if (type_of(inst[4 + i]) != word_of(type, 3 + i)) {
      return wrong(at, inst, fmt::format("passes %{} as argument {} of %{}, whose parameter has another type",
                                         inst[4 + i], i, inst[3]));
    }
  }
  return {};
}

bool TypeCheck::is_member(uint32_t type, uint32_t member) const {
  return opcode_of(type) == spv::OpTypeStruct && uint64_t{member} + 2 < definition(type).size();
}

Status TypeCheck::check_composite(uint32_t at, std::span<const uint32_t> inst, size_t operand) const {
  if (inst.size() <= operand) return {};
  uint32_t kind = opcode_of(type_of(inst[operand]));
  if (kind != spv::OpTypeVector && kind != spv::OpTypeArray && kind != spv::OpTypeStruct) {
    return wrong(at, inst, fmt::format("takes %{} apart, which is not a vector, array or struct", inst[operand]));
  }
  return {};
}

Status TypeCheck::check_binary(uint32_t at, std::span<const uint32_t> inst, bool bitwise) const {
  if (inst.size() < 5) return {};
  uint32_t scalar = opcode_of(component(inst[1]));
  // OpFAdd, OpFSub, OpFMul, OpFDiv, OpFRem and OpFMod take floating point; the rest of OpIAdd..OpFMod integers.
  uint32_t opcode = inst[0] & 0xffff;
  bool float_op = !bitwise && (opcode == spv::OpFAdd || opcode == spv::OpFSub || opcode == spv::OpFMul ||
                               opcode == spv::OpFDiv || opcode >= spv::OpFRem);
  bool numeric = bitwise ? scalar == spv::OpTypeInt : scalar == (float_op ? spv::OpTypeFloat : spv::OpTypeInt);
  bool shift = (inst[0] & 0xffff) <= spv::OpShiftLeftLogical && bitwise;
  if (!numeric || type_of(inst[3]) != inst[1] || (!shift && type_of(inst[4]) != inst[1]) ||
      opcode_of(component(type_of(inst[4]))) != scalar) {
    return wrong(at, inst, fmt::format("combines %{} and %{}, whose types do not match each other, the result "
                                       "type, or the operation", inst[3], inst[4]));
  }
  return {};
}

Status TypeCheck::check_conversion(uint32_t at, std::span<const uint32_t> inst) const {
  if (inst.size() < 4) return {};
  uint32_t opcode = inst[0] & 0xffff;
  uint32_t from = type_of(inst[3]);
  uint32_t to = inst[1];
  auto kind = [&](uint32_t type) { return opcode_of(component(type)); };
  auto lanes = [&](uint32_t type) { return opcode_of(type) == spv::OpTypeVector ? word_of(type, 3) : 1; };
  bool ok = true;
  switch (opcode) {
  case spv::OpConvertFToU:
  case spv::OpConvertFToU + 1: ok = kind(from) == spv::OpTypeFloat && kind(to) == spv::OpTypeInt; break;
  case spv::OpConvertSToF:
  case spv::OpConvertSToF + 1: ok = kind(from) == spv::OpTypeInt && kind(to) == spv::OpTypeFloat; break;
  case spv::OpUConvert: case spv::OpUConvert + 1: case spv::OpSatConvertSToU: case spv::OpSatConvertSToU + 1:
    ok = kind(from) == spv::OpTypeInt && kind(to) == spv::OpTypeInt; break;
  case spv::OpFConvert:
  case spv::OpFConvert + 1: ok = kind(from) == spv::OpTypeFloat && kind(to) == spv::OpTypeFloat; break;
  case spv::OpConvertPtrToU: ok = kind(from) == spv::OpTypePointer && kind(to) == spv::OpTypeInt; break;
  case spv::OpConvertUToPtr: ok = kind(from) == spv::OpTypeInt && kind(to) == spv::OpTypePointer; break;
  case spv::OpBitcast:
    ok = (kind(from) == spv::OpTypePointer) == (kind(to) == spv::OpTypePointer) && kind(from) != spv::OpTypeBool;
    break;
  default: ok = kind(from) == spv::OpTypePointer && kind(to) == spv::OpTypePointer; break; // the generic casts
  }
  if (ok && opcode != spv::OpBitcast && lanes(from) != lanes(to)) ok = false;
  if (!ok) return wrong(at, inst, fmt::format("converts %{}, whose type it cannot convert to %{}", inst[3], to));
  return {};
}

Status TypeCheck::check_atomic(uint32_t at, std::span<const uint32_t> inst) const {
  uint32_t opcode = inst[0] & 0xffff;
  bool no_result = opcode == spv::OpAtomicStore || opcode == spv::OpAtomicFlagClear;
  size_t pointer = no_result ? 1 : 3;
  if (inst.size() <= pointer) return {};
  uint32_t target = pointee(type_of(inst[pointer]));
  bool ok = target != 0 && (no_result || opcode == spv::OpAtomicFlagTestAndSet || target == inst[1]);
  bool operand = opcode != spv::OpAtomicLoad && !no_result && opcode != spv::OpAtomicFlagTestAndSet &&
                 (opcode < spv::OpAtomicIIncrement || opcode > spv::OpAtomicIDecrement);
  if (operand) ok = ok && type_of(inst.back()) == inst[1];
  if (opcode == spv::OpAtomicStore && inst.size() >= 5) ok = ok && type_of(inst[4]) == target;
  if (!ok) {
    return wrong(at, inst,
                 fmt::format("acts through %{}, which is not a pointer to its value's type", inst[pointer]));
  }
  return {};
}

Status TypeCheck::check_compare(uint32_t at, std::span<const uint32_t> inst) const {
  if (inst.size() < 4) return {};
  uint32_t opcode = inst[0] & 0xffff;
  uint32_t operand = opcode_of(component(type_of(inst[3])));
  uint32_t expected = opcode >= spv::OpFOrdEqual || opcode < spv::OpLogicalEqual ? spv::OpTypeFloat
                      : opcode >= spv::OpIEqual                              ? spv::OpTypeInt
                                                                        : spv::OpTypeBool;
  uint32_t result = opcode_of(component(inst[1]));
  if ((result != spv::OpTypeBool && result != spv::OpTypeInt) || operand != expected ||
      (inst.size() >= 5 && type_of(inst[3]) != type_of(inst[4]))) {
    return wrong(at, inst, fmt::format("compares %{} with an operand of another type or kind, or yields a "
                                       "non-boolean", inst[3]));
  }
  return {};
}

Status TypeCheck::check_access_chain(uint32_t at, std::span<const uint32_t> inst, bool element_first) const {
  if (inst.size() < 4) return {};
  uint32_t type = pointee(type_of(inst[3]));
  if (opcode_of(inst[1]) != spv::OpTypePointer || type == 0) {
    return wrong(at, inst, "has a base or result that is not a pointer");
  }
  if (word_of(inst[1], 2) != word_of(type_of(inst[3]), 2)) {
    return wrong(at, inst, "has a result in another storage class than its base");
  }
  for (size_t i = 4; i < inst.size(); ++i) {
    if (opcode_of(type_of(inst[i])) != spv::OpTypeInt) {
      return wrong(at, inst, fmt::format("indexes with %{}, which is not an integer", inst[i]));
    }
    if (i == 4 && element_first) continue; // steps over whole pointees
    switch (opcode_of(type)) {
    case spv::OpTypeStruct: {
      const Definition *index = find(inst[i]);
      bool i32 = index->opcode == spv::OpConstant && word_of(index->type, 2) == 32; // LLVM's struct indices are i32
      uint32_t member = i32 ? words_[index->at + 3] : ~0u;
      if (!is_member(type, member)) {
        return wrong(at, inst,
                     fmt::format("indexes a struct with %{}, which is not a constant member number", inst[i]));
      }
      type = word_of(type, 2 + member);
      break;
    }
    case spv::OpTypeArray: case spv::OpTypeVector: case spv::OpTypeRuntimeArray: type = word_of(type, 2); break;
    default: return wrong(at, inst, fmt::format("indexes into %{}, which is not a struct, array or vector", type));
    }
  }
  if (pointee(inst[1]) != type) {
    return wrong(at, inst, "has a result type that does not point at the indexed element");
  }
  return {};
}

Status TypeCheck::check_comparison(uint32_t at, std::span<const uint32_t> inst) const {
  if (inst.size() < 5) return {};
  uint32_t operands = type_of(inst[3]);
  bool same = operands == type_of(inst[4]);
  bool boolean = opcode_of(component(inst[1])) == spv::OpTypeBool &&
                 (opcode_of(inst[1]) == spv::OpTypeVector) == (opcode_of(operands) == spv::OpTypeVector) &&
                 (opcode_of(inst[1]) != spv::OpTypeVector || word_of(inst[1], 3) == word_of(operands, 3));
  uint32_t kind = (inst[0] & 0xffff) >= spv::OpFOrdEqual ? spv::OpTypeFloat : spv::OpTypeInt;
  if (!same) return wrong(at, inst, "compares two values of different types");
  if (opcode_of(component(operands)) != kind) {
    return wrong(at, inst, kind == spv::OpTypeFloat ? "compares values that are not floating-point"
                                                   : "compares values that are not integers");
  }
  if (!boolean) return wrong(at, inst, "gives a comparison a type other than bool or a vector of as many bools");
  return {};
}

Status check_types(std::span<const uint32_t> words, const IdCheck &ids) { return TypeCheck(words, ids).run(); }

} // namespace zeal::frontend
