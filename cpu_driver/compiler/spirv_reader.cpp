// Reading SPIR-V: LLVMSPIRVLib's translation to LLVM IR, after the binary passed validate_spirv.
#include "cpu_driver/compiler/internal.hpp"

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <fmt/format.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <sstream>

namespace zeal::cpu::detail {

Result<std::unique_ptr<llvm::Module>> read_spirv(std::span<const uint8_t> spirv, llvm::LLVMContext &context) {
  if (Status valid = validate_spirv(spirv); !valid) return std::move(valid).error();
  SPIRV::TranslatorOpts opts;
  opts.enableAllExtensions();
  opts.setDesiredBIsRepresentation(SPIRV::BIsRepresentation::OpenCL12);
  std::istringstream stream(std::string(reinterpret_cast<const char *>(spirv.data()), spirv.size()));
  llvm::Module *raw = nullptr;
  std::string message;
  bool ok = llvm::readSpirv(context, opts, stream, raw, message);
  std::unique_ptr<llvm::Module> module(raw);
  if (!ok || !module) {
    return build_failure(fmt::format("the SPIR-V translator rejected the module: {}",
                                     message.empty() ? std::string("no reason given") : message));
  }
  std::string problems;
  llvm::raw_string_ostream out(problems);
  if (llvm::verifyModule(*module, &out)) {
    return build_failure(fmt::format("the SPIR-V translator produced invalid LLVM IR: {}", out.str()));
  }
  return module;
}

} // namespace zeal::cpu::detail
