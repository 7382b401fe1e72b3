// Functions of a driver's library (spirv/imports.cpp: is_driver_library_name) the CUDA back end provides itself:
// DPC++'s __devicelib_assert_fail ends the kernel with PTX's `trap`, as a failed CUDA assert does (the launch fails
// and the context reports it). Other names of a driver's library stay imports.
#include "cuda_driver/compiler/internal.hpp"

namespace zeal::cuda {

void define_device_library(llvm::Module &module) {
  llvm::Function *assert_fail = module.getFunction("__devicelib_assert_fail");
  if (assert_fail == nullptr || !assert_fail->isDeclaration() || !assert_fail->getReturnType()->isVoidTy()) return;
  llvm::IRBuilder<> b = begin_definition(*assert_fail);
  b.CreateIntrinsic(llvm::Intrinsic::trap, {}, {});
  b.CreateUnreachable();
}

} // namespace zeal::cuda
