// What a PTX module keeps visible: kernels (and, with library compilation, exported functions and variables); what
// stays declared must be an import of the SPIR-V module, kept as `.extern` for the runtime's cuLink.
#include "cuda_driver/compiler/internal.hpp"

#include <fmt/format.h>

namespace zeal::cuda {

namespace {

bool stays_visible(const llvm::GlobalValue &value, const std::set<std::string> &kernels,
                   const std::set<std::string> &exports, bool library_compilation) {
  std::string name = value.getName().str();
  return kernels.count(name) != 0 || (library_compilation && exports.count(name) != 0) ||
         value.hasAppendingLinkage() || value.getName().startswith("llvm.");
}

} // namespace

Status internalize_and_check(llvm::Module &module, const std::vector<PtxKernel> &kernels,
                             const std::set<std::string> &imports, const std::set<std::string> &exports,
                             bool library_compilation) {
  std::set<std::string> kernel_names;
  for (const PtxKernel &kernel : kernels) kernel_names.insert(kernel.name);
  for (llvm::GlobalValue &value : module.global_values()) {
    if (value.isDeclaration() || stays_visible(value, kernel_names, exports, library_compilation)) continue;
    value.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  std::vector<llvm::Function *> unused;
  for (llvm::Function &function : module) {
    if (!function.isDeclaration() || function.isIntrinsic() || imports.count(function.getName().str()) != 0) continue;
    if (function.use_empty()) {
      unused.push_back(&function);
      continue;
    }
    return build_failure(fmt::format("{}, which neither libclc nor the CUDA back end defines",
                                     who_calls(function, kernels)));
  }
  for (llvm::Function *function : unused) function->eraseFromParent();
  for (llvm::GlobalVariable &global : module.globals()) {
    if (!global.isDeclaration() || imports.count(global.getName().str()) != 0) continue;
    if (global.getName() == "__zeal_dynamic_shared") continue;
    return build_failure(fmt::format("the module uses the variable '{}', which no module defines",
                                     global.getName().str()));
  }
  return {};
}

} // namespace zeal::cuda
