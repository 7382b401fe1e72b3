// Helpers the built-in generators share: reading OpenCL mangled names and turning declarations into definitions.
#include "cpu_driver/compiler/host_runtime.hpp"

#include <llvm/IR/Attributes.h>

namespace zeal::cpu::detail {

llvm::StringRef mangled_param_letter(llvm::StringRef mangled, unsigned index) {
  llvm::StringRef base = opencl_base_name(mangled);
  if (base == mangled) return {};
  llvm::StringRef rest = mangled.substr(base.end() - mangled.begin());
  for (unsigned skipped = 0;; ++skipped) {
    // Pointers, cv- and address-space qualifiers and vectors wrap the element type.
    while (!rest.empty()) {
      if (rest.consume_front("P") || rest.consume_front("V") || rest.consume_front("K") || rest.consume_front("r")) {
        continue;
      }
      size_t length = 0;
      if (rest.consume_front("U")) {
        if (rest.consumeInteger(10, length) || length > rest.size()) return {};
        rest = rest.drop_front(length);
        continue;
      }
      if (rest.consume_front("Dv")) {
        if (rest.consumeInteger(10, length) || !rest.consume_front("_")) return {};
        continue;
      }
      break;
    }
    llvm::StringRef letter = rest.startswith("Dh") ? rest.take_front(2) : rest.take_front(1);
    // Substitutions (S_) after the first parameter are not resolved: callers
    // only ask for later parameters that are builtin types.
    if (skipped == index || letter.empty() || letter == "S") return skipped == index ? letter : llvm::StringRef();
    rest = rest.drop_front(letter.size());
  }
}

bool is_signed_letter(llvm::StringRef letter) {
  // OpenCL's char is signed.
  return letter == "c" || letter == "a" || letter == "s" || letter == "i" || letter == "l";
}

llvm::IRBuilder<> start_body(llvm::Function &function) {
  function.setLinkage(llvm::GlobalValue::InternalLinkage);
  function.removeFnAttr(llvm::Attribute::NoInline);
  function.removeFnAttr(llvm::Attribute::OptimizeNone);
  // The translator's memory attributes describe the OpenCL built-in, not
  // what this body does; -O2 infers them again from the body.
  for (auto kind : {llvm::Attribute::ReadNone, llvm::Attribute::ReadOnly, llvm::Attribute::WriteOnly,
                    llvm::Attribute::ArgMemOnly}) {
    function.removeFnAttr(kind);
  }
  function.addFnAttr(llvm::Attribute::AlwaysInline);
  function.addFnAttr(llvm::Attribute::NoUnwind);
  return llvm::IRBuilder<>(llvm::BasicBlock::Create(function.getContext(), "entry", &function));
}

llvm::Value *splat_like(llvm::IRBuilder<> &b, llvm::Value *value, llvm::Type *like) {
  auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(like);
  if (vector == nullptr || value->getType()->isVectorTy()) return value;
  return b.CreateVectorSplat(unsigned(vector->getNumElements()), value);
}

llvm::SmallVector<llvm::Function *, 16> undefined_builtins(llvm::Module &module) {
  llvm::SmallVector<llvm::Function *, 16> functions;
  for (llvm::Function &function : module) {
    if (function.isDeclaration() && !function.isIntrinsic() && !function.use_empty() &&
        function.getName().startswith("_Z")) {
      functions.push_back(&function);
    }
  }
  return functions;
}

} // namespace zeal::cpu::detail
