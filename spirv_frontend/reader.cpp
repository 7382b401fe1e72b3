// Reading SPIR-V: LLVMSPIRVLib's translation to LLVM IR, after the binary passed check_translator_input.
#include "spirv_frontend/reader.hpp"
#include "spirv_frontend/translator_guard.hpp"

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <fmt/format.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <cstring>
#include <map>
#include <sstream>

namespace zeal::frontend {
namespace {

// Each constant's new value, read with the size its type has in the module.
void specialise(SPIRV::TranslatorOpts &opts, std::istringstream &stream, std::span<const SpecConstant> constants,
                std::string &log) {
  std::vector<llvm::SpecConstInfoTy> infos;
  llvm::getSpecConstInfo(stream, infos);
  stream.clear();
  stream.seekg(0);
  std::map<uint32_t, uint32_t> sizes(infos.begin(), infos.end());
  for (const SpecConstant &constant : constants) {
    auto size = sizes.find(constant.id);
    if (size == sizes.end() || size->second == 0 || size->second > 8) {
      log += fmt::format("specialization constant {} is not in the module; its value is ignored\n",
                         constant.id);
      continue;
    }
    uint64_t value = 0; // little-endian: the low bytes hold the value
    std::memcpy(&value, constant.value, size->second);
    opts.setSpecConst(constant.id, value);
  }
}

} // namespace

Result<std::unique_ptr<llvm::Module>> read_spirv(std::span<const uint8_t> spirv, llvm::LLVMContext &context) {
  std::string ignored;
  return read_spirv(spirv, context, {}, ignored);
}

Result<std::unique_ptr<llvm::Module>> read_spirv(std::span<const uint8_t> spirv, llvm::LLVMContext &context,
                                                 std::span<const SpecConstant> constants, std::string &log) {
  if (Status valid = check_translator_input(spirv); !valid) return std::move(valid).error();
  SPIRV::TranslatorOpts opts;
  opts.enableAllExtensions();
  opts.setDesiredBIsRepresentation(SPIRV::BIsRepresentation::OpenCL12);
  std::istringstream stream(std::string(reinterpret_cast<const char *>(spirv.data()), spirv.size()));
  if (!constants.empty()) specialise(opts, stream, constants, log);
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

} // namespace zeal::frontend
