// OpenCL atomics (atomic_*, atom_*, and the 2.0 forms the translator maps onto them) as LLVM atomicrmw/cmpxchg.
#include "cpu_driver/compiler/host_runtime.hpp"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include <optional>

namespace zeal::cpu::detail {
namespace {

// The translator's OpenCL 1.2 names carry neither memory order nor scope
// (atomic_load_explicit(p, memory_order_acquire) arrives as atomic_add(p, 0)),
// so every atomic is sequentially consistent at system scope: never weaker
// than asked, and on x86 a locked instruction whatever the order.
constexpr auto order = llvm::AtomicOrdering::SequentiallyConsistent;

enum class Op { Add, Sub, Xchg, Inc, Dec, CmpXchg, Min, Max, And, Or, Xor };

std::optional<Op> atomic_op(llvm::StringRef base) {
  if (!base.consume_front("atomic_") && !base.consume_front("atom_")) return std::nullopt;
  return llvm::StringSwitch<std::optional<Op>>(base)
      .Case("add", Op::Add).Case("sub", Op::Sub).Case("xchg", Op::Xchg).Case("inc", Op::Inc)
      .Case("dec", Op::Dec).Case("cmpxchg", Op::CmpXchg).Case("min", Op::Min).Case("max", Op::Max)
      .Case("and", Op::And).Case("or", Op::Or).Case("xor", Op::Xor)
      .Default(std::nullopt);
}

unsigned value_operands(Op op) {
  switch (op) {
  case Op::Inc: case Op::Dec: return 0;
  case Op::CmpXchg: return 2;
  default: return 1;
  }
}

std::optional<llvm::AtomicRMWInst::BinOp> rmw_op(Op op, bool is_signed, bool is_float) {
  using B = llvm::AtomicRMWInst;
  switch (op) {
  case Op::Add: case Op::Inc: return is_float ? B::FAdd : B::Add;
  case Op::Sub: case Op::Dec: return is_float ? B::FSub : B::Sub;
  case Op::Xchg: return B::Xchg;
  case Op::Min: return is_float ? B::FMin : is_signed ? B::Min : B::UMin;
  case Op::Max: return is_float ? B::FMax : is_signed ? B::Max : B::UMax;
  case Op::And: if (!is_float) return B::And; break;
  case Op::Or: if (!is_float) return B::Or; break;
  case Op::Xor: if (!is_float) return B::Xor; break;
  case Op::CmpXchg: break;
  }
  return std::nullopt;
}

bool is_zero(const llvm::Value *value) {
  auto *constant = llvm::dyn_cast<llvm::Constant>(value);
  return constant != nullptr && constant->isNullValue();
}

// atomic_load arrives as atomic_add(p, 0): an atomic load does the same
// without a locked instruction, and leaves a float's -0.0 and NaN payload alone.
void loads_for_adding_zero(llvm::Function &function, llvm::Type *type) {
  for (llvm::User *user : llvm::make_early_inc_range(function.users())) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(user);
    if (call == nullptr || call->getCalledOperand() != &function || !is_zero(call->getArgOperand(1))) continue;
    llvm::IRBuilder<> b(call);
    llvm::LoadInst *load = b.CreateAlignedLoad(type, call->getArgOperand(0), llvm::Align(type->getPrimitiveSizeInBits() / 8));
    load->setAtomic(order);
    call->replaceAllUsesWith(load);
    call->eraseFromParent();
  }
}

llvm::Value *compare_exchange(llvm::IRBuilder<> &b, llvm::Value *pointer, llvm::Value *expected, llvm::Value *desired,
                              llvm::Align align) {
  llvm::Type *type = desired->getType();
  if (type->isFloatingPointTy()) { // cmpxchg takes integers: compare the bits
    llvm::Type *bits = b.getIntNTy(type->getPrimitiveSizeInBits());
    pointer = b.CreatePointerCast(pointer, llvm::PointerType::get(bits, pointer->getType()->getPointerAddressSpace()));
    expected = b.CreateBitCast(expected, bits);
    desired = b.CreateBitCast(desired, bits);
  }
  llvm::Value *pair = b.CreateAtomicCmpXchg(pointer, expected, desired, llvm::MaybeAlign(align), order, order);
  return b.CreateBitCast(b.CreateExtractValue(pair, 0), type);
}

bool define_atomic(llvm::Function &function) {
  std::optional<Op> op = atomic_op(opencl_base_name(function.getName()));
  llvm::Type *type = function.getReturnType();
  if (!op || !(type->isIntegerTy(32) || type->isIntegerTy(64) || type->isFloatTy() || type->isDoubleTy()) ||
      function.arg_size() != 1 + value_operands(*op) || !function.getArg(0)->getType()->isPointerTy()) {
    return false;
  }
  llvm::StringRef letter = mangled_param_letter(function.getName());
  bool is_float = type->isFloatingPointTy();
  std::optional<llvm::AtomicRMWInst::BinOp> binop = rmw_op(*op, is_signed_letter(letter), is_float);
  if (*op != Op::CmpXchg && !binop) return false; // and/or/xor of floats: not OpenCL
  if (*op == Op::Add) loads_for_adding_zero(function, type);
  if (function.use_empty()) return true;

  llvm::IRBuilder<> b = begin_builtin_body(function);
  llvm::Value *pointer = function.getArg(0);
  llvm::Align align(type->getPrimitiveSizeInBits() / 8);
  llvm::Value *result = nullptr;
  if (*op == Op::CmpXchg) {
    result = compare_exchange(b, pointer, function.getArg(1), function.getArg(2), align);
  } else {
    llvm::Value *operand = is_float ? llvm::ConstantFP::get(type, 1.0) : llvm::ConstantInt::get(type, 1);
    if (value_operands(*op) == 1) operand = function.getArg(1);
    result = b.CreateAtomicRMW(*binop, pointer, operand, llvm::MaybeAlign(align), order);
  }
  b.CreateRet(result);
  return true;
}

} // namespace

void define_atomic_builtins(llvm::Module &module) {
  for (llvm::Function *function : undefined_builtins(module)) {
    if (define_atomic(*function) && function->use_empty()) function->eraseFromParent();
  }
}

} // namespace zeal::cpu::detail
