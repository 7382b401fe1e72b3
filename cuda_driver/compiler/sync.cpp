// Barriers, fences and atomics for NVPTX. Barriers are `bar.sync 0` (which orders the work-group's global and shared
// accesses), fences `membar.gl`. Atomics become LLVM atomic instructions on the pointer's own address space
// (global, shared or generic), which NVPTX selects as `atom.*`: OpenCL 1.2's atomic_*/atom_* and what the translator
// gives for OpenCL 2.0's atomic_fetch_*, exchange, load, store and compare-exchange (those get fences around them,
// as their default order is sequentially consistent).
#include "cuda_driver/compiler/internal.hpp"

#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <optional>

namespace zeal::cuda {

namespace {

enum class AtomicKind { Rmw, Increment, Decrement, CompareExchangeOld, CompareExchangeStrong, Load, Store, FlagSet, FlagClear };

struct AtomicOp {
  AtomicKind kind;
  llvm::AtomicRMWInst::BinOp op = llvm::AtomicRMWInst::Add;
  bool fenced = false; // an OpenCL 2.0 form
};

std::optional<AtomicOp> atomic_op(llvm::StringRef base, bool is_unsigned) {
  llvm::StringRef name = base;
  bool fenced = name.consume_back("_explicit") || name.startswith("atomic_fetch_") || name == "atomic_load" ||
                name == "atomic_store" || name == "atomic_exchange" || name.startswith("atomic_compare_exchange") ||
                name.startswith("atomic_flag_");
  if (!name.consume_front("atomic_fetch_") && !name.consume_front("atomic_") && !name.consume_front("atom_")) {
    return std::nullopt;
  }
  using Bin = llvm::AtomicRMWInst;
  auto op = llvm::StringSwitch<std::optional<AtomicOp>>(name)
                .Case("add", AtomicOp{AtomicKind::Rmw, Bin::Add}).Case("sub", AtomicOp{AtomicKind::Rmw, Bin::Sub})
                .Cases("xchg", "exchange", AtomicOp{AtomicKind::Rmw, Bin::Xchg})
                .Case("and", AtomicOp{AtomicKind::Rmw, Bin::And}).Case("or", AtomicOp{AtomicKind::Rmw, Bin::Or})
                .Case("xor", AtomicOp{AtomicKind::Rmw, Bin::Xor})
                .Case("min", AtomicOp{AtomicKind::Rmw, is_unsigned ? Bin::UMin : Bin::Min})
                .Case("max", AtomicOp{AtomicKind::Rmw, is_unsigned ? Bin::UMax : Bin::Max})
                .Case("inc", AtomicOp{AtomicKind::Increment}).Case("dec", AtomicOp{AtomicKind::Decrement})
                .Case("cmpxchg", AtomicOp{AtomicKind::CompareExchangeOld})
                .Cases("compare_exchange_strong", "compare_exchange_weak", AtomicOp{AtomicKind::CompareExchangeStrong})
                .Case("load", AtomicOp{AtomicKind::Load}).Case("store", AtomicOp{AtomicKind::Store})
                .Case("init", AtomicOp{AtomicKind::Store})
                .Case("flag_test_and_set", AtomicOp{AtomicKind::FlagSet})
                .Case("flag_clear", AtomicOp{AtomicKind::FlagClear})
                .Default(std::nullopt);
  if (op) op->fenced = fenced && base != "atomic_init";
  return op;
}

// A read-modify-write on an integer, or on a float's bits for exchange; floats add natively.
llvm::Value *rmw(llvm::IRBuilder<> &b, llvm::AtomicRMWInst::BinOp op, llvm::Value *pointer, llvm::Value *value) {
  llvm::Type *type = value->getType();
  constexpr auto order = llvm::AtomicOrdering::Monotonic;
  if (type->isFloatingPointTy() && op == llvm::AtomicRMWInst::Add) {
    return b.CreateAtomicRMW(llvm::AtomicRMWInst::FAdd, pointer, value, llvm::MaybeAlign(), order);
  }
  if (type->isFloatingPointTy() && op == llvm::AtomicRMWInst::Sub) {
    return b.CreateAtomicRMW(llvm::AtomicRMWInst::FAdd, pointer, b.CreateFNeg(value), llvm::MaybeAlign(), order);
  }
  llvm::Type *bits = b.getIntNTy(type->getPrimitiveSizeInBits());
  llvm::Value *old = b.CreateAtomicRMW(op, pointer, b.CreateBitCast(value, bits), llvm::MaybeAlign(), order);
  return b.CreateBitCast(old, type);
}

llvm::Value *compare_exchange(llvm::IRBuilder<> &b, llvm::Value *pointer, llvm::Value *expected, llvm::Value *desired) {
  llvm::Type *type = desired->getType();
  llvm::Type *bits = b.getIntNTy(type->getPrimitiveSizeInBits());
  constexpr auto order = llvm::AtomicOrdering::Monotonic;
  llvm::Value *pair = b.CreateAtomicCmpXchg(pointer, b.CreateBitCast(expected, bits), b.CreateBitCast(desired, bits),
                                            llvm::MaybeAlign(), order, order);
  return b.CreateBitCast(b.CreateExtractValue(pair, 0), type);
}

// The value the atomic returns (nullptr for void).
llvm::Value *emit_atomic(llvm::IRBuilder<> &b, const AtomicOp &op, llvm::Function &f) {
  llvm::Value *pointer = f.getArg(0);
  // The value's type: the operand's for writes, the result's for loads and increments (the _explicit forms'
  // later parameters are orders and scopes).
  bool reads_only = op.kind == AtomicKind::Load || op.kind == AtomicKind::Increment || op.kind == AtomicKind::Decrement;
  llvm::Type *value_type = reads_only || f.arg_size() < 2 ? f.getReturnType() : f.getArg(1)->getType();
  switch (op.kind) {
  case AtomicKind::Rmw: return rmw(b, op.op, pointer, f.getArg(1));
  case AtomicKind::Increment: return rmw(b, llvm::AtomicRMWInst::Add, pointer, llvm::ConstantInt::get(value_type, 1));
  case AtomicKind::Decrement: return rmw(b, llvm::AtomicRMWInst::Sub, pointer, llvm::ConstantInt::get(value_type, 1));
  case AtomicKind::CompareExchangeOld: return compare_exchange(b, pointer, f.getArg(1), f.getArg(2));
  case AtomicKind::CompareExchangeStrong: {
    llvm::Value *expected_at = f.getArg(1);
    llvm::Type *type = f.getArg(2)->getType();
    llvm::Value *expected = b.CreateLoad(type, expected_at);
    llvm::Value *old = compare_exchange(b, pointer, expected, f.getArg(2));
    b.CreateStore(old, expected_at);
    return b.CreateICmpEQ(b.CreateBitCast(old, b.getIntNTy(type->getPrimitiveSizeInBits())),
                          b.CreateBitCast(expected, b.getIntNTy(type->getPrimitiveSizeInBits())));
  }
  case AtomicKind::Load: return rmw(b, llvm::AtomicRMWInst::Or, pointer, llvm::Constant::getNullValue(value_type));
  case AtomicKind::Store: rmw(b, llvm::AtomicRMWInst::Xchg, pointer, f.getArg(1)); return nullptr;
  case AtomicKind::FlagSet:
    return b.CreateICmpNE(rmw(b, llvm::AtomicRMWInst::Xchg, pointer, b.getInt32(1)), b.getInt32(0));
  case AtomicKind::FlagClear: rmw(b, llvm::AtomicRMWInst::Xchg, pointer, b.getInt32(0)); return nullptr;
  }
  return nullptr;
}

bool define_atomic(llvm::Function &f) {
  std::optional<AtomicOp> op = atomic_op(opencl_base_name(f.getName()), last_parameter_unsigned(f.getName()));
  if (!op || f.arg_size() == 0 || !f.getArg(0)->getType()->isPointerTy()) return false;
  // Floating-point min, max and bit operations have no atom.* form: left undefined, they are refused by name.
  bool float_value = f.arg_size() > 1 && f.getArg(1)->getType()->isFloatingPointTy();
  using Bin = llvm::AtomicRMWInst;
  if (float_value && op->kind == AtomicKind::Rmw && op->op != Bin::Add && op->op != Bin::Sub && op->op != Bin::Xchg) {
    return false;
  }
  llvm::IRBuilder<> b = begin_definition(f);
  if (op->fenced) call_intrinsic(b, llvm::Intrinsic::nvvm_membar_gl);
  llvm::Value *result = emit_atomic(b, *op, f);
  if (op->fenced) call_intrinsic(b, llvm::Intrinsic::nvvm_membar_gl);
  llvm::Type *type = f.getReturnType();
  if (type->isVoidTy()) b.CreateRetVoid();
  else if (result->getType() == type) b.CreateRet(result);
  else b.CreateRet(b.CreateZExtOrTrunc(result, type));
  return true;
}

// barrier(flags): bar.sync 0, or the sub-group's bar.warp.sync when the flags carry the image-fence mark
// (subgroup_barriers.cpp). The flags are a constant at every call, so the branch folds once inlined.
void define_barrier(llvm::Function &function) {
  llvm::IRBuilder<> b = begin_definition(function);
  llvm::LLVMContext &context = function.getContext();
  auto *sub_group = llvm::BasicBlock::Create(context, "sub_group", &function);
  auto *work_group = llvm::BasicBlock::Create(context, "work_group", &function);
  llvm::Value *flags = b.CreateZExtOrTrunc(function.getArg(0), b.getInt32Ty());
  b.CreateCondBr(b.CreateICmpNE(b.CreateAnd(flags, 4), b.getInt32(0)), sub_group, work_group);
  b.SetInsertPoint(sub_group);
  call_intrinsic(b, llvm::Intrinsic::nvvm_bar_warp_sync, {subgroup_member_mask(b)});
  b.CreateRetVoid();
  b.SetInsertPoint(work_group);
  call_intrinsic(b, llvm::Intrinsic::nvvm_barrier0);
  b.CreateRetVoid();
}

} // namespace

void define_sync_builtins(llvm::Module &module) {
  for (llvm::Function &function : module) {
    if (!function.isDeclaration() || function.isIntrinsic()) continue;
    llvm::StringRef base = opencl_base_name(function.getName());
    if (base == "barrier" && function.arg_size() == 1) {
      define_barrier(function);
    } else if (base == "work_group_barrier") {
      llvm::IRBuilder<> b = begin_definition(function);
      call_intrinsic(b, llvm::Intrinsic::nvvm_barrier0);
      b.CreateRetVoid();
    } else if (base == "mem_fence" || base == "read_mem_fence" || base == "write_mem_fence" ||
               base == "atomic_work_item_fence") {
      llvm::IRBuilder<> b = begin_definition(function);
      call_intrinsic(b, llvm::Intrinsic::nvvm_membar_gl);
      b.CreateRetVoid();
    } else {
      define_atomic(function);
    }
  }
}

} // namespace zeal::cuda
