// Intel extensions Triton's XPU back end emits that neither LLVMSPIRVLib 15 nor SPIRV-Tools 2023.1 knows, turned
// into what both read: their instructions become calls of functions the CPU driver defines, their hints go.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace zeal::frontend {

// - SPV_INTEL_2d_block_io: each OpSubgroup2DBlock{Load,LoadTransform,LoadTranspose,Prefetch,Store}INTEL becomes an
//   OpFunctionCall, with the same operands in the same order, of an imported `__zeal_2d_block_<op>_<n>` (one per
//   opcode and operand types), which workgroup/block_2d.cpp defines;
// - SPV_INTEL_subgroup_matrix_multiply_accumulate: each OpSubgroupMatrixMultiplyAccumulateINTEL becomes a call of an
//   imported `__zeal_matrix_mad_<kind>_<n>` taking Matrix A, B and C (the kind names the operand types the
//   instruction's K and operand flags give, matrix_call_kind below), which workgroup/subgroups.cpp defines as the
//   OpenCL built-ins of the same product;
// - SPV_INTEL_cache_controls: the cache-control decorations, hints, are dropped.
// The extensions and their capabilities are dropped. Empty when the module uses none of them.
std::vector<uint32_t> call_unknown_instructions(std::span<const uint32_t> words);

// Whether a function is one of the 2-D block imports.
bool is_block_2d_call(std::string_view name);

// The matrix product an imported `__zeal_matrix_mad_<kind>_<n>` stands for, by the OpenCL built-in's operand types
// ("bf16_bf16", "i8_u8", "tf32_tf32", ...); empty for another name.
std::string_view matrix_call_kind(std::string_view name);

} // namespace zeal::frontend
