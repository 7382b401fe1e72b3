// OpenCL math built-ins lowered onto LLVM intrinsics, and the C library functions JIT'd code may call.
#include "cpu_driver/compiler/internal.hpp"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>

#include <cstring>
#include <math.h>
#include <optional>

namespace zeal::cpu::detail {
namespace {

struct Lowering {
  llvm::Intrinsic::ID intrinsic;
  unsigned arity;
};

// native_* and half_* may be less precise than the plain form, so the plain
// form is a correct implementation of them.
std::optional<Lowering> math_lowering(llvm::StringRef name) {
  using namespace llvm;
  return StringSwitch<std::optional<Lowering>>(name)
      .Cases("sqrt", "native_sqrt", "half_sqrt", Lowering{Intrinsic::sqrt, 1})
      .Case("fabs", Lowering{Intrinsic::fabs, 1})
      .Case("floor", Lowering{Intrinsic::floor, 1})
      .Case("ceil", Lowering{Intrinsic::ceil, 1})
      .Case("trunc", Lowering{Intrinsic::trunc, 1})
      .Case("round", Lowering{Intrinsic::round, 1})
      .Case("rint", Lowering{Intrinsic::rint, 1})
      .Case("fma", Lowering{Intrinsic::fma, 3})
      .Case("mad", Lowering{Intrinsic::fmuladd, 3})
      .Case("fmin", Lowering{Intrinsic::minnum, 2})
      .Case("fmax", Lowering{Intrinsic::maxnum, 2})
      .Case("copysign", Lowering{Intrinsic::copysign, 2})
      .Cases("exp", "native_exp", "half_exp", Lowering{Intrinsic::exp, 1})
      .Cases("exp2", "native_exp2", "half_exp2", Lowering{Intrinsic::exp2, 1})
      .Cases("log", "native_log", "half_log", Lowering{Intrinsic::log, 1})
      .Cases("log2", "native_log2", "half_log2", Lowering{Intrinsic::log2, 1})
      .Cases("log10", "native_log10", "half_log10", Lowering{Intrinsic::log10, 1})
      .Cases("sin", "native_sin", "half_sin", Lowering{Intrinsic::sin, 1})
      .Cases("cos", "native_cos", "half_cos", Lowering{Intrinsic::cos, 1})
      .Cases("pow", "powr", "native_powr", "half_powr", Lowering{Intrinsic::pow, 2})
      .Default(std::nullopt);
}

bool is_float_or_double(llvm::Type *type) {
  llvm::Type *element = type->getScalarType();
  return element->isFloatTy() || element->isDoubleTy();
}

// Only the forms whose operands all have the result's type (fmin(float4, float)
// does not) map onto one intrinsic call.
std::optional<Lowering> lowering_for(const llvm::Function &function) {
  if (!function.isDeclaration() || !function.getName().startswith("_Z")) return std::nullopt;
  std::optional<Lowering> lowering = math_lowering(opencl_base_name(function.getName()));
  llvm::Type *result = function.getReturnType();
  if (!lowering || !is_float_or_double(result) || function.arg_size() != lowering->arity) return std::nullopt;
  for (const llvm::Argument &arg : function.args()) {
    if (arg.getType() != result) return std::nullopt;
  }
  return lowering;
}

template <class F>
void *address(F *function) {
  return reinterpret_cast<void *>(function);
}

using F1 = float(float);
using D1 = double(double);
using F2 = float(float, float);
using D2 = double(double, double);
using F3 = float(float, float, float);
using D3 = double(double, double, double);

} // namespace

void lower_math_builtins(llvm::Module &module) {
  for (llvm::Function &function : llvm::make_early_inc_range(module)) {
    std::optional<Lowering> lowering = lowering_for(function);
    if (!lowering) continue;
    for (llvm::User *user : llvm::make_early_inc_range(function.users())) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(user);
      if (call == nullptr || call->getCalledOperand() != &function) continue;
      llvm::IRBuilder<> builder(call);
      llvm::SmallVector<llvm::Value *, 3> args(call->args());
      llvm::Value *value = builder.CreateIntrinsic(lowering->intrinsic, {call->getType()}, args);
      value->takeName(call);
      call->replaceAllUsesWith(value);
      call->eraseFromParent();
    }
    if (function.use_empty()) function.eraseFromParent();
  }
}

// What the x86-64 back end turns intrinsics and large copies into.
std::span<const RuntimeSymbol> runtime_symbols() {
  static const RuntimeSymbol symbols[] = {
      {"memcpy", address(&::memcpy)},   {"memmove", address(&::memmove)}, {"memset", address(&::memset)},
      {"sqrtf", address<F1>(&::sqrtf)}, {"sqrt", address<D1>(&::sqrt)},   {"fabsf", address<F1>(&::fabsf)},
      {"fabs", address<D1>(&::fabs)},   {"floorf", address<F1>(&::floorf)}, {"floor", address<D1>(&::floor)},
      {"ceilf", address<F1>(&::ceilf)}, {"ceil", address<D1>(&::ceil)},   {"truncf", address<F1>(&::truncf)},
      {"trunc", address<D1>(&::trunc)}, {"roundf", address<F1>(&::roundf)}, {"round", address<D1>(&::round)},
      {"rintf", address<F1>(&::rintf)}, {"rint", address<D1>(&::rint)},   {"fmaf", address<F3>(&::fmaf)},
      {"fma", address<D3>(&::fma)},     {"fminf", address<F2>(&::fminf)}, {"fmin", address<D2>(&::fmin)},
      {"fmaxf", address<F2>(&::fmaxf)}, {"fmax", address<D2>(&::fmax)},   {"copysignf", address<F2>(&::copysignf)},
      {"copysign", address<D2>(&::copysign)}, {"expf", address<F1>(&::expf)}, {"exp", address<D1>(&::exp)},
      {"exp2f", address<F1>(&::exp2f)}, {"exp2", address<D1>(&::exp2)},   {"logf", address<F1>(&::logf)},
      {"log", address<D1>(&::log)},     {"log2f", address<F1>(&::log2f)}, {"log2", address<D1>(&::log2)},
      {"log10f", address<F1>(&::log10f)}, {"log10", address<D1>(&::log10)}, {"sinf", address<F1>(&::sinf)},
      {"sin", address<D1>(&::sin)},     {"cosf", address<F1>(&::cosf)},   {"cos", address<D1>(&::cos)},
      {"powf", address<F2>(&::powf)},   {"pow", address<D2>(&::pow)},
      {"sincosf", address<void(float, float *, float *)>(&::sincosf)},
      {"sincos", address<void(double, double *, double *)>(&::sincos)},
  };
  return symbols;
}

} // namespace zeal::cpu::detail
