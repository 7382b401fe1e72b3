// OpenCL math built-ins on half, scalar and vector: computed by their float (fma: double) forms and rounded to half.
#include "cpu_driver/compiler/host_runtime.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <string>
#include <utility>

namespace zeal::cpu::detail {
namespace {

// The type a pointer parameter points to (typed pointers: the translator needs them).
llvm::Type *pointee(llvm::Type *type) {
  auto *pointer = llvm::dyn_cast<llvm::PointerType>(type);
  return pointer && !pointer->isOpaque() ? pointer->getNonOpaquePointerElementType() : nullptr;
}

bool has_half(llvm::Type *type) {
  if (llvm::Type *element = pointee(type)) type = element;
  return type->getScalarType()->isHalfTy();
}

// `type` with its half elements, behind a pointer too, made `wide`.
llvm::Type *widened(llvm::Type *type, llvm::Type *wide) {
  if (llvm::Type *element = pointee(type)) {
    return llvm::PointerType::get(widened(element, wide), type->getPointerAddressSpace());
  }
  return type->getScalarType()->isHalfTy() ? type->getWithNewType(wide) : type;
}

// The mangled name of the same built-in on `letter` ("f", "d") instead of half
// ("Dh"); substitutions keep their meaning, as the shape is unchanged.
std::string widened_name(llvm::StringRef mangled, llvm::StringRef base, llvm::StringRef letter) {
  size_t params = size_t(base.end() - mangled.begin());
  std::string name = mangled.take_front(params).str();
  llvm::StringRef rest = mangled.drop_front(params);
  for (size_t at = rest.find("Dh"); at != llvm::StringRef::npos; at = rest.find("Dh")) {
    name += rest.take_front(at).str() + letter.str();
    rest = rest.drop_front(at + 2);
  }
  return name + rest.str();
}

// A float result that rounds to half may reach 1.0, which fract must stay below.
llvm::Value *narrow_result(llvm::IRBuilder<> &b, llvm::StringRef base, llvm::Value *value, llvm::Type *type) {
  llvm::Value *narrow = b.CreateFPTrunc(value, type);
  if (base != "fract") return narrow;
  llvm::Value *below_one = llvm::ConstantFP::get(type, 0x1.ffcp-1);
  return b.CreateSelect(b.CreateFCmpOGE(narrow, llvm::ConstantFP::get(type, 1.0)), below_one, narrow);
}

// half arguments widen exactly; a pointer to half gets a wide temporary whose
// value is rounded and stored through it after the call.
void define_widened(llvm::Function &function, llvm::StringRef base) {
  // fma must round once: a double holds a*b+c of halves exactly whenever the result is finite in half.
  bool to_double = base == "fma";
  llvm::Type *wide = to_double ? llvm::Type::getDoubleTy(function.getContext()) : llvm::Type::getFloatTy(function.getContext());
  llvm::SmallVector<llvm::Type *, 3> params;
  for (llvm::Argument &arg : function.args()) params.push_back(widened(arg.getType(), wide));
  auto *type = llvm::FunctionType::get(widened(function.getReturnType(), wide), params, false);
  llvm::FunctionCallee callee = function.getParent()->getOrInsertFunction(
      widened_name(function.getName(), base, to_double ? "d" : "f"), type);
  llvm::IRBuilder<> b = begin_builtin_body(function);
  llvm::SmallVector<llvm::Value *, 3> args;
  llvm::SmallVector<std::pair<llvm::AllocaInst *, llvm::Argument *>, 1> outputs;
  for (llvm::Argument &arg : function.args()) {
    llvm::Type *param = params[arg.getArgNo()];
    if (!has_half(arg.getType())) {
      args.push_back(&arg);
    } else if (llvm::Type *element = pointee(param)) {
      llvm::AllocaInst *slot = b.CreateAlloca(element);
      outputs.emplace_back(slot, &arg);
      args.push_back(b.CreatePointerBitCastOrAddrSpaceCast(slot, param));
    } else {
      args.push_back(b.CreateFPExt(&arg, param));
    }
  }
  llvm::Value *result = b.CreateCall(callee, args);
  for (auto [slot, arg] : outputs) {
    llvm::Value *value = b.CreateLoad(slot->getAllocatedType(), slot);
    b.CreateStore(b.CreateFPTrunc(value, pointee(arg->getType())), arg);
  }
  llvm::Type *result_type = function.getReturnType();
  if (result_type->isVoidTy()) b.CreateRetVoid();
  else b.CreateRet(has_half(result_type) ? narrow_result(b, base, result, result_type) : result);
}

// nextafter steps to the neighbouring half, which a float computation would not
// see: the bits of x move by one towards y; from ±0 to the smallest value of y's sign.
void define_nextafter(llvm::Function &function) {
  llvm::IRBuilder<> b = begin_builtin_body(function);
  llvm::Value *x = function.getArg(0), *y = function.getArg(1);
  llvm::Type *type = x->getType();
  llvm::Type *bits_type = type->getWithNewType(b.getInt16Ty());
  auto constant = [&](uint64_t v) { return llvm::ConstantInt::get(bits_type, v); };
  llvm::Value *bits = b.CreateBitCast(x, bits_type);
  llvm::Value *zero = llvm::ConstantFP::get(type, 0.0);
  llvm::Value *away = b.CreateICmpEQ(b.CreateFCmpOLT(x, y), b.CreateFCmpOGT(x, zero)); // |x| grows
  llvm::Value *stepped = b.CreateSelect(away, b.CreateAdd(bits, constant(1)), b.CreateSub(bits, constant(1)));
  llvm::Value *sign_of_y = b.CreateAnd(b.CreateBitCast(y, bits_type), constant(0x8000));
  stepped = b.CreateSelect(b.CreateFCmpOEQ(x, zero), b.CreateOr(sign_of_y, constant(1)), stepped);
  llvm::Value *result = b.CreateBitCast(stepped, type);
  result = b.CreateSelect(b.CreateFCmpOEQ(x, y), y, result);
  b.CreateRet(b.CreateSelect(b.CreateFCmpUNO(x, y), b.CreateFAdd(x, y), result)); // NaN in, NaN out
}

// nan(ushort) builds its half directly (define_libm_builtins), with no half operand to widen.
bool widens(const llvm::Function &function, llvm::StringRef base) {
  if (base == "nan" || !is_math_builtin(base)) return false;
  bool any = has_half(function.getReturnType());
  for (const llvm::Argument &arg : function.args()) any = any || has_half(arg.getType());
  return any;
}

} // namespace

void define_half_math_builtins(llvm::Module &module) {
  for (llvm::Function *function : undefined_builtins(module)) {
    llvm::StringRef base = opencl_base_name(function->getName());
    if (!widens(*function, base)) continue;
    bool same_types = function->arg_size() == 2 && function->getArg(0)->getType() == function->getReturnType() &&
                      function->getArg(1)->getType() == function->getReturnType();
    if (base == "nextafter" && same_types) define_nextafter(*function);
    else define_widened(*function, base);
  }
}

} // namespace zeal::cpu::detail
