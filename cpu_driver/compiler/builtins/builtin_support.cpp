// Helpers the built-in generators share: reading OpenCL mangled names and turning declarations into definitions.
#include "cpu_driver/compiler/host_runtime.hpp"

#include <llvm/IR/Attributes.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

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

llvm::Value *splat_like(llvm::IRBuilder<> &b, llvm::Value *value, llvm::Type *like) {
  auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(like);
  if (vector == nullptr || value->getType()->isVectorTy()) return value;
  return b.CreateVectorSplat(unsigned(vector->getNumElements()), value);
}

// Stepping on the bits moves a float to its neighbour: +1 away from zero, -1
// towards it, and across zero from -0 to the smallest positive (and back).
llvm::Value *round_directed(llvm::IRBuilder<> &b, llvm::Value *nearest, llvm::Value *above, llvm::Value *below,
                            llvm::StringRef mode) {
  llvm::Type *type = nearest->getType();
  unsigned width = type->getScalarSizeInBits();
  llvm::Type *bits_type = type->getWithNewType(llvm::IntegerType::get(type->getContext(), width));
  auto constant = [&](const llvm::APInt &v) { return llvm::ConstantInt::get(bits_type, v); };
  llvm::APInt sign = llvm::APInt::getSignMask(width), one(width, 1);
  llvm::Value *bits = b.CreateBitCast(nearest, bits_type);
  llvm::Value *negative = b.CreateICmpSLT(bits, llvm::Constant::getNullValue(bits_type));
  llvm::Value *plus = b.CreateAdd(bits, constant(one)), *minus = b.CreateSub(bits, constant(one));
  llvm::Value *fixed = bits;
  if (mode == "_rtz") {
    // Only a value whose magnitude grew moves, and it is not zero.
    fixed = b.CreateSelect(b.CreateSelect(negative, below, above), minus, bits);
  } else if (mode == "_rtp") {
    llvm::Value *up = b.CreateSelect(negative, b.CreateSelect(b.CreateICmpEQ(bits, constant(sign)), constant(one), minus), plus);
    fixed = b.CreateSelect(below, up, bits);
  } else if (mode == "_rtn") {
    llvm::Value *down = b.CreateSelect(
        negative, plus, b.CreateSelect(b.CreateICmpEQ(bits, constant(llvm::APInt(width, 0))), constant(sign | one), minus));
    fixed = b.CreateSelect(above, down, bits);
  }
  return b.CreateBitCast(fixed, type);
}

// fptrunc rounds to nearest even; widened back its result compares exactly
// with the source, which tells the directed modes where it went the wrong way.
// NaN compares false and stays as it is.
llvm::Value *fp_truncate(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Type *type, llvm::StringRef mode) {
  llvm::Value *nearest = b.CreateFPTrunc(x, type);
  if (mode.empty() || mode == "_rte") return nearest;
  llvm::Value *back = b.CreateFPExt(nearest, x->getType());
  return round_directed(b, nearest, b.CreateFCmpOGT(back, x), b.CreateFCmpOLT(back, x), mode);
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
