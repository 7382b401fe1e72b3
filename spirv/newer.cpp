// SPIR-V newer than SPIRV-Tools 2023.1, seen through what it knows (newer.hpp).
#include "spirv/newer.hpp"

#include "spirv/words.hpp"

#include <fmt/format.h>
#include <spirv/unified1/spirv.hpp>

#include <cstdlib>
#include <string_view>
#include <unordered_map>

namespace zeal::spirv {

std::vector<uint32_t> spirv_tools_view(std::span<const uint32_t> words) {
  std::vector<uint32_t> view;
  for (const Instruction &i : instructions(words)) {
    if (i.cut) break; // the parser that follows says how the module is cut
    const uint32_t c = i.opcode == spv::OpCapability && i.count == 2 ? i.words[1] : 0;
    const bool capability = c == capability_bfloat16_conversion || c == capability_matrix_mad ||
                            c == capability_cache_controls ||
                            (c >= capability_2d_block_io && c <= capability_2d_block_transpose);
    const bool no_result = (i.opcode >= op_2d_block_load && i.opcode <= op_2d_block_store) ||
                           (i.opcode == spv::OpDecorate && i.count >= 3 &&
                            (i.words[2] == decoration_cache_load || i.words[2] == decoration_cache_store));
    const bool matrix = i.opcode == op_matrix_mad && i.count >= 7;
    if (capability || no_result || matrix || i.opcode == op_convert_f_to_bf16 || i.opcode == op_convert_bf16_to_f) {
      if (view.empty()) view.assign(words.begin(), words.end());
      if (capability || no_result) { // nothing refers to them: each word an OpNop
        for (uint32_t k = 0; k < i.count; ++k) view[i.at + k] = (1u << 16) | spv::OpNop;
      } else if (matrix) { // its result, as a copy of Matrix A's value, then OpNops
        view[i.at] = (4u << 16) | spv::OpCopyObject;
        view[i.at + 3] = i.words[4];
        for (uint32_t k = 4; k < i.count; ++k) view[i.at + k] = (1u << 16) | spv::OpNop;
      } else {
        view[i.at] = (i.count << 16) | (i.opcode == op_convert_f_to_bf16 ? spv::OpConvertFToU : spv::OpConvertUToF);
      }
    }
  }
  return view;
}

std::string capability_name(uint32_t capability) {
  static const std::unordered_map<uint32_t, const char *> names = {
      {6114, "DebugInfoModuleINTEL (SPV_INTEL_debug_module)"},
      {6115, "BFloat16ConversionINTEL (SPV_INTEL_bfloat16_conversion)"},
      {6141, "SplitBarrierINTEL (SPV_INTEL_split_barrier)"},
      {6144, "ArithmeticFenceEXT (SPV_EXT_arithmetic_fence)"},
      {6169, "FPMaxErrorINTEL (SPV_INTEL_fp_max_error)"},
      {6187, "GlobalVariableHostAccessINTEL (SPV_INTEL_global_variable_host_access)"},
      {6189, "GlobalVariableFPGADecorationsINTEL (SPV_INTEL_global_variable_fpga_decorations)"},
      {6220, "SubgroupBufferPrefetchINTEL (SPV_INTEL_subgroup_buffer_prefetch)"},
      {6228, "Subgroup2DBlockIOINTEL (SPV_INTEL_2d_block_io)"},
      {6229, "Subgroup2DBlockTransformINTEL (SPV_INTEL_2d_block_io)"},
      {6230, "Subgroup2DBlockTransposeINTEL (SPV_INTEL_2d_block_io)"},
      {6236, "SubgroupMatrixMultiplyAccumulateINTEL (SPV_INTEL_subgroup_matrix_multiply_accumulate)"},
      {6400, "GroupUniformArithmeticKHR (SPV_KHR_uniform_group_instructions)"},
      {6425, "TensorFloat32RoundingINTEL (SPV_INTEL_tensor_float32_rounding)"},
      {6427, "MaskedGatherScatterINTEL (SPV_INTEL_masked_gather_scatter)"},
      {6441, "CacheControlsINTEL (SPV_INTEL_cache_controls)"},
      {6460, "RegisterLimitsINTEL (SPV_INTEL_maximum_registers)"},
  };
  auto found = names.find(capability);
  return found != names.end() ? fmt::format("{}, capability {}", found->second, capability)
                              : fmt::format("capability {}", capability);
}

std::optional<uint32_t> unknown_capability(const std::string &message) {
  constexpr std::string_view unknown = "Invalid capability operand: ";
  size_t at = message.find(unknown);
  if (at == std::string::npos) return std::nullopt;
  unsigned long capability = std::strtoul(message.c_str() + at + unknown.size(), nullptr, 10);
  // Enumerants are 16-bit in practice; a larger number is a corrupt word, not a feature.
  if (capability > 0xffff) return std::nullopt;
  return uint32_t(capability);
}

} // namespace zeal::spirv
