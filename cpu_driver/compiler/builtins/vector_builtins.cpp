// OpenCL C common, geometric and relational built-ins and vector loads/stores, generated as IR bodies from their declarations.
#include "cpu_driver/compiler/host_runtime.hpp"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <numbers>

namespace zeal::cpu::detail {
namespace {

using Args = llvm::SmallVector<llvm::Value *, 3>;

llvm::Value *fp(llvm::Type *type, double value) { return llvm::ConstantFP::get(type, value); }

// The integer type of `type`'s width and shape, to look at a float's bits.
llvm::Type *bits_type(llvm::Type *type) {
  llvm::Type *element = llvm::IntegerType::get(type->getContext(), type->getScalarSizeInBits());
  if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    return llvm::FixedVectorType::get(element, unsigned(vector->getNumElements()));
  }
  return element;
}

llvm::Value *clamp(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *lo, llvm::Value *hi) {
  return b.CreateMinNum(b.CreateMaxNum(x, lo), hi);
}

// Float common functions; operands already splatted to the result type.
llvm::Value *common_body(llvm::IRBuilder<> &b, llvm::StringRef name, Args &a, llvm::Type *type) {
  size_t n = a.size();
  if (name == "clamp" && n == 3) return clamp(b, a[0], a[1], a[2]);
  if ((name == "min" || name == "fmin") && n == 2) return b.CreateMinNum(a[0], a[1]);
  if ((name == "max" || name == "fmax") && n == 2) return b.CreateMaxNum(a[0], a[1]);
  if (name == "degrees" && n == 1) return b.CreateFMul(a[0], fp(type, 180.0 / std::numbers::pi));
  if (name == "radians" && n == 1) return b.CreateFMul(a[0], fp(type, std::numbers::pi / 180.0));
  if (name == "mix" && n == 3) return b.CreateFAdd(a[0], b.CreateFMul(b.CreateFSub(a[1], a[0]), a[2]));
  if (name == "step" && n == 2) return b.CreateSelect(b.CreateFCmpOLT(a[1], a[0]), fp(type, 0.0), fp(type, 1.0));
  if (name == "smoothstep" && n == 3) {
    llvm::Value *t = clamp(b, b.CreateFDiv(b.CreateFSub(a[2], a[0]), b.CreateFSub(a[1], a[0])), fp(type, 0.0), fp(type, 1.0));
    return b.CreateFMul(b.CreateFMul(t, t), b.CreateFSub(fp(type, 3.0), b.CreateFMul(fp(type, 2.0), t)));
  }
  if (name == "sign" && n == 1) {
    // ±0 keep their sign, NaN gives 0.
    llvm::Value *zero_or_x = b.CreateSelect(b.CreateFCmpUNO(a[0], a[0]), fp(type, 0.0), a[0]);
    llvm::Value *negative = b.CreateSelect(b.CreateFCmpOLT(a[0], fp(type, 0.0)), fp(type, -1.0), zero_or_x);
    return b.CreateSelect(b.CreateFCmpOGT(a[0], fp(type, 0.0)), fp(type, 1.0), negative);
  }
  return nullptr;
}

llvm::Value *dot(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y) {
  llvm::Value *product = b.CreateFMul(x, y);
  if (!product->getType()->isVectorTy()) return product;
  return b.CreateFAddReduce(fp(product->getType()->getScalarType(), -0.0), product);
}

// sqrt(dot(x, x)); floats are summed in double so that large and tiny
// vectors neither overflow nor underflow before the square root.
llvm::Value *length(llvm::IRBuilder<> &b, llvm::Value *x) {
  llvm::Type *element = x->getType()->getScalarType();
  if (element->isFloatTy()) {
    llvm::Value *wide = b.CreateFPExt(x, x->getType()->getWithNewType(b.getDoubleTy()));
    return b.CreateFPTrunc(b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, dot(b, wide, wide)), element);
  }
  return b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, dot(b, x, x));
}

llvm::Value *normalize(llvm::IRBuilder<> &b, llvm::Value *x) {
  llvm::Type *element = x->getType()->getScalarType();
  llvm::Value *size = length(b, x);
  llvm::Value *scaled = b.CreateFDiv(x, splat_like(b, size, x->getType()));
  return b.CreateSelect(b.CreateFCmpOEQ(size, fp(element, 0.0)), x, scaled); // a zero vector stays zero
}

llvm::Value *cross(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y) {
  auto *type = llvm::cast<llvm::FixedVectorType>(x->getType());
  unsigned n = unsigned(type->getNumElements());
  auto shuffle = [&](llvm::Value *v, std::initializer_list<int> lanes) {
    llvm::SmallVector<int, 4> mask(lanes);
    if (n == 4) mask.push_back(3);
    return b.CreateShuffleVector(v, mask);
  };
  llvm::Value *r = b.CreateFSub(b.CreateFMul(shuffle(x, {1, 2, 0}), shuffle(y, {2, 0, 1})),
                                b.CreateFMul(shuffle(x, {2, 0, 1}), shuffle(y, {1, 2, 0})));
  return n == 4 ? b.CreateInsertElement(r, fp(type->getElementType(), 0.0), uint64_t(3)) : r;
}

llvm::Value *geometric_body(llvm::IRBuilder<> &b, llvm::StringRef name, llvm::Value *x, llvm::Value *y) {
  name.consume_front("fast_");
  bool vector3or4 = x && x->getType()->isVectorTy() &&
                    llvm::cast<llvm::FixedVectorType>(x->getType())->getNumElements() >= 3;
  if (name == "dot" && y) return dot(b, x, y);
  if (name == "length" && x && !y) return length(b, x);
  if (name == "distance" && y) return length(b, b.CreateFSub(x, y));
  if (name == "normalize" && x && !y) return normalize(b, x);
  if (name == "cross" && y && vector3or4) return cross(b, x, y);
  return nullptr;
}

// An i1 (vector) as OpenCL's relational result: 1 for scalars, -1 (all bits) per vector lane.
llvm::Value *relational_result(llvm::IRBuilder<> &b, llvm::Value *truth, llvm::Type *type) {
  return type->isVectorTy() ? b.CreateSExt(truth, type) : b.CreateZExt(truth, type);
}

llvm::Value *float_test(llvm::IRBuilder<> &b, llvm::StringRef name, llvm::Value *x) {
  llvm::Type *type = x->getType();
  const llvm::fltSemantics &semantics = type->getScalarType()->getFltSemantics();
  llvm::Value *inf = llvm::ConstantFP::getInfinity(type);
  llvm::Value *magnitude = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  if (name == "isnan") return b.CreateFCmpUNO(x, x);
  if (name == "isinf") return b.CreateFCmpOEQ(magnitude, inf);
  if (name == "isfinite") return b.CreateFCmpONE(magnitude, inf);
  if (name == "isnormal") {
    llvm::Value *smallest = llvm::ConstantFP::get(type, llvm::APFloat::getSmallestNormalized(semantics));
    return b.CreateAnd(b.CreateFCmpOGE(magnitude, smallest), b.CreateFCmpONE(magnitude, inf));
  }
  if (name == "signbit") {
    llvm::Type *bits = bits_type(type);
    return b.CreateICmpSLT(b.CreateBitCast(x, bits), llvm::Constant::getNullValue(bits));
  }
  return nullptr;
}

llvm::Value *relational_body(llvm::IRBuilder<> &b, llvm::StringRef name, llvm::Function &f) {
  llvm::Type *result = f.getReturnType();
  llvm::Value *x = f.arg_size() > 0 ? f.getArg(0) : nullptr;
  if (f.arg_size() == 2 && x->getType()->isFPOrFPVectorTy()) {
    auto predicate = llvm::StringSwitch<llvm::CmpInst::Predicate>(name)
                         .Case("isequal", llvm::CmpInst::FCMP_OEQ).Case("isnotequal", llvm::CmpInst::FCMP_UNE)
                         .Case("isgreater", llvm::CmpInst::FCMP_OGT).Case("isgreaterequal", llvm::CmpInst::FCMP_OGE)
                         .Case("isless", llvm::CmpInst::FCMP_OLT).Case("islessequal", llvm::CmpInst::FCMP_OLE)
                         .Case("islessgreater", llvm::CmpInst::FCMP_ONE).Case("isordered", llvm::CmpInst::FCMP_ORD)
                         .Case("isunordered", llvm::CmpInst::FCMP_UNO).Default(llvm::CmpInst::BAD_FCMP_PREDICATE);
    if (predicate == llvm::CmpInst::BAD_FCMP_PREDICATE) return nullptr;
    return relational_result(b, b.CreateFCmp(predicate, x, f.getArg(1)), result);
  }
  if (f.arg_size() == 1 && x->getType()->isFPOrFPVectorTy()) {
    llvm::Value *truth = float_test(b, name, x);
    return truth ? relational_result(b, truth, result) : nullptr;
  }
  if ((name == "any" || name == "all") && f.arg_size() == 1 && x->getType()->isIntOrIntVectorTy()) {
    llvm::Value *negative = b.CreateICmpSLT(x, llvm::Constant::getNullValue(x->getType())); // the top bit decides
    if (negative->getType()->isVectorTy()) {
      negative = name == "any" ? b.CreateOrReduce(negative) : b.CreateAndReduce(negative);
    }
    return b.CreateZExt(negative, result);
  }
  return nullptr;
}

// select and bitselect work on the bits of any element type.
llvm::Value *select_body(llvm::IRBuilder<> &b, llvm::StringRef name, llvm::Function &f) {
  if (f.arg_size() != 3 || f.getArg(0)->getType() != f.getReturnType()) return nullptr;
  llvm::Value *x = f.getArg(0), *y = f.getArg(1), *mask = f.getArg(2);
  llvm::Type *type = x->getType();
  if (name == "select" && mask->getType()->isIntOrIntVectorTy()) {
    llvm::Value *zero = llvm::Constant::getNullValue(mask->getType());
    llvm::Value *pick_y = type->isVectorTy() ? b.CreateICmpSLT(mask, zero) : b.CreateICmpNE(mask, zero);
    return b.CreateSelect(pick_y, y, x);
  }
  if (name == "bitselect" && mask->getType() == type) {
    llvm::Type *bits = bits_type(type);
    llvm::Value *xi = b.CreateBitCast(x, bits), *yi = b.CreateBitCast(y, bits), *mi = b.CreateBitCast(mask, bits);
    return b.CreateBitCast(b.CreateOr(b.CreateAnd(xi, b.CreateNot(mi)), b.CreateAnd(yi, mi)), type);
  }
  return nullptr;
}

// Address of element `index` of an array of `element` at `pointer`, as a pointer to `access`.
llvm::Value *element_address(llvm::IRBuilder<> &b, llvm::Value *pointer, llvm::Type *element, llvm::Value *index,
                             llvm::Type *access) {
  unsigned space = pointer->getType()->getPointerAddressSpace();
  llvm::Value *typed = b.CreatePointerCast(pointer, llvm::PointerType::get(element, space));
  llvm::Value *at = b.CreateInBoundsGEP(element, typed, index);
  return b.CreatePointerCast(at, llvm::PointerType::get(access, space));
}

// vloadN/vstoreN and the half forms: vload_half[N], vloada_halfN, vstore[a]_half[N][_rte|_rtz|_rtp|_rtn].
llvm::Value *load_store_body(llvm::IRBuilder<> &b, llvm::StringRef name, llvm::Function &f, bool &stores) {
  bool is_store = name.consume_front("vstore");
  if (!is_store && !name.consume_front("vload")) return nullptr;
  bool aligned = name.consume_front("a");
  bool half = name.consume_front("_half");
  llvm::StringRef mode;
  for (llvm::StringRef suffix : {"_rte", "_rtz", "_rtp", "_rtn"}) {
    if (is_store && half && name.consume_back(suffix)) mode = suffix;
  }
  unsigned lanes = 1;
  if (!name.empty() && name.getAsInteger(10, lanes)) return nullptr;
  if (aligned && !half) return nullptr;
  size_t pointer_arg = is_store ? 2 : 1, offset_arg = is_store ? 1 : 0;
  if (f.arg_size() != pointer_arg + 1 || !f.getArg(pointer_arg)->getType()->isPointerTy()) return nullptr;
  llvm::Type *value_type = is_store ? f.getArg(0)->getType() : f.getReturnType();
  llvm::Type *element = half ? b.getHalfTy() : value_type->getScalarType();
  llvm::Type *access = lanes == 1 ? element : llvm::FixedVectorType::get(element, lanes);
  // vloada_half3 steps over four halves, as a 3-vector is laid out as a 4-vector.
  uint64_t stride = aligned && lanes == 3 ? 4 : lanes;
  llvm::Value *index = b.CreateMul(f.getArg(offset_arg), llvm::ConstantInt::get(f.getArg(offset_arg)->getType(), stride));
  llvm::Value *address = element_address(b, f.getArg(pointer_arg), element, index, access);
  llvm::Align align(element->getPrimitiveSizeInBits() / 8);
  stores = is_store;
  if (is_store) {
    llvm::Value *data = half ? fp_truncate(b, f.getArg(0), access, mode) : f.getArg(0);
    b.CreateAlignedStore(data, address, align);
    return nullptr;
  }
  llvm::Value *loaded = b.CreateAlignedLoad(access, address, align);
  return half ? b.CreateFPExt(loaded, value_type) : loaded;
}

// shuffle(x, mask) and shuffle2(x, y, mask): lane i of the result is lane
// mask[i] of x (of x then y), counting only the mask's low bits as the spec
// says; the lane counts are powers of two.
llvm::Value *shuffle_body(llvm::IRBuilder<> &b, llvm::StringRef name, llvm::Function &f) {
  bool two = name == "shuffle2";
  if ((!two && name != "shuffle") || f.arg_size() != (two ? 3u : 2u)) return nullptr;
  auto *source = llvm::dyn_cast<llvm::FixedVectorType>(f.getArg(0)->getType());
  llvm::Value *mask = f.getArg(two ? 2 : 1);
  auto *mask_type = llvm::dyn_cast<llvm::FixedVectorType>(mask->getType());
  auto *result_type = llvm::dyn_cast<llvm::FixedVectorType>(f.getReturnType());
  if (!source || !mask_type || !result_type || !mask_type->getElementType()->isIntegerTy() ||
      result_type->getNumElements() != mask_type->getNumElements() ||
      result_type->getElementType() != source->getElementType() || (two && f.getArg(1)->getType() != source) ||
      !llvm::isPowerOf2_32(unsigned(source->getNumElements()))) {
    return nullptr;
  }
  llvm::Value *lanes = f.getArg(0);
  unsigned n = unsigned(source->getNumElements());
  if (two) {
    llvm::SmallVector<int, 32> both;
    for (unsigned i = 0; i < 2 * n; ++i) both.push_back(int(i));
    lanes = b.CreateShuffleVector(f.getArg(0), f.getArg(1), both);
    n *= 2;
  }
  llvm::Value *low_bits = b.CreateAnd(mask, llvm::ConstantInt::get(mask_type, n - 1));
  llvm::Value *result = llvm::PoisonValue::get(result_type);
  for (unsigned i = 0; i < result_type->getNumElements(); ++i) {
    llvm::Value *lane = b.CreateExtractElement(lanes, b.CreateExtractElement(low_bits, uint64_t(i)));
    result = b.CreateInsertElement(result, lane, uint64_t(i));
  }
  return result;
}

bool is_vector_builtin_name(llvm::StringRef name) {
  static const llvm::StringSet<> names = {
      "clamp", "min", "max", "fmin", "fmax", "degrees", "radians", "mix", "step", "smoothstep", "sign",
      "dot", "length", "distance", "normalize", "cross", "fast_length", "fast_distance", "fast_normalize",
      "isequal", "isnotequal", "isgreater", "isgreaterequal", "isless", "islessequal", "islessgreater",
      "isordered", "isunordered", "isnan", "isinf", "isfinite", "isnormal", "signbit", "any", "all",
      "select", "bitselect", "shuffle", "shuffle2"};
  return names.contains(name) || name.startswith("vload") || name.startswith("vstore");
}

// Common and geometric functions. On half they are computed in float, which
// is more precise, and which LLVM 15's x86 back end needs: it cannot select
// minnum and maxnum on vectors of half.
llvm::Value *arithmetic_body(llvm::IRBuilder<> &b, llvm::StringRef name, llvm::Function &f) {
  auto widen = [&](llvm::Value *v) {
    llvm::Type *type = v->getType();
    return type->getScalarType()->isHalfTy() ? b.CreateFPExt(v, type->getWithNewType(b.getFloatTy())) : v;
  };
  llvm::Type *type = f.getReturnType();
  llvm::Value *result = nullptr;
  if (type->isFPOrFPVectorTy() && !name.startswith("vload")) {
    Args args;
    for (llvm::Argument &arg : f.args()) args.push_back(widen(splat_like(b, &arg, type)));
    llvm::Type *wide = type->getScalarType()->isHalfTy() ? type->getWithNewType(b.getFloatTy()) : type;
    bool same_types = llvm::all_of(args, [&](llvm::Value *v) { return v->getType() == wide; });
    result = same_types ? common_body(b, name, args, wide) : nullptr;
  }
  if (result == nullptr && f.arg_size() <= 2 && llvm::all_of(f.args(), [](llvm::Argument &arg) {
        return arg.getType()->isFPOrFPVectorTy();
      })) {
    result = geometric_body(b, name, f.arg_size() > 0 ? widen(f.getArg(0)) : nullptr,
                            f.arg_size() > 1 ? widen(f.getArg(1)) : nullptr);
  }
  if (result != nullptr && result->getType() != type) result = b.CreateFPTrunc(result, type);
  return result;
}

// Builds the body into a scratch function first: a name may turn out not to
// be one of ours (wrong types), and the declaration must then stay untouched.
bool define_vector_builtin(llvm::Function &function) {
  llvm::StringRef name = opencl_base_name(function.getName());
  if (!is_vector_builtin_name(name)) return false;
  llvm::Function *scratch = llvm::Function::Create(function.getFunctionType(), llvm::GlobalValue::InternalLinkage,
                                                   "zeal.scratch", function.getParent());
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(function.getContext(), "entry", scratch));
  bool stores = false;
  llvm::Value *result = arithmetic_body(b, name, *scratch);
  if (result == nullptr) result = relational_body(b, name, *scratch);
  if (result == nullptr) result = select_body(b, name, *scratch);
  if (result == nullptr) result = shuffle_body(b, name, *scratch);
  if (result == nullptr) result = load_store_body(b, name, *scratch, stores);
  bool defined = result != nullptr || stores;
  if (defined) {
    if (stores) b.CreateRetVoid();
    else b.CreateRet(result);
    begin_builtin_body(function).GetInsertBlock()->eraseFromParent();
    function.getBasicBlockList().splice(function.begin(), scratch->getBasicBlockList());
    for (auto [from, to] : llvm::zip(scratch->args(), function.args())) from.replaceAllUsesWith(&to);
  }
  scratch->eraseFromParent();
  return defined;
}

} // namespace

void define_vector_builtins(llvm::Module &module) {
  for (llvm::Function *function : undefined_builtins(module)) define_vector_builtin(*function);
}

} // namespace zeal::cpu::detail
