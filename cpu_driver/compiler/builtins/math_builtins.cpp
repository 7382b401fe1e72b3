// OpenCL math built-ins lowered onto LLVM intrinsics, and the C library functions JIT'd code may call.
#include "cpu_driver/compiler/builtins/image_sampling.hpp"
#include "cpu_driver/compiler/host_runtime.hpp"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/Support/Host.h>

#include <dlfcn.h>

#include <cstring>
#include <math.h>
#include <deque>
#include <optional>
#include <string>
#include <vector>

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
      .Case("pow", Lowering{Intrinsic::pow, 2})
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


// A math function the C library (or math_helpers.cpp) has in scalar form.
// `shape` gives the return type then each parameter: f the floating-point
// type, i int, I int*, F a pointer to the floating-point type.
struct Scalar {
  const char *shape, *float_symbol, *double_symbol;
};

std::optional<Scalar> scalar_function(llvm::StringRef name) {
  name.consume_front("native_"); // native_* and half_* may be less precise
  name.consume_front("half_");
  return llvm::StringSwitch<std::optional<Scalar>>(name)
      .Case("acos", Scalar{"ff", "acosf", "acos"}).Case("acosh", Scalar{"ff", "acoshf", "acosh"})
      .Case("asin", Scalar{"ff", "asinf", "asin"}).Case("asinh", Scalar{"ff", "asinhf", "asinh"})
      .Case("atan", Scalar{"ff", "atanf", "atan"}).Case("atanh", Scalar{"ff", "atanhf", "atanh"})
      .Case("atan2", Scalar{"fff", "atan2f", "atan2"}).Case("cbrt", Scalar{"ff", "cbrtf", "cbrt"})
      .Case("cosh", Scalar{"ff", "coshf", "cosh"}).Case("sinh", Scalar{"ff", "sinhf", "sinh"})
      .Case("tan", Scalar{"ff", "tanf", "tan"}).Case("tanh", Scalar{"ff", "tanhf", "tanh"})
      .Case("erf", Scalar{"ff", "erff", "erf"}).Case("erfc", Scalar{"ff", "erfcf", "erfc"})
      .Case("exp10", Scalar{"ff", "exp10f", "exp10"}).Case("expm1", Scalar{"ff", "expm1f", "expm1"})
      .Case("log1p", Scalar{"ff", "log1pf", "log1p"}).Case("logb", Scalar{"ff", "logbf", "logb"})
      .Case("lgamma", Scalar{"ff", "lgammaf", "lgamma"}).Case("tgamma", Scalar{"ff", "tgammaf", "tgamma"})
      .Case("fdim", Scalar{"fff", "fdimf", "fdim"}).Case("fmod", Scalar{"fff", "fmodf", "fmod"})
      .Case("hypot", Scalar{"fff", "hypotf", "hypot"}).Case("nextafter", Scalar{"fff", "nextafterf", "nextafter"})
      .Case("remainder", Scalar{"fff", "remainderf", "remainder"}).Case("ldexp", Scalar{"ffi", "ldexpf", "ldexp"})
      .Case("ilogb", Scalar{"if", "ilogbf", "ilogb"}).Case("frexp", Scalar{"ffI", "frexpf", "frexp"})
      .Case("modf", Scalar{"ffF", "modff", "modf"}).Case("remquo", Scalar{"fffI", "remquof", "remquo"})
      .Case("lgamma_r", Scalar{"ffI", "lgammaf_r", "lgamma_r"}).Case("fract", Scalar{"ffF", "zeal_fractf", "zeal_fract"})
      .Case("sinpi", Scalar{"ff", "zeal_sinpif", "zeal_sinpi"}).Case("cospi", Scalar{"ff", "zeal_cospif", "zeal_cospi"})
      .Case("tanpi", Scalar{"ff", "zeal_tanpif", "zeal_tanpi"}).Case("acospi", Scalar{"ff", "zeal_acospif", "zeal_acospi"})
      .Case("asinpi", Scalar{"ff", "zeal_asinpif", "zeal_asinpi"}).Case("atanpi", Scalar{"ff", "zeal_atanpif", "zeal_atanpi"})
      .Case("atan2pi", Scalar{"fff", "zeal_atan2pif", "zeal_atan2pi"}).Case("pown", Scalar{"ffi", "zeal_pownf", "zeal_pown"})
      .Case("rootn", Scalar{"ffi", "zeal_rootnf", "zeal_rootn"}).Case("maxmag", Scalar{"fff", "zeal_maxmagf", "zeal_maxmag"})
      .Case("minmag", Scalar{"fff", "zeal_minmagf", "zeal_minmag"})
      .Case("sincos", Scalar{"ffF", "zeal_sincosf", "zeal_sincos"})
      .Default(std::nullopt);
}

// The scalar C type `letter` of `shape` stands for, with `real` the floating-point type.
llvm::Type *shape_type(char letter, llvm::Type *real) {
  llvm::LLVMContext &context = real->getContext();
  switch (letter) {
  case 'f': return real;
  case 'i': return llvm::Type::getInt32Ty(context);
  case 'I': return llvm::PointerType::get(llvm::Type::getInt32Ty(context), 0);
  default: return llvm::PointerType::get(real, 0);
  }
}

unsigned lanes_of(llvm::Type *type) {
  auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
  return vector ? unsigned(vector->getNumElements()) : 1;
}

// The floating-point element type the built-in is about, when its IR types fit `shape`.
llvm::Type *real_type(const llvm::Function &function, const Scalar &scalar) {
  llvm::StringRef shape(scalar.shape);
  if (function.arg_size() + 1 != shape.size()) return nullptr;
  llvm::Type *real = (shape[0] == 'f' ? function.getReturnType() : function.getArg(0)->getType())->getScalarType();
  if (!real->isFloatTy() && !real->isDoubleTy()) return nullptr;
  unsigned lanes = lanes_of(function.getReturnType());
  for (unsigned i = 0; i < function.arg_size(); ++i) {
    llvm::Type *type = function.getArg(i)->getType();
    if (type->isPointerTy() != (shape[i + 1] == 'I' || shape[i + 1] == 'F')) return nullptr;
    if (type->isPointerTy()) continue;
    if (type->getScalarType() != shape_type(shape[i + 1], real)) return nullptr;
    if (type->isVectorTy() && lanes_of(type) != lanes) return nullptr; // scalar ints (ldexp(float4, int)) are shared
  }
  return real;
}

// Calls the scalar function once per lane; vector built-ins of functions
// without an LLVM intrinsic do not vectorise anyway.
void define_scalarised(llvm::Function &function, const Scalar &scalar, llvm::Type *real) {
  llvm::Module &module = *function.getParent();
  llvm::StringRef shape(scalar.shape);
  llvm::SmallVector<llvm::Type *, 3> params;
  for (char letter : shape.drop_front()) params.push_back(shape_type(letter, real));
  auto *type = llvm::FunctionType::get(shape_type(shape[0], real), params, false);
  llvm::FunctionCallee callee =
      module.getOrInsertFunction(real->isFloatTy() ? scalar.float_symbol : scalar.double_symbol, type);
  llvm::IRBuilder<> b = begin_builtin_body(function);
  llvm::Type *result_type = function.getReturnType();
  unsigned lanes = lanes_of(result_type);
  llvm::Value *result = llvm::UndefValue::get(result_type);
  for (unsigned lane = 0; lane < lanes; ++lane) {
    llvm::SmallVector<llvm::Value *, 3> args;
    for (unsigned i = 0; i < function.arg_size(); ++i) {
      llvm::Value *arg = function.getArg(i);
      if (arg->getType()->isPointerTy()) {
        llvm::Type *element = shape_type(shape[i + 1] == 'I' ? 'i' : 'f', real);
        llvm::Value *typed = b.CreatePointerBitCastOrAddrSpaceCast(arg, llvm::PointerType::get(element, 0));
        args.push_back(b.CreateConstInBoundsGEP1_64(element, typed, lane));
      } else {
        args.push_back(arg->getType()->isVectorTy() ? b.CreateExtractElement(arg, uint64_t(lane)) : arg);
      }
    }
    llvm::Value *value = b.CreateCall(callee, args);
    result = lanes == 1 ? value : b.CreateInsertElement(result, value, uint64_t(lane));
  }
  b.CreateRet(result);
}

// powr(x, y) = exp2(y * log2(x)) for x >= 0: pow of |x| (so that -0 acts as
// +0), and NaN where the OpenCL C spec says so and pow would not: x < 0,
// (±0, ±0), (+inf, ±0), (1, ±inf), and any NaN operand (pow(1, NaN) is 1).
llvm::Value *powr(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y) {
  llvm::Type *type = x->getType();
  auto constant = [&](double v) { return llvm::ConstantFP::get(type, v); };
  llvm::Value *y_zero = b.CreateFCmpOEQ(y, constant(0.0));
  llvm::Value *nan = b.CreateOr(b.CreateFCmpUNO(x, y), b.CreateFCmpOLT(x, constant(0.0)));
  nan = b.CreateOr(nan, b.CreateAnd(b.CreateFCmpOEQ(x, constant(0.0)), y_zero));
  nan = b.CreateOr(nan, b.CreateAnd(b.CreateFCmpOEQ(x, constant(INFINITY)), y_zero));
  llvm::Value *y_infinite = b.CreateFCmpOEQ(b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, y), constant(INFINITY));
  nan = b.CreateOr(nan, b.CreateAnd(b.CreateFCmpOEQ(x, constant(1.0)), y_infinite));
  llvm::Value *pow = b.CreateBinaryIntrinsic(llvm::Intrinsic::pow, b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x), y);
  return b.CreateSelect(nan, constant(NAN), pow);
}

// Built-ins that are a line of IR: divisions, reciprocals, rsqrt, nan, powr.
bool define_simple_math(llvm::Function &function) {
  llvm::StringRef name = opencl_base_name(function.getName());
  name.consume_front("native_");
  name.consume_front("half_");
  llvm::Type *type = function.getReturnType();
  if (!type->isFPOrFPVectorTy()) return false;
  unsigned arity = function.arg_size();
  bool same = llvm::all_of(function.args(), [&](const llvm::Argument &arg) { return arg.getType() == type; });
  if (name == "nan" && arity == 1 && function.getArg(0)->getType()->isIntOrIntVectorTy(type->getScalarSizeInBits())) {
    llvm::IRBuilder<> b = begin_builtin_body(function);
    llvm::Type *bits = function.getArg(0)->getType();
    llvm::APInt quiet = llvm::APFloat::getQNaN(type->getScalarType()->getFltSemantics()).bitcastToAPInt();
    llvm::Value *payload = b.CreateAnd(function.getArg(0), llvm::ConstantInt::get(bits, ~quiet));
    b.CreateRet(b.CreateBitCast(b.CreateOr(payload, llvm::ConstantInt::get(bits, quiet)), type));
    return true;
  }
  if (!same) return false;
  if (name == "powr" && arity == 2) {
    llvm::IRBuilder<> b = begin_builtin_body(function);
    b.CreateRet(powr(b, function.getArg(0), function.getArg(1)));
    return true;
  }
  llvm::Value *one = llvm::ConstantFP::get(type, 1.0);
  if ((name == "divide" && arity == 2) || (name == "recip" && arity == 1) || (name == "rsqrt" && arity == 1)) {
    llvm::IRBuilder<> b = begin_builtin_body(function);
    llvm::Value *x = function.getArg(0);
    if (name == "divide") b.CreateRet(b.CreateFDiv(x, function.getArg(1)));
    else if (name == "recip") b.CreateRet(b.CreateFDiv(one, x));
    else b.CreateRet(b.CreateFDiv(one, b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x)));
    return true;
  }
  return false;
}

} // namespace

bool is_math_builtin(llvm::StringRef name) {
  if (math_lowering(name) || scalar_function(name)) return true;
  name.consume_front("native_");
  name.consume_front("half_");
  return math_lowering(name) || name == "nan" || name == "powr" || name == "divide" || name == "recip" || name == "rsqrt";
}

void define_libm_builtins(llvm::Module &module) {
  for (llvm::Function *function : undefined_builtins(module)) {
    if (define_simple_math(*function)) continue;
    std::optional<Scalar> scalar = scalar_function(opencl_base_name(function->getName()));
    llvm::Type *real = scalar ? real_type(*function, *scalar) : nullptr;
    if (real != nullptr) define_scalarised(*function, *scalar, real);
  }
}

void lower_math_builtins(llvm::Module &module) {
  // First, so that the float and double declarations they call are lowered below.
  define_half_math_builtins(module);
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
  define_atomic_builtins(module);
  define_integer_builtins(module);
  define_vector_builtins(module);
  define_libm_builtins(module);
  define_conversion_builtins(module);
  frontend::define_image_builtins(module, {.read = image_read_symbol, .write = image_write_symbol});
  lower_printf(module);
}

namespace {

// What the x86-64 back end turns intrinsics and large copies into.
std::span<const RuntimeSymbol> c_library_symbols() {
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

struct VectorMath {
  std::vector<VectorMathFunction> functions;
  std::vector<RuntimeSymbol> symbols;
};

// libmvec's functions are within OpenCL's limits for these five (glibc lists
// at most 1 to 3 ulp; OpenCL allows 3 for exp and log, 4 for sin and cos, 16
// for pow), so a vectorised loop computes what its scalar loop would within
// the same bounds. The library is opened once and never closed.
const VectorMath &vector_math() {
  static const VectorMath math = [] {
    VectorMath found;
    void *library = ::dlopen("libmvec.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) return found;
    // (function, arity): the SSE forms take 4 floats or 2 doubles, the AVX2 forms 8 or 4.
    const std::pair<const char *, const char *> functions[] = {
        {"sin", "v"}, {"cos", "v"}, {"exp", "v"}, {"log", "v"}, {"pow", "vv"}};
    static std::deque<std::string> names; // the descriptions point into it (a deque never moves its strings)
    for (auto [function, parameters] : functions) {
      for (bool single : {true, false}) {
        const std::string scalar = std::string(function) + (single ? "f" : "");
        const std::string intrinsic = "llvm." + std::string(function) + (single ? ".f32" : ".f64");
        for (bool wide : {false, true}) {
          const unsigned lanes = (single ? 4u : 2u) * (wide ? 2u : 1u);
          const std::string vector =
              "_ZGV" + std::string(wide ? "d" : "b") + "N" + std::to_string(lanes) + parameters + "_" + scalar;
          void *address = ::dlsym(library, vector.c_str());
          if (address == nullptr) continue;
          names.push_back(vector);
          const char *vector_name = names.back().c_str();
          found.symbols.push_back({vector_name, address});
          names.push_back(scalar);
          found.functions.push_back({names.back().c_str(), vector_name, lanes, wide});
          names.push_back(intrinsic);
          found.functions.push_back({names.back().c_str(), vector_name, lanes, wide});
        }
      }
    }
    return found;
  }();
  return math;
}

} // namespace

std::span<const VectorMathFunction> vector_math_functions() { return vector_math().functions; }

std::span<const RuntimeSymbol> runtime_symbols() {
  static const std::vector<RuntimeSymbol> symbols = [] {
    std::vector<RuntimeSymbol> all;
    for (auto part : {c_library_symbols(), math_helper_symbols(), fiber_symbols(), region_symbols(), printf_symbols(),
                      streaming_store_symbols(), image_symbols(),
                      std::span<const RuntimeSymbol>(vector_math().symbols)}) {
      all.insert(all.end(), part.begin(), part.end());
    }
    return all;
  }();
  return symbols;
}

bool is_host_symbol(llvm::StringRef name) {
  static const llvm::StringSet<> names = [] {
    llvm::StringSet<> set;
    for (const RuntimeSymbol &symbol : runtime_symbols()) set.insert(symbol.name);
    return set;
  }();
  return names.contains(name);
}

} // namespace zeal::cpu::detail
