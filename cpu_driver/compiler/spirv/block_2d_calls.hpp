// SPV_INTEL_2d_block_io (2-D block loads, stores and prefetches of a tile with a pitch, as Triton's XPU back end
// emits them), which neither LLVMSPIRVLib 15 nor SPIRV-Tools 2023.1 knows, turned into what both read.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace zeal::cpu::detail {

// Each OpSubgroup2DBlock{Load,LoadTransform,LoadTranspose,Prefetch,Store}INTEL becomes an OpFunctionCall, with the
// same operands in the same order, of a function the module then imports, `__zeal_2d_block_<op>_<n>` (one per
// opcode and operand types), which the CPU driver defines (workgroup/block_2d.cpp); the extension and its
// capabilities are dropped. Empty when the module uses none of it.
std::vector<uint32_t> call_block_2d_io(std::span<const uint32_t> words);

// Whether a function is one of those imports.
bool is_block_2d_call(std::string_view name);

} // namespace zeal::cpu::detail
