// The check of ids' kinds and types that guards LLVMSPIRVLib (check_translator_input, second half): the
// TypeCheck class and the tables its two files share (translator_guard_types.cpp: instructions and their
// operands; translator_guard_declarations.cpp: names, decorations, built-ins, extended instructions, constants).
#pragma once

#include "spirv_frontend/translator_guard_ids.hpp"
#include "spirv/opcodes.hpp"

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace zeal::frontend {

// The memory semantics bits that order (at most one may be set), and those that name storage or visibility.
inline const uint32_t ordering_semantics = spv::MemorySemanticsAcquireMask | spv::MemorySemanticsReleaseMask |
                                    spv::MemorySemanticsAcquireReleaseMask |
                                    spv::MemorySemanticsSequentiallyConsistentMask;
inline const uint32_t storage_semantics =
    spv::MemorySemanticsUniformMemoryMask | spv::MemorySemanticsSubgroupMemoryMask |
    spv::MemorySemanticsWorkgroupMemoryMask | spv::MemorySemanticsCrossWorkgroupMemoryMask |
    spv::MemorySemanticsAtomicCounterMemoryMask | spv::MemorySemanticsImageMemoryMask |
    spv::MemorySemanticsOutputMemoryMask | spv::MemorySemanticsMakeAvailableMask |
    spv::MemorySemanticsMakeVisibleMask | spv::MemorySemanticsVolatileMask;

// The storage classes the translator maps to address spaces (Private is not one of them).
inline bool is_kernel_storage_class(uint32_t storage) {
  return storage == spv::StorageClassUniformConstant || storage == spv::StorageClassInput ||
         storage == spv::StorageClassWorkgroup || storage == spv::StorageClassCrossWorkgroup ||
         storage == spv::StorageClassFunction || storage == spv::StorageClassGeneric;
}

// The built-in variables of OpenCL kernels; the translator has no name for the others.
inline bool is_kernel_builtin(uint32_t builtin) {
  // The number after GlobalLinearId is unassigned.
  return (builtin >= spv::BuiltInNumWorkgroups && builtin <= spv::BuiltInSubgroupLocalInvocationId &&
          builtin != spv::BuiltInGlobalLinearId + 1) ||
         (builtin >= spv::BuiltInSubgroupEqMask && builtin <= spv::BuiltInSubgroupLtMask);
}

// Instructions SPIRV-Tools parses but LLVMSPIRVLib 15 has no reader for
// (mostly shader-only ones; it exits the process on them), and the matrix
// ones but OpDot, whose types OpenCL kernels cannot declare.
inline bool is_unimplemented(uint32_t opcode) {
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
inline bool is_pipe(uint32_t opcode) {
  return opcode == spv::OpTypePipe || (opcode >= spv::OpReadPipe && opcode <= spv::OpGroupCommitWritePipe);
}

// Device-side enqueue (OpEnqueueMarker to OpBuildNDRange): the translator
// mistypes some of it, and this driver has no device queue to enqueue on.
inline bool is_device_enqueue(uint32_t opcode) { return opcode >= spv::OpEnqueueMarker && opcode <= spv::OpBuildNDRange; }

// The kind of id each operand must name, where the translator casts without
// looking (a value's type, a block, a callee): a wrong kind is a bad cast there.
enum class Role { Any, Type, Value, Label, Function, FunctionType, ExtInstSet, Constant, DecorationGroup };

inline Role role_of(const Use &use) {
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
  default: return spirv::is_type_opcode(use.opcode) ? Role::Type : Role::Value;
  }
}

inline const char *role_name(Role role) {
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

  Status run();

private:
  const Definition *find(uint32_t id) const;
  uint32_t opcode_of(uint32_t id) const;
  uint32_t type_of(uint32_t id) const;
  // The words of the instruction defining `id`, or none when nothing defines it.
  std::span<const uint32_t> definition(uint32_t id) const;
  // Word `index` of the instruction defining `id`, or 0 past its end.
  uint32_t word_of(uint32_t id, uint32_t index) const;
  uint32_t pointee(uint32_t type) const { return opcode_of(type) == spv::OpTypePointer ? word_of(type, 3) : 0; }
  // The scalar type of a scalar or vector type.
  uint32_t component(uint32_t type) const { return opcode_of(type) == spv::OpTypeVector ? word_of(type, 2) : type; }

  bool has_role(uint32_t id, Role role) const;

  Status check_role(const Use &use) const;

  // Word ranges [OpFunction, OpFunctionEnd] in module order.
  void find_function_bodies();
  // The body holding word `at`, or -1 outside functions.
  ptrdiff_t body_of(uint32_t at) const;

  // A function's values are used inside it, after their definition (dominance
  // in block order) except by phis: the translator resolves anything else to
  // a placeholder it then dereferences.
  Status check_scope(const Use &use) const;

  // Scopes and memory orders are read as enumerants: one the translator has no name for is a failed lookup.
  Status check_constant_value(const Use &use) const;

  Error wrong(uint32_t at, std::span<const uint32_t> inst, std::string_view what) const;

  // One instruction: what no family allows (unimplemented, device enqueue, pipes, types inside functions), then
  // the checker of its opcode's family (translator_guard_types.cpp: family_of), so that a new quirk of a
  // producer lands in the small checker of its family.
  Status check(uint32_t at, std::span<const uint32_t> inst);

  // The families: integer, float, vector, image and pointer types; the module's declarations, debug names and
  // decorations; variables, functions, parameters and calls; loads, stores, access chains, copies, lifetimes
  // and atomics; composites; selects, branches and phis; conversions and arithmetic; comparisons and tests;
  // group operations; image operands.
  Status check_type_declaration(uint32_t at, std::span<const uint32_t> inst) const;
  Status check_image_type(uint32_t at, std::span<const uint32_t> inst) const;
  Status check_module_info(uint32_t at, std::span<const uint32_t> inst);
  Status check_function_part(uint32_t at, std::span<const uint32_t> inst);
  Status check_memory_access(uint32_t at, std::span<const uint32_t> inst) const;
  Status check_lifetime(uint32_t at, std::span<const uint32_t> inst) const;
  Status check_composite_part(uint32_t at, std::span<const uint32_t> inst) const;
  Status check_control_flow(uint32_t at, std::span<const uint32_t> inst) const;
  Status check_arithmetic(uint32_t at, std::span<const uint32_t> inst) const;
  Status check_logic(uint32_t at, std::span<const uint32_t> inst) const;
  // Group operations run over a work-group or sub-group; non-uniform ones over a sub-group only.
  Status check_group(uint32_t at, std::span<const uint32_t> inst) const;
  Status check_image_operand(uint32_t at, std::span<const uint32_t> inst) const;

  Status check_vector_type(uint32_t at, std::span<const uint32_t> inst) const;

  Status check_variable(uint32_t at, std::span<const uint32_t> inst) const;

  // A function's result type and parameters are those of its OpTypeFunction.
  Status check_function(uint32_t at, std::span<const uint32_t> inst);

  Status check_parameter(uint32_t at, std::span<const uint32_t> inst);

  Status check_call(uint32_t at, std::span<const uint32_t> inst) const;

  bool is_member(uint32_t type, uint32_t member) const;

  Status check_composite(uint32_t at, std::span<const uint32_t> inst, size_t operand) const;

  // Both operands and the result share one integer (or, for arithmetic, floating-point) type.
  Status check_binary(uint32_t at, std::span<const uint32_t> inst, bool bitwise) const;

  // What each conversion converts from and to: int, float or pointer, with as many lanes on both sides.
  Status check_conversion(uint32_t at, std::span<const uint32_t> inst) const;

  // Atomics act through a pointer to their value's type.
  Status check_atomic(uint32_t at, std::span<const uint32_t> inst) const;

  bool is_boolean(uint32_t type) const { return opcode_of(component(type)) == spv::OpTypeBool; }

  // Tests and comparisons (OpIsNan to OpFUnordGreaterThanEqual) yield booleans from operands of one type,
  // integers for the integer comparisons, floating-point numbers for the others, booleans for the logical ones.
  Status check_compare(uint32_t at, std::span<const uint32_t> inst) const;

  // The indices walk the base's pointee type: struct members by constants in
  // range, arrays and vectors by any integer; the result points at where they end.
  Status check_access_chain(uint32_t at, std::span<const uint32_t> inst, bool element_first) const;

  // The translator builds an LLVM comparison, which asserts its operands have one type and gives a bool (or
  // a vector of as many bools).
  Status check_comparison(uint32_t at, std::span<const uint32_t> inst) const;

  // The translator treats names like decorations: attached to forward references.
  Status check_name_target(uint32_t at, std::span<const uint32_t> inst);

  // SPV_INTEL_bfloat16_conversion's instructions (parsed as OpConvertFToU / OpConvertUToF): the translator
  // exits the process unless the bfloat16 side is 16-bit integers and the other 32-bit floats, lane for lane.
  Status check_bfloat16_conversions() const;

  // The translator also takes a variable named __spirv_BuiltIn* for a built-in (and reaches its
  // llvm_unreachable on a use it has no pattern for), so such a name must come with the decoration.
  void note_builtin_name(uint32_t at, uint32_t target, std::span<const uint32_t> name);
  Status check_builtin_names() const;

  // Decorations name ids defined after them (the translator attaches them to
  // forward references) and carry values the translator has a meaning for.
  Status check_decoration(uint32_t at, std::span<const uint32_t> inst);

  // The translator reads OpenCL's built-in variables as the types the SPIR-V
  // environment gives them: size_t 3-vectors for the ids and sizes, size_t for
  // the linear ids, 32-bit integers for the others (4-vectors for the masks).
  Status check_builtin_type(uint32_t at, std::span<const uint32_t> inst) const;

  // OpenCL.std instructions whose operands the translator dereferences by
  // type: printf's format is a byte pointer and its result an int.
  Status check_ext_inst(uint32_t at, std::span<const uint32_t> inst) const;

  // The OpenCL.std instructions that take or return no pointers: all but fract, frexp,
  // lgamma_r, modf, remquo, sincos, the vector loads and stores, printf and prefetch.
  static bool takes_numbers_only(uint32_t instruction);

  // A composite constant is of a composite type, with one constituent of the right type per component.
  Status check_composite_constant(uint32_t at, std::span<const uint32_t> inst) const;

  // Built-in variables are read whole or through constant indices: the
  // translator turns those reads into calls and has no other pattern for them.
  Status check_builtin_uses() const;

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
  bool vector_any_ = false; // capability VectorAnyINTEL (SPV_INTEL_vector_compute): vectors of any length
  uint32_t function_type_ = 0;
  uint32_t parameters_left_ = 0;
};

} // namespace zeal::frontend
