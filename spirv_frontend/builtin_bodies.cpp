// The built-in generators' shared helpers (builtin_bodies.hpp).
#include "spirv_frontend/builtin_bodies.hpp"

#include <llvm/IR/Function.h>

namespace zeal::frontend {

llvm::StringRef opencl_base_name(llvm::StringRef mangled) {
  llvm::StringRef rest = mangled;
  size_t length = 0;
  if (!rest.consume_front("_Z") || rest.consumeInteger(10, length) || length == 0 || length > rest.size())
    return mangled;
  return rest.take_front(length);
}

llvm::IRBuilder<> begin_builtin_body(llvm::Function &function) {
  function.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (auto kind : {llvm::Attribute::NoInline, llvm::Attribute::OptimizeNone, llvm::Attribute::ReadNone,
                    llvm::Attribute::ReadOnly, llvm::Attribute::WriteOnly, llvm::Attribute::ArgMemOnly}) {
    function.removeFnAttr(kind);
  }
  function.addFnAttr(llvm::Attribute::AlwaysInline);
  function.addFnAttr(llvm::Attribute::NoUnwind);
  return llvm::IRBuilder<>(llvm::BasicBlock::Create(function.getContext(), "entry", &function));
}

} // namespace zeal::frontend
