// OpenCL C printf: calls become zeal_cpu_printf(format, packed arguments, type codes), formatted on the host to stdout.
#include "cpu_driver/compiler/host_runtime.hpp"

#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace zeal::cpu::detail {
namespace {

constexpr uint64_t slot_alignment = 8;

// One argument's code: its lane count in decimal, then c/s/i/l (integers of
// 8-64 bits), h/f/d (half, float, double) or p (a pointer).
std::string type_code(llvm::Type *type) {
  unsigned lanes = 1;
  if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    lanes = unsigned(vector->getNumElements());
    type = vector->getElementType();
  }
  char letter = 'p';
  if (type->isIntegerTy(8)) letter = 'c';
  else if (type->isIntegerTy(16)) letter = 's';
  else if (type->isIntegerTy(32)) letter = 'i';
  else if (type->isIntegerTy(64)) letter = 'l';
  else if (type->isHalfTy()) letter = 'h';
  else if (type->isFloatTy()) letter = 'f';
  else if (type->isDoubleTy()) letter = 'd';
  return std::to_string(lanes) + letter;
}

void lower_printf_call(llvm::CallInst &call, llvm::FunctionCallee host) {
  llvm::Module &module = *call.getModule();
  const llvm::DataLayout &layout = module.getDataLayout();
  llvm::IRBuilder<> entry(&*call.getFunction()->getEntryBlock().getFirstInsertionPt());
  llvm::IRBuilder<> b(&call);
  std::string codes;
  uint64_t size = 0;
  llvm::SmallVector<std::pair<llvm::Value *, uint64_t>, 8> slots;
  for (unsigned i = 1; i < call.arg_size(); ++i) {
    llvm::Value *arg = call.getArgOperand(i);
    if (arg->getType()->isPointerTy()) arg = b.CreatePtrToInt(arg, b.getInt64Ty());
    codes += type_code(call.getArgOperand(i)->getType());
    slots.emplace_back(arg, size);
    size += llvm::alignTo(layout.getTypeAllocSize(arg->getType()).getFixedSize(), slot_alignment);
  }
  // One buffer per call site, in the entry block so that loops reuse it.
  llvm::AllocaInst *buffer = entry.CreateAlloca(llvm::ArrayType::get(entry.getInt8Ty(), std::max<uint64_t>(size, 1)));
  buffer->setAlignment(llvm::Align(16));
  llvm::Type *byte_pointer = llvm::PointerType::get(b.getInt8Ty(), 0);
  llvm::Value *base = b.CreatePointerCast(buffer, byte_pointer);
  for (auto [value, offset] : slots) {
    llvm::Value *at = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), base, offset);
    b.CreateAlignedStore(value, b.CreatePointerCast(at, llvm::PointerType::get(value->getType(), 0)), llvm::Align(1));
  }
  llvm::Value *format = b.CreatePointerBitCastOrAddrSpaceCast(call.getArgOperand(0), byte_pointer);
  llvm::Value *code_string = b.CreatePointerCast(b.CreateGlobalStringPtr(codes, "zeal.printf.codes", 0, &module), byte_pointer);
  llvm::Value *result = b.CreateCall(host, {format, base, code_string});
  call.replaceAllUsesWith(b.CreateSExtOrTrunc(result, call.getType()));
  call.eraseFromParent();
}

// --- The host side ----------------------------------------------------------

float half_to_float(uint16_t bits) {
  uint32_t sign = uint32_t(bits >> 15) << 31, exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  uint32_t out;
  if (exponent == 0x1f) {
    out = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    out = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    out = sign;
  } else { // subnormal: normalise
    exponent = 113;
    while ((mantissa & 0x400) == 0) {
      mantissa <<= 1;
      --exponent;
    }
    out = sign | (exponent << 23) | ((mantissa & 0x3ff) << 13);
  }
  float value;
  std::memcpy(&value, &out, 4);
  return value;
}

// Reads the packed arguments in order.
struct Arguments {
  const uint8_t *data;
  const char *codes;
  unsigned lanes = 0;
  char letter = 0;

  bool next() {
    if (*codes == '\0') return false;
    char *end = nullptr;
    lanes = unsigned(std::strtoul(codes, &end, 10));
    letter = *end;
    codes = end + 1;
    return true;
  }
  static unsigned width(char letter) {
    switch (letter) {
    case 'c': return 1;
    case 's': case 'h': return 2;
    case 'i': case 'f': return 4;
    default: return 8;
    }
  }
  template <class T>
  T read(unsigned lane) const {
    T value;
    std::memcpy(&value, data + lane * sizeof(T), sizeof(T));
    return value;
  }
  int64_t integer(unsigned lane) const {
    switch (letter) {
    case 'c': return read<int8_t>(lane);
    case 's': return read<int16_t>(lane);
    case 'i': return read<int32_t>(lane);
    default: return read<int64_t>(lane);
    }
  }
  double real(unsigned lane) const {
    switch (letter) {
    case 'h': return half_to_float(read<uint16_t>(lane));
    case 'f': return read<float>(lane);
    case 'd': return read<double>(lane);
    default: return double(integer(lane));
    }
  }
  void advance() {
    uint64_t stored_lanes = lanes == 3 ? 4 : lanes; // a 3-vector is laid out as a 4-vector
    uint64_t bytes = uint64_t(width(letter)) * stored_lanes;
    data += (bytes + slot_alignment - 1) / slot_alignment * slot_alignment;
  }
};

// One conversion: [flags][width][.precision][vN][hh|h|hl|l]conversion.
struct Spec {
  std::string head; // '%', flags, width and precision, passed on to snprintf
  unsigned lanes = 1;
  unsigned length_bits = 0; // 8/16/32/64 from the length modifier; 0 when none
  char conversion = 0;
};

const char *parse_spec(const char *p, Spec &spec) {
  spec.head = "%";
  while (*p && std::strchr("-+ #0", *p)) spec.head += *p++;
  while (*p && (std::isdigit(static_cast<unsigned char>(*p)) || *p == '.')) spec.head += *p++;
  if (*p == 'v') spec.lanes = unsigned(std::strtoul(p + 1, const_cast<char **>(&p), 10));
  if (std::strncmp(p, "hh", 2) == 0) spec.length_bits = 8, p += 2;
  else if (std::strncmp(p, "hl", 2) == 0) spec.length_bits = 32, p += 2;
  else if (*p == 'h') spec.length_bits = 16, ++p;
  else if (*p == 'l') spec.length_bits = 64, ++p;
  spec.conversion = *p;
  return *p ? p + 1 : p;
}

void append(std::string &out, const char *format, auto value) {
  char buffer[512];
  int n = std::snprintf(buffer, sizeof buffer, format, value);
  if (n > 0) out.append(buffer, std::min<size_t>(size_t(n), sizeof buffer - 1));
}

// Integers are cut to the length modifier's width, then widened with the
// conversion's signedness, as the C printf would see the promoted value.
void append_integer(std::string &out, const Spec &spec, int64_t value, unsigned arg_bits) {
  unsigned bits = spec.length_bits ? spec.length_bits : std::min(arg_bits, 32u);
  bool is_signed = spec.conversion == 'd' || spec.conversion == 'i';
  uint64_t mask = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  uint64_t raw = uint64_t(value) & mask;
  std::string format = spec.head + "ll" + spec.conversion;
  if (is_signed) {
    int64_t signed_value = bits < 64 && (raw >> (bits - 1)) ? int64_t(raw | ~mask) : int64_t(raw);
    append(out, format.c_str(), static_cast<long long>(signed_value));
  } else {
    append(out, format.c_str(), static_cast<unsigned long long>(raw));
  }
}

bool append_lane(std::string &out, const Spec &spec, const Arguments &args, unsigned lane) {
  char c = spec.conversion;
  if (std::strchr("diouxX", c)) {
    append_integer(out, spec, args.integer(lane), Arguments::width(args.letter) * 8);
  } else if (std::strchr("fFeEgGaA", c)) {
    append(out, (spec.head + c).c_str(), args.real(lane));
  } else if (c == 'c') {
    append(out, (spec.head + 'c').c_str(), int(static_cast<unsigned char>(args.integer(lane))));
  } else if (c == 's' && args.letter == 'p') {
    append(out, (spec.head + 's').c_str(), reinterpret_cast<const char *>(args.read<uint64_t>(lane)));
  } else if (c == 'p' && args.letter == 'p') {
    append(out, (spec.head + 'p').c_str(), reinterpret_cast<const void *>(args.read<uint64_t>(lane)));
  } else {
    return false;
  }
  return true;
}

// Returns 0, or -1 (OpenCL's failure) when the format and the arguments disagree.
extern "C" int zeal_cpu_printf(const char *format, const uint8_t *data, const char *codes) {
  std::string out;
  Arguments args{data, codes};
  bool ok = true;
  for (const char *p = format; *p;) {
    if (*p != '%') {
      out += *p++;
      continue;
    }
    if (p[1] == '%') {
      out += '%';
      p += 2;
      continue;
    }
    Spec spec;
    p = parse_spec(p + 1, spec);
    if (!args.next() || args.lanes != spec.lanes) {
      ok = false;
      break;
    }
    for (unsigned lane = 0; lane < spec.lanes && ok; ++lane) {
      if (lane > 0) out += ',';
      ok = append_lane(out, spec, args, lane);
    }
    if (!ok) break;
    args.advance();
  }
  // One write per call keeps lines from concurrent work-groups whole.
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  return ok ? 0 : -1;
}

} // namespace

void lower_printf(llvm::Module &module) {
  llvm::Function *printf = module.getFunction("printf");
  if (printf == nullptr || !printf->isVarArg()) return;
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *byte_pointer = llvm::PointerType::get(llvm::Type::getInt8Ty(context), 0);
  llvm::FunctionCallee host = module.getOrInsertFunction(printf_symbol, llvm::Type::getInt32Ty(context), byte_pointer,
                                                         byte_pointer, byte_pointer);
  for (llvm::User *user : llvm::make_early_inc_range(printf->users())) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(user);
    if (call != nullptr && call->getCalledOperand() == printf) lower_printf_call(*call, host);
  }
  if (printf->use_empty()) printf->eraseFromParent();
}

// DPC++'s device-side assert: its headers call devicelib's __devicelib_assert_fail, which Intel's GPU compiler
// provides natively and modules (Triton's too) import by that name. The line is the one DPC++'s fallback
// prints, on stderr, once per failing work-item. The kernel goes on: the driver never aborts the process it
// runs in, and a SYCL runtime that wants assert's abort checks for it on the host.
extern "C" void zeal_cpu_devicelib_assert_fail(const char *expression, const char *file, int32_t line,
                                                const char *function, uint64_t gid0, uint64_t gid1, uint64_t gid2,
                                                uint64_t lid0, uint64_t lid1, uint64_t lid2) {
  auto text = [](const char *s) { return s != nullptr ? s : "<unknown>"; };
  std::fprintf(stderr, "%s:%d: %s: global id: [%llu,%llu,%llu], local id: [%llu,%llu,%llu] Assertion `%s` failed.\n",
               text(file), int(line), text(function), (unsigned long long)gid0, (unsigned long long)gid1,
               (unsigned long long)gid2, (unsigned long long)lid0, (unsigned long long)lid1,
               (unsigned long long)lid2, text(expression));
  std::fflush(stderr);
}

std::span<const RuntimeSymbol> printf_symbols() {
  static const RuntimeSymbol symbols[] = {
      {printf_symbol, reinterpret_cast<void *>(&zeal_cpu_printf)},
      {"__devicelib_assert_fail", reinterpret_cast<void *>(&zeal_cpu_devicelib_assert_fail)}};
  return symbols;
}

} // namespace zeal::cpu::detail
