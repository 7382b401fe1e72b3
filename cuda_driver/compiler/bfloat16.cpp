// cl_intel_bfloat16_conversions, which Triton's XPU back end calls: float ↔ bfloat16 held in a ushort, by bits (a
// bfloat16 is a float's upper half), rounding to nearest even and keeping NaNs quiet, lane by lane for vectors.
#include "cuda_driver/compiler/internal.hpp"

#include <llvm/IR/Constants.h>

namespace zeal::cuda {

namespace {

llvm::Value *to_bfloat16(llvm::IRBuilder<> &b, llvm::Value *value) {
  llvm::Value *bits = b.CreateBitCast(value, b.getInt32Ty());
  llvm::Value *odd = b.CreateAnd(b.CreateLShr(bits, 16), 1);
  llvm::Value *rounded = b.CreateLShr(b.CreateAdd(bits, b.CreateAdd(odd, b.getInt32(0x7fff))), 16);
  llvm::Value *quiet_nan = b.CreateOr(b.CreateLShr(bits, 16), 0x40);
  llvm::Value *result = b.CreateSelect(b.CreateFCmpUNO(value, value), quiet_nan, rounded);
  return b.CreateTrunc(result, b.getInt16Ty());
}

llvm::Value *from_bfloat16(llvm::IRBuilder<> &b, llvm::Value *value) {
  return b.CreateBitCast(b.CreateShl(b.CreateZExt(value, b.getInt32Ty()), 16), b.getFloatTy());
}

} // namespace

void define_bfloat16_conversions(llvm::Module &module) {
  for (llvm::Function &function : module) {
    if (!function.isDeclaration() || function.arg_size() != 1) continue;
    llvm::StringRef base = opencl_base_name(function.getName());
    bool narrow = base.startswith("intel_convert_bfloat16") && base.contains("_as_ushort");
    bool widen = base.startswith("intel_convert_as_bfloat16") && base.contains("_float");
    if (!narrow && !widen) continue;
    llvm::Type *type = function.getReturnType();
    llvm::Type *element = type->getScalarType();
    if (narrow ? !element->isIntegerTy(16) : !element->isFloatTy()) continue;
    llvm::IRBuilder<> b = begin_definition(function);
    auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
    llvm::Value *input = function.getArg(0);
    llvm::Value *result = llvm::PoisonValue::get(type);
    for (unsigned lane = 0; lane < (vector != nullptr ? vector->getNumElements() : 1); ++lane) {
      llvm::Value *in = vector != nullptr ? b.CreateExtractElement(input, lane) : input;
      llvm::Value *out = narrow ? to_bfloat16(b, in) : from_bfloat16(b, in);
      result = vector != nullptr ? b.CreateInsertElement(result, out, lane) : out;
    }
    b.CreateRet(result);
  }
}

} // namespace zeal::cuda
