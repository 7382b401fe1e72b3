// Kinds of SPIR-V instructions, by opcode, that the driver's rewrites and translator guard both ask about.
#pragma once

#include <spirv/unified1/spirv.hpp>

#include <cstdint>

namespace zeal::spirv {

inline bool is_type_opcode(uint32_t opcode) {
  return (opcode >= spv::OpTypeVoid && opcode <= spv::OpTypeForwardPointer) || opcode == spv::OpTypePipeStorage ||
         opcode == spv::OpTypeNamedBarrier;
}

// Types and constants: they belong outside functions, where the translator reads them.
inline bool is_module_level(uint32_t opcode) {
  return is_type_opcode(opcode) || (opcode >= spv::OpConstantTrue && opcode <= spv::OpSpecConstantOp);
}

} // namespace zeal::spirv
