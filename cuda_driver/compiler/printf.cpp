// OpenCL C printf on CUDA's vprintf(format, arguments). CUDA formats on the host with C's rules, so each call's
// format, a literal string as OpenCL requires, is rewritten here into a C format that means the same: a vector
// conversion (%v4hlf) becomes one conversion per lane joined by commas, OpenCL's length modifiers become the widths
// vprintf reads (integers as 64-bit, after truncation to the length the format names and extension by the
// conversion's signedness; reals as double), a constant string argument of a plain %s becomes part of the format.
// The arguments are packed into a frame slot, each aligned to its size, as vprintf reads them.
#include "cuda_driver/compiler/internal.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include <fmt/format.h>

#include <cctype>
#include <optional>
#include <string_view>

namespace zeal::cuda {

namespace {

// The text of a constant string `pointer` points into, up to its terminating NUL; nothing when it is not one.
std::optional<std::string> constant_string(llvm::Value *pointer, const llvm::DataLayout &layout) {
  if (!pointer->getType()->isPointerTy()) return std::nullopt;
  llvm::APInt offset(layout.getIndexTypeSizeInBits(pointer->getType()), 0);
  llvm::Value *base = pointer->stripAndAccumulateConstantOffsets(layout, offset, /*AllowNonInbounds=*/true);
  auto *global = llvm::dyn_cast<llvm::GlobalVariable>(base);
  if (global == nullptr || !global->isConstant() || !global->hasDefinitiveInitializer()) return std::nullopt;
  llvm::StringRef text;
  if (auto *data = llvm::dyn_cast<llvm::ConstantDataSequential>(global->getInitializer()); data && data->isString())
    text = data->getAsString();
  else if (!llvm::isa<llvm::ConstantAggregateZero>(global->getInitializer()))
    return std::nullopt;
  if (offset.isNegative() || offset.getZExtValue() > text.size()) return std::nullopt;
  return text.drop_front(offset.getZExtValue()).take_until([](char c) { return c == '\0'; }).str();
}

// One conversion of an OpenCL format: %[flags][width][.precision][vN][hh|h|hl|l]conversion.
struct Conversion {
  std::string head;     // '%', flags, width and precision, as C reads them
  unsigned lanes = 0;   // the vector specifier's N; 0 for a scalar
  unsigned bits = 32;   // an integer's width from the length modifier (none: int)
  bool stars[2] = {};   // width and precision given as '*': each takes an int argument first
  char letter = 0;      // d i o u x X f F e E g G a A c s p
  size_t end = 0;       // the format's index after the conversion
};

std::optional<Conversion> parse_conversion(const std::string &format, size_t at) {
  Conversion c;
  size_t i = at + 1;
  auto digits = [&] {
    while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i]))) ++i;
  };
  while (i < format.size() && std::string_view("-+ #0").find(format[i]) != std::string_view::npos) ++i;
  if (i < format.size() && format[i] == '*') c.stars[0] = true, ++i;
  else digits();
  if (i < format.size() && format[i] == '.') {
    ++i;
    if (i < format.size() && format[i] == '*') c.stars[1] = true, ++i;
    else digits();
  }
  c.head = format.substr(at, i - at);
  if (i < format.size() && format[i] == 'v') {
    size_t start = ++i;
    digits();
    c.lanes = unsigned(std::atoi(format.substr(start, i - start).c_str()));
    if (c.lanes != 2 && c.lanes != 3 && c.lanes != 4 && c.lanes != 8 && c.lanes != 16) return std::nullopt;
  }
  if (format.compare(i, 2, "hh") == 0) c.bits = 8, i += 2;
  else if (format.compare(i, 2, "hl") == 0) c.bits = 32, i += 2;
  else if (format.compare(i, 1, "h") == 0) c.bits = 16, i += 1;
  else if (format.compare(i, 2, "ll") == 0) c.bits = 64, i += 2;
  else if (format.compare(i, 1, "l") == 0) c.bits = 64, i += 1;
  if (i >= format.size() || std::string_view("diouxXfFeEgGaAcsp").find(format[i]) == std::string_view::npos)
    return std::nullopt;
  c.letter = format[i];
  c.end = i + 1;
  return c;
}

// A format's text as C prints it literally.
std::string escaped(const std::string &text) {
  std::string out;
  for (char ch : text) out += ch == '%' ? std::string("%%") : std::string(1, ch);
  return out;
}

class Rewriter {
public:
  explicit Rewriter(llvm::CallInst &call) : call_(call), b_(&call), layout_(call.getModule()->getDataLayout()) {}

  // The C format for the call's; the values to pass are collected on the way.
  std::string rewrite(const std::string &format) {
    std::string out;
    for (size_t i = 0; i < format.size();) {
      if (format[i] != '%') {
        out += format[i++];
        continue;
      }
      if (format.compare(i, 2, "%%") == 0) {
        out += "%%";
        i += 2;
        continue;
      }
      std::optional<Conversion> c = parse_conversion(format, i);
      if (!c) { // not a conversion OpenCL defines: printed as it stands
        out += "%%";
        ++i;
        continue;
      }
      out += convert(*c, format.substr(i, c->end - i));
      i = c->end;
    }
    return out;
  }

  // Packs the collected values and calls vprintf; the call's result becomes 0, or -1 when vprintf failed.
  void emit(const std::string &format, llvm::FunctionCallee vprintf) {
    llvm::Module &module = *call_.getModule();
    llvm::LLVMContext &context = module.getContext();
    llvm::Type *generic = llvm::PointerType::get(context, kNvptxGeneric);
    auto *text = new llvm::GlobalVariable(module, llvm::ArrayType::get(b_.getInt8Ty(), format.size() + 1), true,
                                          llvm::GlobalValue::PrivateLinkage,
                                          llvm::ConstantDataArray::getString(context, format), "__zeal_printf_format",
                                          nullptr, llvm::GlobalValue::NotThreadLocal, kNvptxGlobal);
    text->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    text->setAlignment(llvm::Align(1));
    llvm::Value *arguments = llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(generic));
    if (!values_.empty()) {
      uint64_t size = 0;
      std::vector<uint64_t> offsets;
      for (llvm::Value *value : values_) {
        uint64_t bytes = layout_.getTypeAllocSize(value->getType()).getFixedSize();
        size = llvm::alignTo(size, bytes);
        offsets.push_back(size);
        size += bytes;
      }
      llvm::IRBuilder<> entry(&*call_.getFunction()->getEntryBlock().getFirstInsertionPt());
      llvm::AllocaInst *frame = entry.CreateAlloca(llvm::ArrayType::get(entry.getInt8Ty(), size), nullptr,
                                                   "__zeal_printf_arguments");
      frame->setAlignment(llvm::Align(8));
      for (size_t k = 0; k < values_.size(); ++k) {
        llvm::Value *at = b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), frame, offsets[k]);
        b_.CreateAlignedStore(values_[k], at, llvm::Align(layout_.getTypeAllocSize(values_[k]->getType())));
      }
      arguments = b_.CreatePointerBitCastOrAddrSpaceCast(frame, generic);
    }
    llvm::Value *result = b_.CreateCall(vprintf, {b_.CreateAddrSpaceCast(text, generic), arguments});
    llvm::Value *failed = b_.CreateICmpSLT(result, b_.getInt32(0));
    llvm::Type *type = call_.getType();
    if (!type->isVoidTy()) {
      call_.replaceAllUsesWith(b_.CreateSelect(failed, llvm::ConstantInt::getSigned(type, -1),
                                               llvm::ConstantInt::get(type, 0)));
    }
    call_.eraseFromParent();
  }

private:
  llvm::Value *next_argument() {
    return next_ < call_.arg_size() ? call_.getArgOperand(next_++) : nullptr;
  }

  // `value` as vprintf reads it for `letter`: i64 for integers and pointers, double for reals, i32 for %c.
  llvm::Value *promote(llvm::Value *value, const Conversion &c) {
    llvm::Type *i64 = b_.getInt64Ty();
    if (value->getType()->isPointerTy()) value = b_.CreatePtrToInt(value, i64);
    llvm::Type *type = value->getType();
    switch (c.letter) {
    case 'd': case 'i': case 'o': case 'u': case 'x': case 'X': {
      bool is_signed = c.letter == 'd' || c.letter == 'i';
      if (type->isFloatingPointTy()) value = is_signed ? b_.CreateFPToSI(value, i64) : b_.CreateFPToUI(value, i64);
      if (value->getType()->getIntegerBitWidth() > c.bits) value = b_.CreateTrunc(value, b_.getIntNTy(c.bits));
      return is_signed ? b_.CreateSExt(value, i64) : b_.CreateZExtOrTrunc(value, i64);
    }
    case 'c':
      if (type->isIntegerTy()) return b_.CreateSExtOrTrunc(value, b_.getInt32Ty());
      return b_.CreateFPToSI(value, b_.getInt32Ty());
    case 'p': // pointers are integers by now; a real's bits print as they are
      if (!type->isIntegerTy()) value = b_.CreateBitCast(value, b_.getIntNTy(type->getPrimitiveSizeInBits()));
      return b_.CreateZExtOrTrunc(value, i64);
    default: // reals
      if (type->isIntegerTy()) return b_.CreateSIToFP(value, b_.getDoubleTy());
      return b_.CreateFPCast(value, b_.getDoubleTy());
    }
  }

  // One conversion's C text, with its values collected.
  std::string convert(const Conversion &c, const std::string &spec) {
    for (bool star : c.stars) {
      if (!star) continue;
      llvm::Value *width = next_argument();
      if (width == nullptr) return escaped(spec);
      values_.push_back(width->getType()->isIntegerTy() ? b_.CreateSExtOrTrunc(width, b_.getInt32Ty())
                                                        : b_.getInt32(0));
    }
    llvm::Value *value = next_argument();
    if (value == nullptr) return escaped(spec); // fewer arguments than conversions: the rest prints as text
    if (c.letter == 's') return string(c, value);
    std::string length = (c.letter == 'c' || std::string_view("fFeEgGaA").find(c.letter) != std::string_view::npos ||
                          c.letter == 'p')
                             ? ""
                             : "ll";
    std::string one = c.head + length + c.letter;
    auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(value->getType());
    if (c.lanes == 0 && vector == nullptr) {
      values_.push_back(promote(value, c));
      return one;
    }
    unsigned lanes = c.lanes != 0 ? c.lanes : unsigned(vector->getNumElements());
    std::string out;
    for (unsigned lane = 0; lane < lanes; ++lane) {
      llvm::Value *element = value;
      if (vector != nullptr) {
        element = lane < vector->getNumElements() ? b_.CreateExtractElement(value, lane)
                                                  : llvm::Constant::getNullValue(vector->getElementType());
      }
      values_.push_back(promote(element, c));
      out += (lane == 0 ? "" : ",") + one;
    }
    return out;
  }

  // %s: a constant string under a plain %s is part of the format; any other passes as a generic pointer (a copy in
  // global memory for a constant one, which vprintf reads where the host can).
  std::string string(const Conversion &c, llvm::Value *value) {
    std::optional<std::string> text = constant_string(value, layout_);
    if (text && c.head == "%") return escaped(*text);
    llvm::Module &module = *call_.getModule();
    llvm::Type *generic = llvm::PointerType::get(module.getContext(), kNvptxGeneric);
    if (text) {
      value = new llvm::GlobalVariable(module, llvm::ArrayType::get(b_.getInt8Ty(), text->size() + 1), true,
                                       llvm::GlobalValue::PrivateLinkage,
                                       llvm::ConstantDataArray::getString(module.getContext(), *text),
                                       "__zeal_printf_string", nullptr, llvm::GlobalValue::NotThreadLocal,
                                       kNvptxGlobal);
    }
    if (!value->getType()->isPointerTy()) return escaped(c.head + "s");
    values_.push_back(b_.CreatePointerBitCastOrAddrSpaceCast(value, generic));
    return c.head + "s";
  }

  llvm::CallInst &call_;
  llvm::IRBuilder<> b_;
  const llvm::DataLayout &layout_;
  unsigned next_ = 1;
  std::vector<llvm::Value *> values_;
};

} // namespace

Status lower_printf(llvm::Module &module) {
  llvm::Function *printf = module.getFunction("printf");
  if (printf == nullptr || !printf->isDeclaration()) return {};
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *generic = llvm::PointerType::get(context, kNvptxGeneric);
  llvm::FunctionCallee vprintf = module.getOrInsertFunction(
      "vprintf", llvm::FunctionType::get(llvm::Type::getInt32Ty(context), {generic, generic}, false));
  for (llvm::User *user : llvm::make_early_inc_range(printf->users())) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(user);
    if (call == nullptr || call->getCalledFunction() != printf) continue;
    std::optional<std::string> format =
        call->arg_size() > 0 ? constant_string(call->getArgOperand(0), module.getDataLayout()) : std::nullopt;
    if (!format) {
      return build_failure(fmt::format("function '{}' calls printf with a format that is not a constant string, "
                                       "which OpenCL requires and the CUDA back end needs",
                                       call->getFunction()->getName().str()));
    }
    Rewriter rewriter(*call);
    rewriter.emit(rewriter.rewrite(*format), vprintf);
  }
  if (printf->use_empty()) printf->eraseFromParent();
  return {};
}

} // namespace zeal::cuda
