// OpenCL C convert_<type>[n][_sat][_rte|_rtz|_rtp|_rtn] called by name, and the bfloat16 conversions, as IR bodies.
#include "cpu_driver/compiler/host_runtime.hpp"

#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <cmath>
#include <optional>

namespace zeal::cpu::detail {
namespace {

struct ElementKind {
  unsigned bits;
  bool is_float, is_signed;
};

std::optional<ElementKind> element_kind(llvm::StringRef type_name) {
  return llvm::StringSwitch<std::optional<ElementKind>>(type_name)
      .Case("char", ElementKind{8, false, true}).Case("uchar", ElementKind{8, false, false})
      .Case("short", ElementKind{16, false, true}).Case("ushort", ElementKind{16, false, false})
      .Case("int", ElementKind{32, false, true}).Case("uint", ElementKind{32, false, false})
      .Case("long", ElementKind{64, false, true}).Case("ulong", ElementKind{64, false, false})
      .Case("half", ElementKind{16, true, true}).Case("float", ElementKind{32, true, true})
      .Case("double", ElementKind{64, true, true})
      .Default(std::nullopt);
}

bool matches(llvm::Type *type, const ElementKind &kind) {
  llvm::Type *element = type->getScalarType();
  if (kind.is_float) return element->isFloatingPointTy() && element->getPrimitiveSizeInBits() == kind.bits;
  return element->isIntegerTy(kind.bits);
}

unsigned lane_count(llvm::Type *type) {
  auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
  return vector ? unsigned(vector->getNumElements()) : 1;
}

// What a convert_* name asks for: convert_<type><n>[_sat][_<mode>].
struct Conversion {
  ElementKind to;
  unsigned lanes = 1;
  bool saturate = false;
  llvm::StringRef mode; // empty: the default (_rtz to integers, _rte to floating point)
};

std::optional<Conversion> parse_conversion(llvm::StringRef name) {
  if (!name.consume_front("convert_")) return std::nullopt;
  Conversion conversion;
  for (llvm::StringRef mode : {"_rte", "_rtz", "_rtp", "_rtn"}) {
    if (name.consume_back(mode)) conversion.mode = mode;
  }
  conversion.saturate = name.consume_back("_sat");
  llvm::StringRef type_name = name.rtrim("0123456789");
  llvm::StringRef digits = name.drop_front(type_name.size());
  if (!digits.empty() && digits.getAsInteger(10, conversion.lanes)) return std::nullopt;
  std::optional<ElementKind> to = element_kind(type_name);
  if (!to) return std::nullopt;
  conversion.to = *to;
  return conversion;
}

// The integer bounds of `kind` as FP values of `type`'s shape, for the exact comparisons below.
llvm::Value *fp_constant(llvm::Type *type, double value) { return llvm::ConstantFP::get(type, value); }

// llvm.fpto[su]i.sat of `x` into `type`. A half is widened to float first,
// which is exact: on CPUs with AVX512-FP16 LLVM 15 lowers the half form of
// i16 to the native vcvttph2w, which gives 0x8000 for NaN instead of 0.
llvm::Value *saturating_fp_to_int(llvm::IRBuilder<> &b, llvm::Value *x, bool is_signed, llvm::Type *type) {
  if (x->getType()->getScalarType()->isHalfTy()) {
    llvm::Type *wide = b.getFloatTy();
    if (auto *vector = llvm::dyn_cast<llvm::VectorType>(x->getType()))
      wide = llvm::VectorType::get(wide, vector->getElementCount());
    x = b.CreateFPExt(x, wide);
  }
  auto sat = is_signed ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
  return b.CreateIntrinsic(sat, {type, x->getType()}, {x});
}

// An integer to floating point: the nearest value, moved in a directed mode
// where it lies on the wrong side of `x`. Whether it does is decided exactly by
// converting it back with saturation; a value at or beyond the integer range's
// top (2^n, infinity) is above every x, and -infinity (a half from a wide
// negative integer) below every x.
llvm::Value *int_to_fp(llvm::IRBuilder<> &b, llvm::Value *x, bool is_signed, llvm::Type *type, llvm::StringRef mode) {
  llvm::Value *nearest = is_signed ? b.CreateSIToFP(x, type) : b.CreateUIToFP(x, type);
  if (mode.empty() || mode == "_rte") return nearest;
  unsigned n = x->getType()->getScalarSizeInBits();
  llvm::Value *back = saturating_fp_to_int(b, nearest, is_signed, x->getType());
  llvm::Value *top = fp_constant(type, std::ldexp(1.0, int(is_signed ? n - 1 : n)));
  llvm::Value *above = b.CreateOr(b.CreateFCmpOGE(nearest, top), is_signed ? b.CreateICmpSGT(back, x) : b.CreateICmpUGT(back, x));
  llvm::Value *below = b.CreateOr(b.CreateFCmpOEQ(nearest, fp_constant(type, -INFINITY)),
                                  is_signed ? b.CreateICmpSLT(back, x) : b.CreateICmpULT(back, x));
  return round_directed(b, nearest, above, below, mode);
}

// Floating point to an integer: rounded in the mode first (truncation is the
// default), then converted; saturation also sends NaN to 0. Without it an
// out-of-range value is undefined, as the OpenCL C spec leaves it.
llvm::Value *fp_to_int(llvm::IRBuilder<> &b, llvm::Value *x, const Conversion &c, llvm::Type *type) {
  auto rounding = llvm::StringSwitch<llvm::Intrinsic::ID>(c.mode)
                      .Case("_rte", llvm::Intrinsic::rint) // the default environment rounds to nearest even
                      .Case("_rtp", llvm::Intrinsic::ceil)
                      .Case("_rtn", llvm::Intrinsic::floor)
                      .Default(llvm::Intrinsic::not_intrinsic);
  llvm::Value *rounded = rounding == llvm::Intrinsic::not_intrinsic ? x : b.CreateUnaryIntrinsic(rounding, x);
  if (c.saturate) return saturating_fp_to_int(b, rounded, c.to.is_signed, type);
  return c.to.is_signed ? b.CreateFPToSI(rounded, type) : b.CreateFPToUI(rounded, type);
}

// Integer to integer: extended by the source's signedness or truncated, or
// clamped to the destination's range in a type wide enough for both ranges.
llvm::Value *int_to_int(llvm::IRBuilder<> &b, llvm::Value *x, bool from_signed, const Conversion &c, llvm::Type *type) {
  if (!c.saturate) return b.CreateIntCast(x, type, from_signed);
  unsigned from = x->getType()->getScalarSizeInBits(), to = c.to.bits;
  unsigned width = unsigned(llvm::PowerOf2Ceil(std::max(from, to) + 1));
  llvm::Type *wide = x->getType()->getWithNewBitWidth(width);
  llvm::APInt low = c.to.is_signed ? llvm::APInt::getSignedMinValue(to).sext(width) : llvm::APInt(width, 0);
  llvm::APInt high = c.to.is_signed ? llvm::APInt::getSignedMaxValue(to).sext(width) : llvm::APInt::getMaxValue(to).zext(width);
  llvm::Value *value = b.CreateIntCast(x, wide, from_signed);
  value = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, value, llvm::ConstantInt::get(wide, low));
  value = b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, value, llvm::ConstantInt::get(wide, high));
  return b.CreateTrunc(value, type);
}

llvm::Value *fp_to_fp(llvm::IRBuilder<> &b, llvm::Value *x, const Conversion &c, llvm::Type *type) {
  unsigned from = x->getType()->getScalarSizeInBits(), to = type->getScalarSizeInBits();
  if (from == to) return x;
  return from < to ? b.CreateFPExt(x, type) : fp_truncate(b, x, type, c.mode); // widening is exact
}

// The body of one convert_* declaration, or false when its types do not fit its name.
bool define_conversion(llvm::Function &function) {
  std::optional<Conversion> c = parse_conversion(opencl_base_name(function.getName()));
  if (!c || function.arg_size() != 1) return false;
  llvm::Type *type = function.getReturnType(), *source = function.getArg(0)->getType();
  if (!matches(type, c->to) || lane_count(type) != c->lanes || lane_count(source) != c->lanes) return false;
  bool from_float = source->isFPOrFPVectorTy();
  if (!from_float && !source->isIntOrIntVectorTy()) return false;
  llvm::StringRef letter = mangled_param_letter(function.getName(), 0);
  if (!from_float && letter.empty()) return false;
  bool from_signed = is_signed_letter(letter);
  llvm::IRBuilder<> b = begin_builtin_body(function);
  llvm::Value *x = function.getArg(0);
  llvm::Value *result = nullptr;
  if (c->to.is_float) {
    result = from_float ? fp_to_fp(b, x, *c, type) : int_to_fp(b, x, from_signed, type, c->mode);
  } else {
    result = from_float ? fp_to_int(b, x, *c, type) : int_to_int(b, x, from_signed, *c, type);
  }
  b.CreateRet(result);
  return true;
}

// --- bfloat16, carried as the 16 bits of a ushort ------------------------------------------

enum class Bf16 { None, FromFloat, ToFloat };

// The names producers call: LLVMSPIRVLib's reading of SPV_INTEL_bfloat16_conversion
// (intel_convert_bfloat16[n]_as_ushort[n], intel_convert_as_bfloat16[n]_float[n]), the
// SPIR-V friendly __spirv_Convert* and IGC's __builtin_spirv_OpConvert*INTEL_<type>, which
// oneCCL's kernels import.
Bf16 bf16_direction(const llvm::Function &function) {
  llvm::StringRef name = function.getName();
  llvm::StringRef base = opencl_base_name(name);
  if (base.startswith("intel_convert_bfloat16") || base == "__spirv_ConvertFToBF16INTEL" ||
      name.startswith("__builtin_spirv_OpConvertFToBF16INTEL_")) {
    return Bf16::FromFloat;
  }
  if (base.startswith("intel_convert_as_bfloat16") || base == "__spirv_ConvertBF16ToFINTEL" ||
      name.startswith("__builtin_spirv_OpConvertBF16ToFINTEL_")) {
    return Bf16::ToFloat;
  }
  return Bf16::None;
}

// Round to nearest even on the bits: adding 0x7fff plus the lowest kept bit
// carries into the kept half exactly when the dropped half is above the middle,
// or at it with the kept half odd; overflow carries into infinity. NaN keeps
// its sign and top payload bits and is made quiet (a NaN whose payload is all
// in the dropped half would otherwise become infinity).
llvm::Value *float_to_bf16(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Type *type) {
  llvm::Type *bits_type = x->getType()->getWithNewType(b.getInt32Ty());
  auto constant = [&](uint32_t v) { return llvm::ConstantInt::get(bits_type, v); };
  llvm::Value *bits = b.CreateBitCast(x, bits_type);
  llvm::Value *odd = b.CreateAnd(b.CreateLShr(bits, constant(16)), constant(1));
  llvm::Value *rounded = b.CreateLShr(b.CreateAdd(bits, b.CreateAdd(odd, constant(0x7fff))), constant(16));
  llvm::Value *quiet = b.CreateOr(b.CreateLShr(bits, constant(16)), constant(0x40));
  return b.CreateTrunc(b.CreateSelect(b.CreateFCmpUNO(x, x), quiet, rounded), type);
}

llvm::Value *bf16_to_float(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Type *type) {
  llvm::Type *bits_type = x->getType()->getWithNewType(b.getInt32Ty());
  llvm::Value *wide = b.CreateShl(b.CreateZExt(x, bits_type), llvm::ConstantInt::get(bits_type, 16));
  return b.CreateBitCast(wide, type); // exact: bfloat16 is the top half of a float
}

bool define_bf16_conversion(llvm::Function &function) {
  Bf16 direction = bf16_direction(function);
  if (direction == Bf16::None || function.arg_size() != 1) return false;
  llvm::Type *type = function.getReturnType(), *source = function.getArg(0)->getType();
  llvm::Type *floats = direction == Bf16::FromFloat ? source : type;
  llvm::Type *bits = direction == Bf16::FromFloat ? type : source;
  if (!floats->getScalarType()->isFloatTy() || !bits->getScalarType()->isIntegerTy(16) ||
      lane_count(floats) != lane_count(bits) || floats->isVectorTy() != bits->isVectorTy()) {
    return false;
  }
  llvm::IRBuilder<> b = begin_builtin_body(function);
  llvm::Value *x = function.getArg(0);
  b.CreateRet(direction == Bf16::FromFloat ? float_to_bf16(b, x, type) : bf16_to_float(b, x, type));
  return true;
}

} // namespace

void define_conversion_builtins(llvm::Module &module) {
  for (llvm::Function *function : undefined_builtins(module)) {
    if (!define_conversion(*function)) define_bf16_conversion(*function);
  }
  // IGC's names are not mangled, so undefined_builtins leaves them out.
  for (llvm::Function &function : module) {
    if (function.isDeclaration() && function.getName().startswith("__builtin_spirv_OpConvert")) {
      define_bf16_conversion(function);
    }
  }
}

} // namespace zeal::cpu::detail
