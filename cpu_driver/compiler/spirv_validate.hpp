// The compiler's LLVM-free helpers: build errors and structural validation of a SPIR-V binary.
#pragma once

#include "common/result.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace zeal::cpu::detail {

// A build failure: `log` is the whole sentence, also used as the message.
Error build_failure(std::string log, zeal_result_t code = ZEAL_RESULT_ERROR_BUILD_FAILURE);

// Checks what LLVMSPIRVLib trusts without checking (its asserts abort the
// process): header, word counts, function and block structure, entry points,
// ids (each defined once, every used id defined), and ids' kinds and types
// where the translator casts (spirv_types.cpp). Each refusal names the word
// offset and opcode of the instruction at fault. Costs ~10 us for a 1-kernel
// module, ~25x less than SPIRV-Tools' full validator.
// Not SPIR-V at all -> INVALID_BINARY; a version above 1.4 -> BUILD_FAILURE.
Status validate_spirv(std::span<const uint8_t> spirv);

// The names a module shares through SPIR-V LinkageAttributes.
struct SpirvLinkage {
  std::vector<std::string> imports; // Import; built-ins (`__spirv_*` names, BuiltIn variables) excluded
  std::vector<std::string> exports; // Export; entry points (kernels) excluded
  // HostAccessINTEL names of variables exported under another name: host name, exported name.
  std::vector<std::pair<std::string, std::string>> host_aliases;
};
// Reads them from a binary that passed validate_spirv.
SpirvLinkage scan_linkage(std::span<const uint8_t> spirv);

} // namespace zeal::cpu::detail
