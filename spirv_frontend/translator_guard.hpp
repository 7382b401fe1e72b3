// The guard in front of LLVMSPIRVLib: refuses SPIR-V the translator would assert or crash on.
#pragma once

#include "spirv_frontend/errors.hpp"

#include <cstdint>
#include <span>

namespace zeal::frontend {

// Checks what LLVMSPIRVLib trusts without checking (its asserts abort the
// process): header, word counts, function and block structure, entry points,
// ids (each defined once, every used id defined), and ids' kinds and types
// where the translator casts (translator_guard_types.cpp). Each refusal names the word
// offset and opcode of the instruction at fault. Costs ~10 us for a 1-kernel
// module, ~25x less than SPIRV-Tools' full validator.
// Not SPIR-V at all, or ids that do not resolve -> ZE_RESULT_ERROR_INVALID_ARGUMENT;
// a version above 1.4 or an extension the translator lacks -> ZE_RESULT_ERROR_MODULE_BUILD_FAILURE.
Status check_translator_input(std::span<const uint8_t> spirv);

} // namespace zeal::frontend
