// Reading SPIR-V into LLVM IR with LLVMSPIRVLib 15, after the translator guard: the last step of the front end.
#pragma once

#include "spirv_frontend/errors.hpp"
#include "spirv_frontend/spec_constant.hpp"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace zeal::frontend {

// The module in LLVM IR, once check_translator_input accepted it; a translator failure or invalid IR is a build
// failure with the translator's words.
Result<std::unique_ptr<llvm::Module>> read_spirv(std::span<const uint8_t> spirv, llvm::LLVMContext &context);
// The same with specialisation constants applied; ids the module does not have are noted in `log` and ignored, as
// Intel's compiler does.
Result<std::unique_ptr<llvm::Module>> read_spirv(std::span<const uint8_t> spirv, llvm::LLVMContext &context,
                                                 std::span<const SpecConstant> constants, std::string &log);

} // namespace zeal::frontend
