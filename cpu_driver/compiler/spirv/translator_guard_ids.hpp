// What the SPIR-V checks share: opcode numbers and each id's definition and uses, as SPIRV-Tools' parser reports them.
#pragma once

#include "common/spirv_host_access.hpp"
#include "cpu_driver/compiler/spirv/translator_guard.hpp"

#include <spirv-tools/libspirv.h>

#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace zeal::cpu::detail {

constexpr uint32_t header_words = 5;

// Opcodes the checks look at (SPIR-V specification, section 3.52).
enum Opcode : uint32_t {
  OpSource = 3, OpName = 5, OpExtension = 10, OpMemberName = 6, OpLine = 8, OpExtInstImport = 11, OpExtInst = 12,
  OpMemoryModel = 14, OpEntryPoint = 15, OpExecutionMode = 16,
  OpTypeVoid = 19, OpTypeBool = 20, OpTypeInt = 21, OpTypeFloat = 22, OpTypeVector = 23, OpTypeImage = 25, OpTypeSampledImage = 27, OpTypeArray = 28,
  OpTypeRuntimeArray = 29, OpTypeStruct = 30, OpTypePointer = 32, OpTypeFunction = 33, OpTypeForwardPointer = 39,
  OpConstant = 43, OpConstantComposite = 44, OpSpecConstant = 50, OpSpecConstantComposite = 51, OpCopyMemory = 63, OpCopyMemorySized = 64,
  OpFunction = 54, OpFunctionParameter = 55, OpFunctionEnd = 56, OpFunctionCall = 57, OpVariable = 59,
  OpLoad = 61, OpStore = 62, OpAccessChain = 65, OpInBoundsAccessChain = 66, OpPtrAccessChain = 67,
  OpInBoundsPtrAccessChain = 70, OpDecorate = 71, OpMemberDecorate = 72, OpDecorationGroup = 73,
  OpGroupDecorate = 74, OpGroupMemberDecorate = 75, OpVectorExtractDynamic = 77, OpVectorInsertDynamic = 78,
  OpVectorShuffle = 79, OpCompositeConstruct = 80, OpCompositeExtract = 81, OpCompositeInsert = 82,
  OpSampledImage = 86, OpImageWrite = 99, OpImageQuerySamples = 107, OpConvertFToU = 109, OpConvertSToF = 111, OpUConvert = 113, OpFConvert = 115, OpConvertPtrToU = 117,
  OpSatConvertSToU = 118, OpConvertUToPtr = 120, OpPtrCastToGeneric = 121, OpBitcast = 124, OpSNegate = 126,
  OpFNegate = 127, OpNot = 200, OpVectorTimesScalar = 142, OpDot = 148, OpIAdd = 128, OpFMod = 141, OpIsNan = 156, OpLogicalEqual = 164,
  OpLogicalNot = 168, OpSelect = 169, OpIEqual = 170, OpSLessThanEqual = 179, OpFOrdEqual = 180,
  OpFUnordGreaterThanEqual = 191,
  OpShiftRightLogical = 194, OpShiftLeftLogical = 196, OpBitwiseAnd = 199,
  OpPhi = 245, OpLoopMerge = 246, OpSelectionMerge = 247, OpLabel = 248, OpBranch = 249,
  OpBranchConditional = 250, OpSwitch = 251, OpReturnValue = 254, OpUnreachable = 255,
  OpLifetimeStart = 256, OpLifetimeStop = 257,
  OpAtomicLoad = 227, OpAtomicStore = 228, OpAtomicIIncrement = 232, OpAtomicIDecrement = 233, OpAtomicXor = 242, OpAtomicFlagTestAndSet = 318, OpAtomicFlagClear = 319,
  OpTypePipeStorage = 322, OpTypeNamedBarrier = 327, OpAny = 154, OpAll = 155, OpGenericCastToPtr = 122,
  OpEnqueueMarker = 291, OpBuildNDRange = 304, OpMemoryNamedBarrier = 329, OpTypeOpaque = 31, OpTypePipe = 38,
  OpReadPipe = 274, OpGroupCommitWritePipe = 290, OpSizeOf = 321, OpBitReverse = 204, OpBitCount = 205, OpExecutionModeId = 331, OpDecorateId = 332,
  OpTerminateInvocation = 4416, OpDecorateString = 5632, OpMemberDecorateString = 5633,
};
enum Decoration : uint32_t { BuiltIn = 11, FuncParamAttr = 38, LinkageAttributes = 41, Alignment = 44 };

inline Error invalid_binary(std::string sentence) { return malformed_spirv(std::move(sentence)); }

// Ids as SPIRV-Tools' parser sees them: the translator asserts on an id used
// but never defined, or defined twice, so both are refused here.
struct Definition {
  uint32_t opcode;
  uint32_t type; // 0 for ids that are not values
  uint32_t at;   // word offset of the defining instruction
};

struct Use {
  uint32_t at;
  uint32_t id;
  uint16_t opcode;
  uint16_t word; // index of the operand inside its instruction
  spv_operand_type_t operand;
  bool any_kind; // debug and annotation operands may name anything
};

struct IdCheck {
  const uint32_t *base = nullptr;
  uint32_t bound = 0;
  std::unordered_map<uint32_t, Definition> defined;
  std::vector<Use> used;
  std::string problem;
};

// The checks of ids' kinds and types (translator_guard_types.cpp), on a module whose ids all resolve.
Status check_types(std::span<const uint32_t> words, const IdCheck &ids);

} // namespace zeal::cpu::detail
