// The module takes NVPTX's conventions: its triple and data layout, the C calling convention (kernels are marked by
// nvvm.annotations), and libclc's address-space numbers in mangled built-in names.
#include "cuda_driver/compiler/internal.hpp"

#include <llvm/IR/Instructions.h>

namespace zeal::cuda {

namespace {

// SPIR mangles constant pointers as AS2 and generic ones as AS4; after the mapping a constant pointer is a global one
// (libclc's PU3AS1) and a generic one is plain (libclc's P).
std::string nvptx_mangling(llvm::StringRef name) {
  std::string renamed = name.str();
  for (auto [from, to] : {std::pair<std::string, std::string>{"PU3AS4", "P"}, {"PU3AS2", "PU3AS1"}}) {
    for (size_t at = renamed.find(from); at != std::string::npos; at = renamed.find(from, at + to.size())) {
      renamed.replace(at, from.size(), to);
    }
  }
  return renamed;
}

void rename_builtins(llvm::Module &module, const std::set<std::string> &imports) {
  std::vector<llvm::Function *> declarations;
  for (llvm::Function &function : module) {
    if (function.isDeclaration() && !function.isIntrinsic() && imports.count(function.getName().str()) == 0 &&
        function.getName().startswith("_Z")) {
      declarations.push_back(&function);
    }
  }
  for (llvm::Function *function : declarations) {
    std::string wanted = nvptx_mangling(function->getName());
    if (wanted == function->getName()) continue;
    llvm::Function *existing = module.getFunction(wanted);
    if (existing == nullptr) {
      function->setName(wanted);
    } else if (existing->getFunctionType() == function->getFunctionType()) {
      function->replaceAllUsesWith(existing);
      function->eraseFromParent();
    }
  }
}

} // namespace

void adopt_nvptx_conventions(llvm::Module &module, const llvm::DataLayout &layout, llvm::StringRef triple,
                             const std::set<std::string> &imports) {
  module.setTargetTriple(triple);
  module.setDataLayout(layout);
  for (llvm::Function &function : module) {
    function.setCallingConv(llvm::CallingConv::C);
    for (llvm::BasicBlock &block : function) {
      for (llvm::Instruction &instruction : block) {
        if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction)) call->setCallingConv(llvm::CallingConv::C);
      }
    }
  }
  rename_builtins(module, imports);
}

} // namespace zeal::cuda
