// Work-group collectives (OpenCL 2.0's work_group_*, which SYCL's group algorithms over a work-group become):
// reductions and scans of add, min and max, broadcast, all and any. Each warp reduces or scans its own values with
// shuffles (warps, not the kernel's sub-groups, which may be smaller), one lane per warp leaves the result in a static `.shared` scratch of 32 words, and every
// work-item combines the entries it needs. A barrier before the scratch is written keeps a slower work-item's
// reading of the previous collective safe; one after makes the entries visible.
#include "cuda_driver/compiler/internal.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <optional>

namespace zeal::cuda {

namespace {

namespace nvvm = llvm::Intrinsic;

llvm::GlobalVariable *scratch(llvm::Module &module) {
  constexpr const char *name = "__zeal_group_scratch";
  if (llvm::GlobalVariable *known = module.getGlobalVariable(name, true)) return known;
  auto *type = llvm::ArrayType::get(llvm::Type::getInt64Ty(module.getContext()), 33);
  auto *global = new llvm::GlobalVariable(module, type, false, llvm::GlobalValue::InternalLinkage,
                                          llvm::UndefValue::get(type), name, nullptr,
                                          llvm::GlobalValue::NotThreadLocal, kNvptxShared);
  global->setAlignment(llvm::Align(8));
  return global;
}

// A value of up to 64 bits as the scratch's word, and back.
llvm::Value *to_word(llvm::IRBuilder<> &b, llvm::Value *value) {
  llvm::Type *type = value->getType();
  if (type->isPointerTy()) return b.CreatePtrToInt(value, b.getInt64Ty());
  llvm::Value *bits = type->isIntegerTy() ? value : b.CreateBitCast(value, b.getIntNTy(type->getPrimitiveSizeInBits()));
  return b.CreateZExt(bits, b.getInt64Ty());
}
llvm::Value *from_word(llvm::IRBuilder<> &b, llvm::Value *word, llvm::Type *type) {
  if (type->isPointerTy()) return b.CreateIntToPtr(word, type);
  llvm::Value *bits = b.CreateTrunc(word, b.getIntNTy(type->getPrimitiveSizeInBits()));
  return type->isIntegerTy() ? bits : b.CreateBitCast(bits, type);
}

llvm::Value *slot(llvm::IRBuilder<> &b, llvm::GlobalVariable *words, llvm::Value *index) {
  return b.CreateInBoundsGEP(words->getValueType(), words, {b.getInt32(0), index});
}

// Stores `word` at `index` when `write` holds, between barriers.
void publish(llvm::IRBuilder<> &b, llvm::GlobalVariable *words, llvm::Value *write, llvm::Value *index, llvm::Value *word) {
  llvm::Function *function = b.GetInsertBlock()->getParent();
  auto *store = llvm::BasicBlock::Create(b.getContext(), "publish", function);
  auto *after = llvm::BasicBlock::Create(b.getContext(), "published", function);
  call_intrinsic(b, nvvm::nvvm_barrier0);
  b.CreateCondBr(write, store, after);
  b.SetInsertPoint(store);
  b.CreateStore(word, slot(b, words, index));
  b.CreateBr(after);
  b.SetInsertPoint(after);
  call_intrinsic(b, nvvm::nvvm_barrier0);
}

// The sub-groups' entries [0, count) combined in order (count at most 32).
llvm::Value *combine_entries(llvm::IRBuilder<> &b, llvm::GlobalVariable *words, llvm::Value *count, GroupArith arith,
                             bool is_unsigned, llvm::Type *type) {
  llvm::Value *total = group_identity(type, arith, is_unsigned);
  for (unsigned k = 0; k < 32; ++k) {
    llvm::Value *entry = from_word(b, b.CreateLoad(b.getInt64Ty(), slot(b, words, b.getInt32(k))), type);
    llvm::Value *inside = b.CreateICmpULT(b.getInt32(k), count);
    total = b.CreateSelect(inside, group_combine(b, arith, is_unsigned, total, entry), total);
  }
  return total;
}

llvm::Value *reduce_or_scan(llvm::IRBuilder<> &b, GroupCollective kind, GroupArith arith, bool is_unsigned,
                            llvm::Value *value) {
  llvm::GlobalVariable *words = scratch(*b.GetInsertBlock()->getModule());
  // Warps, whatever the kernel's sub-group size: the scratch has a word for each of at most 32.
  SubGroupPlace place = subgroup_place(b, b.getInt32(32));
  llvm::Value *own = subgroup_collective(b, b.getInt32(32), kind, arith, is_unsigned, value);
  // The sub-group's total: the reduction itself, or the inclusive scan at its last lane.
  llvm::Value *total = kind == GroupCollective::Reduce ? own
                       : kind == GroupCollective::ScanInclusive
                           ? own
                           : group_combine(b, arith, is_unsigned, own, value);
  llvm::Value *last = b.CreateICmpEQ(place.lane, b.CreateSub(place.size, b.getInt32(1)));
  publish(b, words, last, place.id, to_word(b, total));
  if (kind == GroupCollective::Reduce) {
    llvm::Value *count = b.CreateLShr(b.CreateAdd(place.group_size, b.getInt32(31)), 5);
    return combine_entries(b, words, count, arith, is_unsigned, value->getType());
  }
  llvm::Value *before = combine_entries(b, words, place.id, arith, is_unsigned, value->getType());
  return group_combine(b, arith, is_unsigned, before, own);
}

// work_group_broadcast(x, id...): the work-item at the local id publishes x in the scratch's last word.
llvm::Value *broadcast(llvm::IRBuilder<> &b, llvm::Function &f) {
  llvm::GlobalVariable *words = scratch(*f.getParent());
  auto sreg = [&](nvvm::ID id) { return b.CreateZExt(call_intrinsic(b, id), b.getInt64Ty()); };
  llvm::Value *tid[3] = {sreg(nvvm::nvvm_read_ptx_sreg_tid_x), sreg(nvvm::nvvm_read_ptx_sreg_tid_y),
                         sreg(nvvm::nvvm_read_ptx_sreg_tid_z)};
  llvm::Value *chosen = b.getTrue();
  for (unsigned d = 0; d + 1 < f.arg_size() && d < 3; ++d) {
    chosen = b.CreateAnd(chosen, b.CreateICmpEQ(tid[d], b.CreateZExtOrTrunc(f.getArg(d + 1), b.getInt64Ty())));
  }
  publish(b, words, chosen, b.getInt32(32), to_word(b, f.getArg(0)));
  return from_word(b, b.CreateLoad(b.getInt64Ty(), slot(b, words, b.getInt32(32))), f.getReturnType());
}

bool scalar_of_64_bits(llvm::Type *type) {
  unsigned bits = type->isPointerTy() ? 64 : type->getPrimitiveSizeInBits();
  return (type->isIntegerTy() || type->isFloatingPointTy() || type->isPointerTy()) && bits > 0 && bits <= 64;
}

llvm::Value *vote(llvm::IRBuilder<> &b, GroupArith arith, llvm::Value *predicate) {
  llvm::Value *truth = b.CreateZExt(b.CreateICmpNE(predicate, llvm::Constant::getNullValue(predicate->getType())),
                                    b.getInt32Ty());
  return reduce_or_scan(b, GroupCollective::Reduce, arith, true, truth);
}

std::optional<std::pair<GroupCollective, GroupArith>> arithmetic(llvm::StringRef base) {
  if (!base.consume_front("work_group_")) return std::nullopt;
  GroupCollective kind;
  if (base.consume_front("reduce_")) kind = GroupCollective::Reduce;
  else if (base.consume_front("scan_inclusive_")) kind = GroupCollective::ScanInclusive;
  else if (base.consume_front("scan_exclusive_")) kind = GroupCollective::ScanExclusive;
  else return std::nullopt;
  std::optional<GroupArith> arith = group_arith(base);
  if (!arith) return std::nullopt;
  return std::make_pair(kind, *arith);
}

} // namespace

void define_workgroup_collectives(llvm::Module &module) {
  for (llvm::Function &f : module) {
    if (!f.isDeclaration() || f.isIntrinsic() || f.arg_size() == 0) continue;
    llvm::StringRef base = opencl_base_name(f.getName());
    auto arith = arithmetic(base);
    bool known = arith || base == "work_group_broadcast" || base == "work_group_all" || base == "work_group_any";
    if (!known || !scalar_of_64_bits(f.getArg(0)->getType()) || f.getReturnType()->isVoidTy()) continue;
    if (arith && f.getArg(0)->getType()->isPointerTy()) continue;
    llvm::IRBuilder<> b = begin_definition(f);
    f.addFnAttr(llvm::Attribute::Convergent);
    llvm::Value *result = nullptr;
    if (arith) result = reduce_or_scan(b, arith->first, arith->second, first_parameter_unsigned(f.getName()), f.getArg(0));
    else if (base == "work_group_broadcast") result = broadcast(b, f);
    else result = vote(b, base == "work_group_all" ? GroupArith::And : GroupArith::Or, f.getArg(0));
    b.CreateRet(b.CreateZExtOrBitCast(result, f.getReturnType()));
  }
}

} // namespace zeal::cuda
