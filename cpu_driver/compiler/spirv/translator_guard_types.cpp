// Kinds and types of ids where LLVMSPIRVLib casts or asserts without checking: check_translator_input, second half.
#include "cpu_driver/compiler/spirv/opcodes.hpp"
#include "cpu_driver/compiler/spirv/translator_guard_ids.hpp"

#include <fmt/format.h>
#include <spirv/unified1/OpenCL.std.h>

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace zeal::cpu::detail {
namespace {

// The memory semantics bits that order (at most one may be set), and those that name storage or visibility.
const uint32_t ordering_semantics = spv::MemorySemanticsAcquireMask | spv::MemorySemanticsReleaseMask |
                                    spv::MemorySemanticsAcquireReleaseMask |
                                    spv::MemorySemanticsSequentiallyConsistentMask;
const uint32_t storage_semantics =
    spv::MemorySemanticsUniformMemoryMask | spv::MemorySemanticsSubgroupMemoryMask |
    spv::MemorySemanticsWorkgroupMemoryMask | spv::MemorySemanticsCrossWorkgroupMemoryMask |
    spv::MemorySemanticsAtomicCounterMemoryMask | spv::MemorySemanticsImageMemoryMask |
    spv::MemorySemanticsOutputMemoryMask | spv::MemorySemanticsMakeAvailableMask |
    spv::MemorySemanticsMakeVisibleMask | spv::MemorySemanticsVolatileMask;

// The storage classes the translator maps to address spaces (Private is not one of them).
bool is_kernel_storage_class(uint32_t storage) {
  return storage == spv::StorageClassUniformConstant || storage == spv::StorageClassInput ||
         storage == spv::StorageClassWorkgroup || storage == spv::StorageClassCrossWorkgroup ||
         storage == spv::StorageClassFunction || storage == spv::StorageClassGeneric;
}

// The built-in variables of OpenCL kernels; the translator has no name for the others.
bool is_kernel_builtin(uint32_t builtin) {
  // The number after GlobalLinearId is unassigned.
  return (builtin >= spv::BuiltInNumWorkgroups && builtin <= spv::BuiltInSubgroupLocalInvocationId &&
          builtin != spv::BuiltInGlobalLinearId + 1) ||
         (builtin >= spv::BuiltInSubgroupEqMask && builtin <= spv::BuiltInSubgroupLtMask);
}

// Instructions SPIRV-Tools parses but LLVMSPIRVLib 15 has no reader for
// (mostly shader-only ones; it exits the process on them), and the matrix
// ones but OpDot, whose types OpenCL kernels cannot declare.
bool is_unimplemented(uint32_t opcode) {
  return opcode == spv::OpSourceContinued || opcode == spv::OpTranspose || opcode == spv::OpImageTexelPointer ||
         opcode == spv::OpTypeRuntimeArray || opcode == spv::OpGroupMemberDecorate ||
         opcode == spv::OpArrayLength ||
         (opcode >= spv::OpMatrixTimesScalar && opcode <= spv::OpSMulExtended && opcode != spv::OpDot) ||
         opcode == spv::OpKill || (opcode >= spv::OpCopyLogical && opcode <= spv::OpPtrDiff) ||
         opcode == spv::OpTerminateInvocation || (opcode >= spv::OpDPdx && opcode <= spv::OpFwidthCoarse) ||
         (opcode >= spv::OpEmitVertex && opcode <= spv::OpEndStreamPrimitive) ||
         (opcode >= spv::OpImageSparseSampleImplicitLod && opcode <= spv::OpImageSparseTexelsResident) ||
         opcode == spv::OpImageSparseRead || opcode == spv::OpConstantPipeStorage ||
         opcode == spv::OpCreatePipeFromPipeStorage || opcode == spv::OpGetKernelMaxNumSubgroups ||
         (opcode >= spv::OpTypeNamedBarrier && opcode <= spv::OpMemoryNamedBarrier) ||
         opcode == spv::OpExecutionModeId || opcode == spv::OpSizeOf;
}

// Pipes (OpTypePipe, OpReadPipe to OpGroupCommitWritePipe): the translator
// mistypes corrupt ones, and this driver implements no pipes.
bool is_pipe(uint32_t opcode) {
  return opcode == spv::OpTypePipe || (opcode >= spv::OpReadPipe && opcode <= spv::OpGroupCommitWritePipe);
}

// Device-side enqueue (OpEnqueueMarker to OpBuildNDRange): the translator
// mistypes some of it, and this driver has no device queue to enqueue on.
bool is_device_enqueue(uint32_t opcode) { return opcode >= spv::OpEnqueueMarker && opcode <= spv::OpBuildNDRange; }

// The kind of id each operand must name, where the translator casts without
// looking (a value's type, a block, a callee): a wrong kind is a bad cast there.
enum class Role { Any, Type, Value, Label, Function, FunctionType, ExtInstSet, Constant, DecorationGroup };

Role role_of(const Use &use) {
  if (use.operand == SPV_OPERAND_TYPE_TYPE_ID) return Role::Type;
  if (use.operand == SPV_OPERAND_TYPE_SCOPE_ID || use.operand == SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID) {
    return Role::Constant;
  }
  if (use.any_kind && !(use.opcode == spv::OpExtInst && use.word == 3)) return Role::Any;
  switch (use.opcode) {
  case spv::OpSource:
  case spv::OpName:
  case spv::OpMemberName:
  case spv::OpLine:
  case spv::OpEntryPoint:
  case spv::OpExecutionMode:
  case spv::OpDecorate: case spv::OpMemberDecorate:
  case spv::OpExecutionModeId: case spv::OpDecorateId: case spv::OpDecorateString: case spv::OpMemberDecorateString:
    return Role::Any;
  case spv::OpGroupDecorate: case spv::OpGroupMemberDecorate: return use.word == 1 ? Role::DecorationGroup : Role::Any;
  case spv::OpExtInst: return use.word == 3 ? Role::ExtInstSet : Role::Value;
  case spv::OpFunction: return Role::FunctionType;
  case spv::OpFunctionCall: return use.word == 3 ? Role::Function : Role::Value;
  case spv::OpPhi: return use.word % 2 == 0 ? Role::Label : Role::Value;
  case spv::OpLoopMerge: case spv::OpSelectionMerge: case spv::OpBranch: return Role::Label;
  case spv::OpBranchConditional: case spv::OpSwitch: return use.word == 1 ? Role::Value : Role::Label;
  case spv::OpTypeArray: return use.word == 3 ? Role::Constant : Role::Type;
  default: return is_type_opcode(use.opcode) ? Role::Type : Role::Value;
  }
}

const char *role_name(Role role) {
  switch (role) {
  case Role::Type: return "a type";
  case Role::Value: return "a value";
  case Role::Label: return "a block label";
  case Role::Function: return "a function";
  case Role::FunctionType: return "a function type";
  case Role::ExtInstSet: return "an extended instruction set";
  case Role::Constant: return "an integer constant";
  case Role::DecorationGroup: return "a decoration group";
  case Role::Any: break;
  }
  return "an id";
}

// Types and operands where the translator asserts or casts: each result type
// is a type, operands have the kind and type their opcode needs, functions
// match their function types. The rest (what only changes the meaning of
// the code) is left to the translator and the LLVM verifier.
class TypeCheck {
public:
  TypeCheck(std::span<const uint32_t> words, const IdCheck &ids) : words_(words), ids_(ids) {}

  Status run() {
    find_function_bodies();
    for (const Use &use : ids_.used) {
      if (Status ok = check_role(use); !ok) return ok;
      if (Status ok = check_scope(use); !ok) return ok;
    }
    for (size_t at = header_words; at < words_.size(); at += words_[at] >> 16) {
      if (Status ok = check(uint32_t(at), words_.subspan(at, words_[at] >> 16)); !ok) return ok;
    }
    if (Status ok = check_builtin_names(); !ok) return ok;
    if (Status ok = check_bfloat16_conversions(); !ok) return ok;
    return check_builtin_uses();
  }

private:
  const Definition *find(uint32_t id) const {
    auto found = ids_.defined.find(id);
    return found == ids_.defined.end() ? nullptr : &found->second;
  }
  uint32_t opcode_of(uint32_t id) const {
    const Definition *d = find(id);
    return d ? d->opcode : 0;
  }
  uint32_t type_of(uint32_t id) const {
    const Definition *d = find(id);
    return d ? d->type : 0;
  }
  // Word `index` of the instruction defining `id`, or 0 past its end.
  uint32_t word_of(uint32_t id, uint32_t index) const {
    const Definition *d = find(id);
    if (!d || index >= (words_[d->at] >> 16)) return 0;
    return words_[d->at + index];
  }
  uint32_t pointee(uint32_t type) const { return opcode_of(type) == spv::OpTypePointer ? word_of(type, 3) : 0; }
  // The scalar type of a scalar or vector type.
  uint32_t component(uint32_t type) const { return opcode_of(type) == spv::OpTypeVector ? word_of(type, 2) : type; }

  bool has_role(uint32_t id, Role role) const {
    const Definition *d = find(id);
    if (!d) return true; // reported as undefined by check_ids
    switch (role) {
    case Role::Any: return true;
    case Role::Type: return is_type_opcode(d->opcode);
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

  Status check_role(const Use &use) const {
    Role role = role_of(use);
    if (has_role(use.id, role)) return check_constant_value(use);
    return invalid_binary(fmt::format("the SPIR-V instruction at word {} (opcode {}) names %{} as operand {}, "
                                      "which is not {}", use.at, use.opcode, use.id, use.word, role_name(role)));
  }

  // Word ranges [OpFunction, OpFunctionEnd] in module order.
  void find_function_bodies() {
    for (size_t at = header_words; at < words_.size(); at += words_[at] >> 16) {
      uint32_t opcode = words_[at] & 0xffff;
      if (opcode == spv::OpFunction) bodies_.push_back({uint32_t(at), uint32_t(words_.size())});
      if (opcode == spv::OpFunctionEnd && !bodies_.empty()) bodies_.back().second = uint32_t(at);
      if (opcode == spv::OpTypeForwardPointer && (words_[at] >> 16) >= 2) forward_pointers_.insert(words_[at + 1]);
    }
  }
  // The body holding word `at`, or -1 outside functions.
  ptrdiff_t body_of(uint32_t at) const {
    auto after = std::upper_bound(bodies_.begin(), bodies_.end(), std::pair{at, ~0u});
    if (after == bodies_.begin() || at > std::prev(after)->second) return -1;
    return std::prev(after) - bodies_.begin();
  }

  // A function's values are used inside it, after their definition (dominance
  // in block order) except by phis: the translator resolves anything else to
  // a placeholder it then dereferences.
  Status check_scope(const Use &use) const {
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

  // Scopes and memory orders are read as enumerants: one the translator has no name for is a failed lookup.
  Status check_constant_value(const Use &use) const {
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

  Error wrong(uint32_t at, std::span<const uint32_t> inst, std::string_view what) const {
    return invalid_binary(
        fmt::format("the SPIR-V instruction at word {} (opcode {}) {}", at, inst[0] & 0xffff, what));
  }

  Status check(uint32_t at, std::span<const uint32_t> inst) {
    uint32_t opcode = inst[0] & 0xffff;
    if (is_unimplemented(opcode)) return wrong(at, inst, "is an instruction the SPIR-V translator does not implement");
    if (is_device_enqueue(opcode)) {
      return wrong(at, inst, "enqueues work from the device, which this driver does not support");
    }
    if (is_pipe(opcode)) return wrong(at, inst, "uses a pipe, which this driver does not support");
    if (is_module_level(opcode) && body_of(at) >= 0) {
      return wrong(at, inst, "declares a type or constant inside a function");
    }
    switch (opcode) {
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
    case spv::OpTypeImage:
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
    case spv::OpGroupDecorate:
      if (inst.size() >= 2 && !applied_groups_.insert(inst[1]).second) {
        return wrong(at, inst, fmt::format("applies decoration group %{} a second time", inst[1]));
      }
      return {};
    case spv::OpTypePointer:
      if (inst.size() < 4 || !is_kernel_storage_class(inst[2])) {
        return wrong(at, inst,
                     fmt::format("uses storage class {}, which the translator maps to no address space", inst[2]));
      }
      return {};
    case spv::OpVariable:
      if (Status ok = check_builtin_type(at, inst); !ok) return ok;
      return check_variable(at, inst);
    case spv::OpFunction: return check_function(at, inst);
    case spv::OpFunctionParameter: return check_parameter(at, inst);
    case spv::OpLabel:
      if (parameters_left_ != 0) return wrong(at, inst, "starts a function body before all its parameters");
      return {};
    case spv::OpFunctionCall: return check_call(at, inst);
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
    case spv::OpIEqual: case spv::OpINotEqual: case spv::OpUGreaterThan: case spv::OpSGreaterThan:
    case spv::OpUGreaterThanEqual: case spv::OpSGreaterThanEqual: case spv::OpULessThan: case spv::OpSLessThan:
    case spv::OpULessThanEqual: case spv::OpSLessThanEqual: case spv::OpFOrdEqual: case spv::OpFUnordEqual:
    case spv::OpFOrdNotEqual: case spv::OpFUnordNotEqual: case spv::OpFOrdLessThan: case spv::OpFUnordLessThan:
    case spv::OpFOrdGreaterThan: case spv::OpFUnordGreaterThan: case spv::OpFOrdLessThanEqual:
    case spv::OpFUnordLessThanEqual: case spv::OpFOrdGreaterThanEqual: case spv::OpFUnordGreaterThanEqual:
      return check_comparison(at, inst);
    case spv::OpAccessChain: case spv::OpInBoundsAccessChain: return check_access_chain(at, inst, false);
    default: break;
    }
    // OpenCL has sub-group non-uniform operations only; the translator asserts on any other scope.
    if (opcode >= spv::OpGroupNonUniformElect && opcode <= spv::OpGroupNonUniformQuadSwap && inst.size() >= 4 &&
        opcode_of(inst[3]) == spv::OpConstant && word_of(inst[3], 3) != spv::ScopeSubgroup) {
      return wrong(at, inst, "is a non-uniform group operation at a scope other than the sub-group");
    }
    switch (opcode) {
    case spv::OpPtrAccessChain: case spv::OpInBoundsPtrAccessChain: return check_access_chain(at, inst, true);
    case spv::OpCopyMemory: case spv::OpCopyMemorySized:
      if (inst.size() >= 3 &&
          (pointee(type_of(inst[1])) == 0 || pointee(type_of(inst[2])) == 0 ||
           (opcode == spv::OpCopyMemory && pointee(type_of(inst[1])) != pointee(type_of(inst[2]))))) {
        return wrong(at, inst, "copies between operands that are not pointers to one type");
      }
      return {};
    case spv::OpLifetimeStart: case spv::OpLifetimeStop: {
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
    case spv::OpCompositeConstruct: {
      uint32_t kind = opcode_of(inst[1]);
      if (kind != spv::OpTypeVector && kind != spv::OpTypeArray && kind != spv::OpTypeStruct) {
        return wrong(at, inst, "constructs something other than a vector, array or struct");
      }
      return {};
    }
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
    case spv::OpAny: case spv::OpAll:
      if (inst.size() >= 4 && (opcode_of(inst[1]) != spv::OpTypeBool ||
                               opcode_of(type_of(inst[3])) != spv::OpTypeVector || !is_boolean(type_of(inst[3])))) {
        return wrong(at, inst,
                     fmt::format("tests %{}, which is not a boolean vector, or yields a non-boolean", inst[3]));
      }
      return {};
    case spv::OpExtInstImport: // before any OpExtInst
      if (inst.size() >= 3 && spirv_literal_string(inst.subspan(2)) == "OpenCL.std") opencl_std_ = inst[1];
      return {};
    case spv::OpMemoryModel:
      if (inst.size() >= 2) address_bits_ = inst[1] == spv::AddressingModelPhysical32 ? 32 : 64;
      return {};
    case spv::OpEntryPoint:
      if (inst.size() >= 4) entry_points_[inst[2]] = spirv_literal_string(inst.subspan(3));
      return {};
    case spv::OpExtInst: return check_ext_inst(at, inst);
    case spv::OpConstantComposite: case spv::OpSpecConstantComposite: return check_composite_constant(at, inst);
    case spv::OpExecutionMode: case spv::OpExecutionModeId:
      if (inst.size() >= 2 && !entry_points_.contains(inst[1])) {
        return wrong(at, inst, fmt::format("sets an execution mode of %{}, which is not an entry point", inst[1]));
      }
      return {};
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
    case spv::OpTypeForwardPointer:
      if (inst.size() >= 3 && !is_kernel_storage_class(inst[2])) {
        return wrong(at, inst,
                     fmt::format("uses storage class {}, which the translator maps to no address space", inst[2]));
      }
      return {};
    case spv::OpCompositeExtract: return check_composite(at, inst, 3);
    case spv::OpCompositeInsert: return check_composite(at, inst, 4);
    case spv::OpDecorate: case spv::OpMemberDecorate: return check_decoration(at, inst);
    case spv::OpName: return check_name_target(at, inst);
    case spv::OpMemberName:
      if (inst.size() >= 3 && !is_member(inst[1], inst[2])) return wrong(at, inst, "names a member its struct lacks");
      return check_name_target(at, inst);
    default: break;
    }
    if (opcode >= spv::OpConvertFToU && opcode <= spv::OpBitcast) return check_conversion(at, inst);
    if (((opcode >= spv::OpGroupAll && opcode <= spv::OpGroupSMax) ||
         (opcode >= spv::OpGroupNonUniformElect && opcode <= spv::OpGroupNonUniformQuadSwap)) && inst.size() >= 4) {
      uint32_t scope = word_of(inst[3], 3); // a constant, by its operand kind
      if (scope != spv::ScopeWorkgroup && scope != spv::ScopeSubgroup) {
        return wrong(at, inst, fmt::format("is a group operation over scope {}, not a work-group or sub-group", scope));
      }
    }
    if (opcode >= spv::OpSampledImage && opcode <= spv::OpImageQuerySamples) {
      size_t image = opcode == spv::OpImageWrite ? 1 : 3;
      uint32_t kind = inst.size() > image ? opcode_of(type_of(inst[image])) : 0;
      if (kind != spv::OpTypeImage && kind != spv::OpTypeSampledImage) {
        return wrong(at, inst, "takes an image operand that is not an image");
      }
    }
    if ((opcode >= spv::OpAtomicLoad && opcode <= spv::OpAtomicXor) || opcode == spv::OpAtomicFlagTestAndSet ||
        opcode == spv::OpAtomicFlagClear) {
      return check_atomic(at, inst);
    }
    if ((opcode == spv::OpSNegate || opcode == spv::OpFNegate || opcode == spv::OpNot || opcode == spv::OpBitReverse ||
         opcode == spv::OpBitCount) && inst.size() >= 4) {
      uint32_t scalar = opcode_of(component(inst[1]));
      bool numeric = scalar == spv::OpTypeInt || (opcode == spv::OpFNegate && scalar == spv::OpTypeFloat);
      if (type_of(inst[3]) != inst[1] || !numeric) {
        return wrong(at, inst, fmt::format("negates or counts %{}, which is not a number of its result type", inst[3]));
      }
    }
    if (opcode >= spv::OpIAdd && opcode <= spv::OpFMod) return check_binary(at, inst, false);
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
    if (opcode >= spv::OpShiftRightLogical && opcode <= spv::OpBitwiseAnd) return check_binary(at, inst, true);
    if (opcode >= spv::OpIsNan && opcode <= spv::OpFUnordGreaterThanEqual && opcode != spv::OpSelect) {
      return check_compare(at, inst);
    }
    return {};
  }

  Status check_vector_type(uint32_t at, std::span<const uint32_t> inst) const {
    if (inst.size() < 4) return {};
    uint32_t scalar = opcode_of(inst[2]);
    if (scalar != spv::OpTypeBool && scalar != spv::OpTypeInt && scalar != spv::OpTypeFloat) {
      return wrong(at, inst, fmt::format("declares a vector of %{}, which is not a scalar type", inst[2]));
    }
    uint32_t n = inst[3];
    if (n != 2 && n != 3 && n != 4 && n != 8 && n != 16) {
      return wrong(at, inst, fmt::format("declares a vector of {} components, not 2, 3, 4, 8 or 16", n));
    }
    return {};
  }

  Status check_variable(uint32_t at, std::span<const uint32_t> inst) const {
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

  // A function's result type and parameters are those of its OpTypeFunction.
  Status check_function(uint32_t at, std::span<const uint32_t> inst) {
    if (inst.size() < 5) return {};
    function_type_ = inst[4];
    if (word_of(function_type_, 2) != inst[1]) {
      return wrong(at, inst, fmt::format("returns %{} but its function type %{} returns another type", inst[1],
                                         function_type_));
    }
    parameters_left_ = uint32_t(std::max<size_t>(3, words_[find(function_type_)->at] >> 16) - 3);
    return {};
  }

  Status check_parameter(uint32_t at, std::span<const uint32_t> inst) {
    if (parameters_left_ == 0) return wrong(at, inst, "is a parameter its function type does not have");
    uint32_t count = (words_[find(function_type_)->at] >> 16) - 3;
    uint32_t expected = word_of(function_type_, 3 + count - parameters_left_--);
    if (inst.size() >= 2 && inst[1] != expected) {
      return wrong(at, inst, fmt::format("is a parameter of type %{} where the function type has %{}", inst[1],
                                         expected));
    }
    return {};
  }

  Status check_call(uint32_t at, std::span<const uint32_t> inst) const {
    if (inst.size() < 4) return {};
    uint32_t type = word_of(inst[3], 4);
    uint32_t params = opcode_of(type) == spv::OpTypeFunction ? (words_[find(type)->at] >> 16) - 3 : 0;
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

  bool is_member(uint32_t type, uint32_t member) const {
    return opcode_of(type) == spv::OpTypeStruct && uint64_t{member} + 2 < (words_[find(type)->at] >> 16);
  }

  Status check_composite(uint32_t at, std::span<const uint32_t> inst, size_t operand) const {
    if (inst.size() <= operand) return {};
    uint32_t kind = opcode_of(type_of(inst[operand]));
    if (kind != spv::OpTypeVector && kind != spv::OpTypeArray && kind != spv::OpTypeStruct) {
      return wrong(at, inst, fmt::format("takes %{} apart, which is not a vector, array or struct", inst[operand]));
    }
    return {};
  }

  // Both operands and the result share one integer (or, for arithmetic, floating-point) type.
  Status check_binary(uint32_t at, std::span<const uint32_t> inst, bool bitwise) const {
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

  // What each conversion converts from and to: int, float or pointer, with as many lanes on both sides.
  Status check_conversion(uint32_t at, std::span<const uint32_t> inst) const {
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

  // Atomics act through a pointer to their value's type.
  Status check_atomic(uint32_t at, std::span<const uint32_t> inst) const {
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

  bool is_boolean(uint32_t type) const { return opcode_of(component(type)) == spv::OpTypeBool; }

  // Tests and comparisons (OpIsNan to OpFUnordGreaterThanEqual) yield booleans from operands of one type,
  // integers for the integer comparisons, floating-point numbers for the others, booleans for the logical ones.
  Status check_compare(uint32_t at, std::span<const uint32_t> inst) const {
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

  // The indices walk the base's pointee type: struct members by constants in
  // range, arrays and vectors by any integer; the result points at where they end.
  Status check_access_chain(uint32_t at, std::span<const uint32_t> inst, bool element_first) const {
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

  // The translator treats names like decorations: attached to forward references.
  // The translator builds an LLVM comparison, which asserts its operands have one type and gives a bool (or
  // a vector of as many bools).
  Status check_comparison(uint32_t at, std::span<const uint32_t> inst) const {
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

  Status check_name_target(uint32_t at, std::span<const uint32_t> inst) {
    const Definition *target = inst.size() >= 2 ? find(inst[1]) : nullptr;
    if (target && target->at < at) {
      return wrong(at, inst, fmt::format("names %{}, which is defined before the name", inst[1]));
    }
    if (inst.size() >= 3) note_builtin_name(at, inst[1], inst.subspan(2));
    return {};
  }

  // SPV_INTEL_bfloat16_conversion's instructions (parsed as OpConvertFToU / OpConvertUToF): the translator
  // exits the process unless the bfloat16 side is 16-bit integers and the other 32-bit floats, lane for lane.
  Status check_bfloat16_conversions() const {
    for (const auto &[at, to_bfloat16] : ids_.bfloat16_conversions) {
      std::span<const uint32_t> inst = words_.subspan(at, words_[at] >> 16);
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

  // The translator also takes a variable named __spirv_BuiltIn* for a built-in (and reaches its
  // llvm_unreachable on a use it has no pattern for), so such a name must come with the decoration.
  void note_builtin_name(uint32_t at, uint32_t target, std::span<const uint32_t> name) {
    if (spirv_literal_string(name).starts_with("__spirv_BuiltIn")) builtin_names_.emplace(target, at);
  }
  Status check_builtin_names() const {
    for (const auto &[target, at] : builtin_names_) {
      const Definition *variable = find(target);
      if (variable == nullptr || variable->opcode != spv::OpVariable || builtins_.contains(target)) continue;
      return invalid_binary(fmt::format("the SPIR-V instruction at word {} names variable %{} like a built-in "
                                        "(__spirv_BuiltIn...), but the variable is not decorated BuiltIn",
                                        at, target));
    }
    return {};
  }

  // Decorations name ids defined after them (the translator attaches them to
  // forward references) and carry values the translator has a meaning for.
  Status check_decoration(uint32_t at, std::span<const uint32_t> inst) {
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
          spirv_literal_string(inst.subspan(3, inst.size() - 4)) != entry->second) {
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

  // The translator reads OpenCL's built-in variables as the types the SPIR-V
  // environment gives them: size_t 3-vectors for the ids and sizes, size_t for
  // the linear ids, 32-bit integers for the others (4-vectors for the masks).
  Status check_builtin_type(uint32_t at, std::span<const uint32_t> inst) const {
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

  // OpenCL.std instructions whose operands the translator dereferences by
  // type: printf's format is a byte pointer and its result an int.
  Status check_ext_inst(uint32_t at, std::span<const uint32_t> inst) const {
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

  // The OpenCL.std instructions that take or return no pointers: all but fract, frexp,
  // lgamma_r, modf, remquo, sincos, the vector loads and stores, printf and prefetch.
  static bool takes_numbers_only(uint32_t instruction) {
    switch (instruction) {
    case OpenCLLIB::Fract: case OpenCLLIB::Frexp: case OpenCLLIB::Lgamma_r: case OpenCLLIB::Modf:
    case OpenCLLIB::Remquo: case OpenCLLIB::Sincos: return false;
    default:
      return instruction < OpenCLLIB::Vloadn || instruction > OpenCLLIB::Prefetch ||
             instruction == OpenCLLIB::Shuffle || instruction == OpenCLLIB::Shuffle2;
    }
  }

  // A composite constant is of a composite type, with one constituent of the right type per component.
  Status check_composite_constant(uint32_t at, std::span<const uint32_t> inst) const {
    if (inst.size() < 3) return {};
    uint32_t type = inst[1], kind = opcode_of(type), parts = uint32_t(inst.size() - 3);
    bool ok = true;
    if (kind == spv::OpTypeVector) {
      ok = parts == word_of(type, 3);
      for (uint32_t i = 0; ok && i < parts; ++i) ok = type_of(inst[3 + i]) == word_of(type, 2);
    } else if (kind == spv::OpTypeStruct) {
      ok = parts + 2 == (words_[find(type)->at] >> 16);
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

  // Built-in variables are read whole or through constant indices: the
  // translator turns those reads into calls and has no other pattern for them.
  Status check_builtin_uses() const {
    std::unordered_set<uint32_t> derived;
    for (const auto &builtin : builtins_) derived.insert(builtin.first);
    for (const Use &use : ids_.used) {
      if (!derived.contains(use.id) || role_of(use) == Role::Any) continue;
      const uint32_t *inst = words_.data() + use.at;
      uint32_t count = inst[0] >> 16;
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

  std::span<const uint32_t> words_;
  const IdCheck &ids_;
  std::unordered_map<uint32_t, std::string> entry_points_; // function -> entry point name
  std::unordered_map<uint32_t, uint32_t> builtins_; // variable -> BuiltIn
  std::unordered_map<uint32_t, uint32_t> builtin_names_; // id named __spirv_BuiltIn* -> where
  std::unordered_set<uint32_t> linked_;
  std::unordered_set<uint32_t> applied_groups_;
  uint32_t address_bits_ = 64;
  uint32_t opencl_std_ = 0; // the OpenCL.std instruction set's id, 0 when not imported
  std::vector<std::pair<uint32_t, uint32_t>> bodies_;
  std::unordered_set<uint32_t> forward_pointers_;
  uint32_t function_type_ = 0;
  uint32_t parameters_left_ = 0;
};

} // namespace

Status check_types(std::span<const uint32_t> words, const IdCheck &ids) { return TypeCheck(words, ids).run(); }

} // namespace zeal::cpu::detail
