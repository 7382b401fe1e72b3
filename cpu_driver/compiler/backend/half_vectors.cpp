// Work-arounds for what LLVM 15's x86 back end cannot generate for vectors of half.
#include "cpu_driver/compiler/internal.hpp"

#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>

namespace zeal::cpu::detail {

// Instruction selection aborts the process on minnum, maxnum, minimum and
// maximum of half vectors (fmin, fmax, clamp on half4 ...). The lowering
// computes them in float, but InstCombine narrows fptrunc(minnum(fpext a,
// fpext b)) back to half, and the vectorisers may form them from scalars: so
// they are widened again after optimisation. Widening is exact for these.
void widen_half_vector_min_max(llvm::Module &module) {
  for (llvm::Function &function : module) {
    for (llvm::Instruction &inst : llvm::make_early_inc_range(llvm::instructions(function))) {
      auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst);
      if (call == nullptr || !call->getType()->isVectorTy() || !call->getType()->getScalarType()->isHalfTy()) continue;
      llvm::Intrinsic::ID id = call->getIntrinsicID();
      if (id != llvm::Intrinsic::minnum && id != llvm::Intrinsic::maxnum && id != llvm::Intrinsic::minimum &&
          id != llvm::Intrinsic::maximum) {
        continue;
      }
      llvm::IRBuilder<> b(call);
      llvm::Type *wide = call->getType()->getWithNewType(b.getFloatTy());
      llvm::Value *x = b.CreateFPExt(call->getArgOperand(0), wide), *y = b.CreateFPExt(call->getArgOperand(1), wide);
      llvm::Value *result = b.CreateFPTrunc(b.CreateBinaryIntrinsic(id, x, y), call->getType());
      result->takeName(call);
      call->replaceAllUsesWith(result);
      call->eraseFromParent();
    }
  }
}

} // namespace zeal::cpu::detail
