// OpenCL's native_* functions on float as PTX's approximate instructions (sin.approx, ex2.approx, lg2.approx, ...):
// their precision is implementation-defined. libclc defines them with llvm.sin and friends, which NVPTX selects
// only under unsafe-fp-math and otherwise lowers to library calls PTX does not have.
#include "cuda_driver/compiler/internal.hpp"

#include <llvm/IR/IntrinsicsNVPTX.h>

#include <functional>
#include <map>
#include <numbers>

namespace zeal::cuda {

namespace {

namespace nvvm = llvm::Intrinsic;
using Scalar = std::function<llvm::Value *(llvm::IRBuilder<> &, llvm::ArrayRef<llvm::Value *>)>;

llvm::Value *approx(llvm::IRBuilder<> &b, nvvm::ID id, llvm::Value *x) { return call_intrinsic(b, id, {x}); }
llvm::Value *scaled(llvm::IRBuilder<> &b, llvm::Value *x, double factor) {
  return b.CreateFMul(x, llvm::ConstantFP::get(b.getFloatTy(), factor));
}
llvm::Value *divide(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y) {
  return call_intrinsic(b, nvvm::nvvm_div_approx_f, {x, y});
}

const std::map<std::string, Scalar> &native_bodies() {
  using Args = llvm::ArrayRef<llvm::Value *>;
  using B = llvm::IRBuilder<>;
  static const std::map<std::string, Scalar> bodies = {
      {"native_sin", [](B &b, Args x) { return approx(b, nvvm::nvvm_sin_approx_f, x[0]); }},
      {"native_cos", [](B &b, Args x) { return approx(b, nvvm::nvvm_cos_approx_f, x[0]); }},
      {"native_tan", [](B &b, Args x) {
         return divide(b, approx(b, nvvm::nvvm_sin_approx_f, x[0]), approx(b, nvvm::nvvm_cos_approx_f, x[0])); }},
      {"native_exp2", [](B &b, Args x) { return approx(b, nvvm::nvvm_ex2_approx_f, x[0]); }},
      {"native_exp", [](B &b, Args x) { return approx(b, nvvm::nvvm_ex2_approx_f, scaled(b, x[0], std::numbers::log2e)); }},
      {"native_exp10", [](B &b, Args x) {
         return approx(b, nvvm::nvvm_ex2_approx_f, scaled(b, x[0], std::numbers::ln10 * std::numbers::log2e)); }},
      {"native_log2", [](B &b, Args x) { return approx(b, nvvm::nvvm_lg2_approx_f, x[0]); }},
      {"native_log", [](B &b, Args x) { return scaled(b, approx(b, nvvm::nvvm_lg2_approx_f, x[0]), std::numbers::ln2); }},
      {"native_log10", [](B &b, Args x) {
         return scaled(b, approx(b, nvvm::nvvm_lg2_approx_f, x[0]), std::numbers::ln2 / std::numbers::ln10); }},
      {"native_sqrt", [](B &b, Args x) { return approx(b, nvvm::nvvm_sqrt_approx_f, x[0]); }},
      {"native_rsqrt", [](B &b, Args x) { return approx(b, nvvm::nvvm_rsqrt_approx_f, x[0]); }},
      {"native_recip", [](B &b, Args x) { return divide(b, llvm::ConstantFP::get(b.getFloatTy(), 1.0), x[0]); }},
      {"native_divide", [](B &b, Args x) { return divide(b, x[0], x[1]); }},
      {"native_powr", [](B &b, Args x) {
         llvm::Value *log = approx(b, nvvm::nvvm_lg2_approx_f, x[0]);
         return approx(b, nvvm::nvvm_ex2_approx_f, b.CreateFMul(x[1], log)); }},
  };
  return bodies;
}

bool float_or_float_vector(llvm::Type *type) {
  if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) type = vector->getElementType();
  return type->isFloatTy();
}

} // namespace

void define_native_math(llvm::Module &module) {
  for (llvm::Function &function : module) {
    if (!function.isDeclaration() || function.isIntrinsic()) continue;
    auto body = native_bodies().find(opencl_base_name(function.getName()).str());
    llvm::Type *type = function.getReturnType();
    if (body == native_bodies().end() || !float_or_float_vector(type) || function.arg_size() == 0) continue;
    llvm::IRBuilder<> b = begin_definition(function);
    auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
    unsigned lanes = vector != nullptr ? vector->getNumElements() : 1;
    llvm::Value *result = llvm::PoisonValue::get(type);
    for (unsigned lane = 0; lane < lanes; ++lane) {
      std::vector<llvm::Value *> args;
      for (llvm::Argument &arg : function.args()) args.push_back(vector != nullptr ? b.CreateExtractElement(&arg, lane) : &arg);
      llvm::Value *value = body->second(b, args);
      result = vector != nullptr ? b.CreateInsertElement(result, value, lane) : value;
    }
    b.CreateRet(result);
  }
}

} // namespace zeal::cuda
