// SPIR-V newer than SPIRV-Tools 2023.1 (Debian 12) knows, seen through what it does know: one home for the
// driver's translator guard and module_linker's introspection, which both parse with it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace zeal::spirv {

// SPV_INTEL_bfloat16_conversion (numbers from the extension's specification): Triton and oneCCL emit it, and
// LLVMSPIRVLib 15 reads it, but SPIRV-Tools 2023.1 cannot parse it.
inline constexpr uint32_t capability_bfloat16_conversion = 6115;
inline constexpr uint32_t op_convert_f_to_bf16 = 6116, op_convert_bf16_to_f = 6117;

// SPV_INTEL_2d_block_io (Triton's XPU back end): its capabilities and its five instructions (load, load
// transform, load transpose, prefetch, store), none of which has a result.
inline constexpr uint32_t capability_2d_block_io = 6228, capability_2d_block_transform = 6229,
                          capability_2d_block_transpose = 6230;
inline constexpr uint32_t op_2d_block_load = 6231, op_2d_block_load_transform = 6232,
                          op_2d_block_load_transpose = 6233, op_2d_block_prefetch = 6234, op_2d_block_store = 6235;
// SPV_INTEL_subgroup_matrix_multiply_accumulate (a result: its type, id, K, Matrix A, B, C, optional flags) and
// SPV_INTEL_cache_controls (decorations, hints).
inline constexpr uint32_t capability_matrix_mad = 6236, op_matrix_mad = 6237;
inline constexpr uint32_t capability_cache_controls = 6441, decoration_cache_load = 6442, decoration_cache_store = 6443;

// The words SPIRV-Tools parses in place of `words`: the bfloat16 conversions stand in as the conversions of
// the same shape (float to 16-bit integer and back), their capability as two OpNops, the 2-D block
// instructions, the cache-control decorations and their capabilities as one OpNop a word, a matrix product as a
// copy of its Matrix A (its type may differ: SPIRV-Tools' parser does not check), so every other word, and
// every offset a message names, stays where it is. Empty when the module uses none of them (parse `words`).
std::vector<uint32_t> spirv_tools_view(std::span<const uint32_t> words);

// A capability by name and extension where a newer specification gives one ("Subgroup2DBlockIOINTEL
// (SPV_INTEL_2d_block_io), capability 6228"), else "capability N".
std::string capability_name(uint32_t capability);

// The capability SPIRV-Tools' parser refused, if its message is about one that could exist (below 65536).
std::optional<uint32_t> unknown_capability(const std::string &message);

} // namespace zeal::spirv
