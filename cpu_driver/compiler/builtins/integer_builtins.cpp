// OpenCL C integer built-ins (abs, add_sat, clz, mul_hi, rotate, upsample, ...) generated as IR bodies, scalar and vector alike.
#include "cpu_driver/compiler/host_runtime.hpp"

#include <llvm/ADT/StringMap.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

namespace zeal::cpu::detail {
namespace {

using Args = llvm::SmallVector<llvm::Value *, 3>;

// The operands of one built-in, splatted to the result's vector shape.
struct Call {
  llvm::IRBuilder<> &b;
  Args args;
  bool is_signed;
  llvm::Type *type; // of the result and, for all but upsample, of every operand

  llvm::Value *binary(llvm::Intrinsic::ID signed_id, llvm::Intrinsic::ID unsigned_id, llvm::Value *x, llvm::Value *y) {
    return b.CreateBinaryIntrinsic(is_signed ? signed_id : unsigned_id, x, y);
  }
  llvm::Value *min(llvm::Value *x, llvm::Value *y) { return binary(llvm::Intrinsic::smin, llvm::Intrinsic::umin, x, y); }
  llvm::Value *max(llvm::Value *x, llvm::Value *y) { return binary(llvm::Intrinsic::smax, llvm::Intrinsic::umax, x, y); }
  llvm::Value *shift_right(llvm::Value *x, unsigned n) {
    llvm::Value *amount = llvm::ConstantInt::get(type, n);
    return is_signed ? b.CreateAShr(x, amount) : b.CreateLShr(x, amount);
  }
  llvm::Value *one() { return llvm::ConstantInt::get(type, 1); }
  unsigned bits() const { return type->getScalarSizeInBits(); }
  llvm::Type *wide() const { return type->getWithNewBitWidth(2 * bits()); }
  llvm::Value *extend(llvm::Value *x, llvm::Type *to) { return is_signed ? b.CreateSExt(x, to) : b.CreateZExt(x, to); }
};

// The high half of the double-width product.
llvm::Value *mul_hi(Call &c, llvm::Value *x, llvm::Value *y) {
  llvm::Value *product = c.b.CreateMul(c.extend(x, c.wide()), c.extend(y, c.wide()));
  return c.b.CreateTrunc(c.b.CreateLShr(product, llvm::ConstantInt::get(c.wide(), c.bits())), c.type);
}

// a * b + c, saturated: computed at double width, where it cannot overflow
// except for 64-bit unsigned, whose sum is saturated separately.
llvm::Value *mad_sat(Call &c) {
  llvm::IRBuilder<> &b = c.b;
  llvm::Type *wide = c.wide();
  llvm::Value *product = b.CreateMul(c.extend(c.args[0], wide), c.extend(c.args[1], wide));
  llvm::Value *sum = c.binary(llvm::Intrinsic::sadd_sat, llvm::Intrinsic::uadd_sat, product, c.extend(c.args[2], wide));
  unsigned n = c.bits();
  llvm::APInt high = c.is_signed ? llvm::APInt::getSignedMaxValue(n) : llvm::APInt::getMaxValue(n);
  llvm::Value *clamped = c.min(sum, llvm::ConstantInt::get(wide, c.is_signed ? high.sext(2 * n) : high.zext(2 * n)));
  if (c.is_signed) clamped = c.max(clamped, llvm::ConstantInt::get(wide, llvm::APInt::getSignedMinValue(n).sext(2 * n)));
  return b.CreateTrunc(clamped, c.type);
}

bool is_integer_builtin(llvm::StringRef name, size_t arity) {
  static const llvm::StringMap<size_t> arities = {
      {"abs", 1},  {"abs_diff", 2}, {"add_sat", 2}, {"sub_sat", 2}, {"hadd", 2},   {"rhadd", 2},
      {"clz", 1},  {"ctz", 1},      {"popcount", 1}, {"mul24", 2},  {"mad24", 3},  {"mul_hi", 2},
      {"mad_hi", 3}, {"mad_sat", 3}, {"rotate", 2},  {"min", 2},    {"max", 2},    {"clamp", 3}};
  auto found = arities.find(name);
  return found != arities.end() && found->second == arity;
}

// Only called for names and arities is_integer_builtin accepts.
llvm::Value *integer_body(llvm::StringRef name, Call &c) {
  llvm::IRBuilder<> &b = c.b;
  Args &a = c.args;
  auto arity = [&](size_t n) { return a.size() == n; };
  if (name == "abs" && arity(1)) return c.is_signed ? b.CreateBinaryIntrinsic(llvm::Intrinsic::abs, a[0], b.getFalse()) : a[0];
  if (name == "abs_diff" && arity(2)) return b.CreateSub(c.max(a[0], a[1]), c.min(a[0], a[1]));
  if (name == "add_sat" && arity(2)) return c.binary(llvm::Intrinsic::sadd_sat, llvm::Intrinsic::uadd_sat, a[0], a[1]);
  if (name == "sub_sat" && arity(2)) return c.binary(llvm::Intrinsic::ssub_sat, llvm::Intrinsic::usub_sat, a[0], a[1]);
  if ((name == "hadd" || name == "rhadd") && arity(2)) {
    // Halve first so that the sum cannot overflow, then add back the lost low bits.
    llvm::Value *low = name == "hadd" ? b.CreateAnd(a[0], a[1]) : b.CreateOr(a[0], a[1]);
    return b.CreateAdd(b.CreateAdd(c.shift_right(a[0], 1), c.shift_right(a[1], 1)), b.CreateAnd(low, c.one()));
  }
  if (name == "clz" && arity(1)) return b.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, a[0], b.getFalse());
  if (name == "ctz" && arity(1)) return b.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, a[0], b.getFalse());
  if (name == "popcount" && arity(1)) return b.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, a[0]);
  if (name == "mul24" && arity(2)) return b.CreateMul(a[0], a[1]);
  if (name == "mad24" && arity(3)) return b.CreateAdd(b.CreateMul(a[0], a[1]), a[2]);
  if (name == "mul_hi" && arity(2)) return mul_hi(c, a[0], a[1]);
  if (name == "mad_hi" && arity(3)) return b.CreateAdd(mul_hi(c, a[0], a[1]), a[2]);
  if (name == "mad_sat" && arity(3)) return mad_sat(c);
  if (name == "rotate" && arity(2)) return b.CreateIntrinsic(llvm::Intrinsic::fshl, {c.type}, {a[0], a[0], a[1]});
  if (name == "min" && arity(2)) return c.min(a[0], a[1]);
  if (name == "max" && arity(2)) return c.max(a[0], a[1]);
  assert(name == "clamp" && arity(3));
  return c.min(c.max(a[0], a[1]), a[2]);
}

// upsample(hi, lo) = (hi << bits(lo)) | lo, at double width.
llvm::Value *upsample(llvm::IRBuilder<> &b, llvm::Function &function, bool is_signed) {
  llvm::Type *result = function.getReturnType();
  llvm::Value *hi = function.getArg(0), *lo = function.getArg(1);
  unsigned bits = lo->getType()->getScalarSizeInBits();
  llvm::Value *wide_hi = is_signed ? b.CreateSExt(hi, result) : b.CreateZExt(hi, result);
  return b.CreateOr(b.CreateShl(wide_hi, llvm::ConstantInt::get(result, bits)), b.CreateZExt(lo, result));
}

bool define_integer(llvm::Function &function) {
  llvm::StringRef name = opencl_base_name(function.getName());
  llvm::Type *type = function.getReturnType();
  if (!type->isIntOrIntVectorTy() || function.arg_size() == 0) return false;
  for (const llvm::Argument &arg : function.args()) {
    if (!arg.getType()->isIntOrIntVectorTy()) return false;
  }
  bool is_signed = is_signed_letter(mangled_param_letter(function.getName()));
  if (name == "upsample") {
    if (function.arg_size() != 2 || function.getArg(0)->getType()->getScalarSizeInBits() * 2 != type->getScalarSizeInBits()) {
      return false;
    }
    llvm::IRBuilder<> b = begin_builtin_body(function);
    b.CreateRet(upsample(b, function, is_signed));
    return true;
  }
  for (const llvm::Argument &arg : function.args()) {
    if (arg.getType()->getScalarType() != type->getScalarType()) return false;
  }
  if (!is_integer_builtin(name, function.arg_size())) return false;
  llvm::IRBuilder<> b = begin_builtin_body(function);
  Call call{b, {}, is_signed, type};
  for (llvm::Argument &arg : function.args()) call.args.push_back(splat_like(b, &arg, type));
  b.CreateRet(integer_body(name, call));
  return true;
}

} // namespace

void define_integer_builtins(llvm::Module &module) {
  for (llvm::Function *function : undefined_builtins(module)) define_integer(*function);
}

} // namespace zeal::cpu::detail
