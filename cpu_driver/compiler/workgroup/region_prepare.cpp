// Preparing a kernel for regions: sync calls inlined and isolated, values that cross them recomputed or widened.
#include "cpu_driver/compiler/workgroup/regions.hpp"

#include <algorithm>
#include <cstddef>

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

namespace zeal::cpu::detail {
namespace {

// Functions from which a sync function is reachable through direct calls.
// Walks up from the sync functions through their direct callers (the calls among
// each function's users): every call edge once, where a scan of the module to a
// fixed point went over every instruction once per level of calls, for every kernel.
llvm::SmallPtrSet<llvm::Function *, 16> functions_reaching(const SyncFunctions &sync) {
  llvm::SmallPtrSet<llvm::Function *, 16> found;
  std::vector<llvm::Function *> work;
  for (llvm::Function *root : {sync.barrier, sync.collective}) {
    if (root != nullptr && found.insert(root).second) work.push_back(root);
  }
  while (!work.empty()) {
    llvm::Function *callee = work.back();
    work.pop_back();
    for (llvm::User *user : callee->users()) {
      auto *call = llvm::dyn_cast<llvm::CallBase>(user);
      if (call == nullptr || call->getCalledFunction() != callee) continue;
      if (llvm::Function *caller = call->getFunction(); found.insert(caller).second) work.push_back(caller);
    }
  }
  return found;
}

// Blocks reachable from `starts` without entering `avoid`.
BlockSet reachable(llvm::ArrayRef<llvm::BasicBlock *> starts, const llvm::BasicBlock *avoid) {
  BlockSet seen;
  std::vector<llvm::BasicBlock *> work;
  for (llvm::BasicBlock *start : starts) {
    if (start != avoid && seen.insert(start).second) work.push_back(start);
  }
  while (!work.empty()) {
    llvm::BasicBlock *block = work.back();
    work.pop_back();
    for (llvm::BasicBlock *next : llvm::successors(block)) {
      if (next != avoid && seen.insert(next).second) work.push_back(next);
    }
  }
  return seen;
}

// The blocks where a value defined in `def` may be used after a barrier without
// being defined again: those reachable from a barrier reachable from `def`.
BlockSet after_barriers(llvm::BasicBlock *def, const BlockSet &barriers) {
  llvm::SmallVector<llvm::BasicBlock *, 8> successors(llvm::successors(def));
  llvm::SmallVector<llvm::BasicBlock *, 8> crossed;
  for (llvm::BasicBlock *block : reachable(successors, def)) {
    if (barriers.contains(block)) crossed.push_back(block);
  }
  return reachable(crossed, def);
}

// The object under constant offsets and casts of `pointer`.
llvm::Value *constant_base(llvm::Value *pointer) {
  for (;;) {
    if (auto *gep = llvm::dyn_cast<llvm::GEPOperator>(pointer); gep && gep->hasAllConstantIndices()) {
      pointer = gep->getPointerOperand();
    } else if (auto *cast = llvm::dyn_cast<llvm::BitCastOperator>(pointer)) {
      pointer = cast->getOperand(0);
    } else {
      return pointer;
    }
  }
}

// Loads of memory nothing writes while the work-group runs but the work-item
// loops: the WorkItem (ids and sizes) and the GroupContext it points to.
bool invariant_load(llvm::LoadInst &load, llvm::Value *work_item) {
  if (load.isVolatile()) return false;
  llvm::Value *base = constant_base(load.getPointerOperand());
  if (base == work_item) return true;
  auto *group = llvm::dyn_cast<llvm::LoadInst>(base);
  return group != nullptr && !group->isVolatile() && constant_base(group->getPointerOperand()) == work_item;
}

// True for values that are the same whenever the work-item computes them:
// constants, arguments, the prologue's values, invariant loads, and cheap
// arithmetic on those.
bool recomputable(llvm::Value *value, const llvm::BasicBlock &prologue, llvm::Value *work_item, unsigned depth = 0) {
  if (llvm::isa<llvm::Constant>(value) || llvm::isa<llvm::Argument>(value)) return true;
  auto *inst = llvm::dyn_cast<llvm::Instruction>(value);
  if (inst == nullptr) return false;
  if (inst->getParent() == &prologue) return true;
  if (depth > 8) return false;
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(inst)) {
    return invariant_load(*load, work_item) && recomputable(load->getPointerOperand(), prologue, work_item, depth + 1);
  }
  if (!llvm::isa<llvm::BinaryOperator>(inst) && !llvm::isa<llvm::CastInst>(inst) && !llvm::isa<llvm::CmpInst>(inst) &&
      !llvm::isa<llvm::SelectInst>(inst) && !llvm::isa<llvm::GetElementPtrInst>(inst)) {
    return false;
  }
  for (llvm::Value *operand : inst->operands()) {
    if (!recomputable(operand, prologue, work_item, depth + 1)) return false;
  }
  return true;
}

// A copy of `value`'s computation placed before `before` (see recomputable()).
llvm::Value *recompute(llvm::Value *value, llvm::Instruction *before, const llvm::BasicBlock &prologue) {
  auto *inst = llvm::dyn_cast<llvm::Instruction>(value);
  if (inst == nullptr || inst->getParent() == &prologue) return value;
  llvm::Instruction *copy = inst->clone();
  for (unsigned i = 0; i < copy->getNumOperands(); ++i) {
    copy->setOperand(i, recompute(copy->getOperand(i), before, prologue));
  }
  copy->insertBefore(before);
  return copy;
}

// True for the WorkItem's fields at `offset` that differ between work-items:
// the local id and the sub-group id and lane. The others, and the
// GroupContext, are fixed for the group.
bool per_work_item_field(uint64_t offset) {
  return offset < sizeof(HostWorkItem::local_id) || offset >= offsetof(HostWorkItem, subgroup_id);
}

// True when recomputable() `value` may be computed once, in the prologue, for
// the whole work-group: it reads no per-work-item field of the WorkItem and nothing in it can trap where the original did not run (a
// division, say, under a test of its divisor).
bool hoistable(llvm::Value *value, llvm::Value *work_item, const llvm::BasicBlock &prologue) {
  auto *inst = llvm::dyn_cast<llvm::Instruction>(value);
  if (inst == nullptr || inst->getParent() == &prologue) return true;
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(inst)) {
    const llvm::DataLayout &layout = load->getModule()->getDataLayout();
    llvm::APInt offset(64, 0);
    const llvm::Value *base = load->getPointerOperand()->stripAndAccumulateConstantOffsets(layout, offset, true);
    if (base == work_item && per_work_item_field(offset.getZExtValue())) return false;
  } else if (!llvm::isSafeToSpeculativelyExecute(inst)) {
    return false;
  }
  for (llvm::Value *operand : inst->operands()) {
    if (!hoistable(operand, work_item, prologue)) return false;
  }
  return true;
}

} // namespace

// Inlines every call that may reach a barrier or collective, so that all sync
// points of the kernel are in one function. Recursion cannot be inlined away.
// One scan of the function finds the calls to inline; after that only the calls
// each inlining brings in are looked at (InlinedCallSites), never the whole
// function again: a kernel of many collectives inlines hundreds of helpers.
std::optional<Unsupported> inline_sync_calls(llvm::Function &function, const SyncFunctions &sync) {
  auto reaching = functions_reaching(sync);
  struct Pending {
    llvm::CallBase *call;
    unsigned depth; // how many inlinings brought the call into the kernel
  };
  std::vector<Pending> pending;
  auto consider = [&](llvm::CallBase *call, unsigned depth) -> std::optional<Unsupported> {
    if (call->isInlineAsm()) return std::nullopt;
    llvm::Function *callee = call->getCalledFunction();
    if (callee == nullptr) return Unsupported{"an indirect call may reach a barrier"};
    if (!sync.contains(callee) && reaching.contains(callee)) pending.push_back({call, depth});
    return std::nullopt;
  };
  for (llvm::Instruction &inst : llvm::instructions(function)) {
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
      if (auto failed = consider(call, 0)) return failed;
  }
  while (!pending.empty()) {
    const Pending next = pending.back();
    pending.pop_back();
    if (next.depth == 256) return Unsupported{"barriers are reached through recursion"};
    llvm::InlineFunctionInfo info;
    if (llvm::InlineResult result = llvm::InlineFunction(*next.call, info); !result.isSuccess()) {
      return Unsupported{std::string("a function with a barrier cannot be inlined: ") + result.getFailureReason()};
    }
    for (llvm::CallBase *inlined : info.InlinedCallSites)
      if (auto failed = consider(inlined, next.depth + 1)) return failed;
  }
  return std::nullopt;
}

// Scalars whose address is never taken live in registers from here on.
std::optional<Unsupported> promote_allocas(llvm::Function &function, llvm::BasicBlock &prologue) {
  std::vector<llvm::AllocaInst *> promotable;
  for (llvm::Instruction &inst : llvm::instructions(function)) {
    auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst);
    if (alloca == nullptr) continue;
    if (alloca->getParent() != &prologue || !alloca->isStaticAlloca()) {
      return Unsupported{"private memory of a size known only at run time"};
    }
    if (llvm::isAllocaPromotable(alloca)) promotable.push_back(alloca);
  }
  llvm::DominatorTree dominators(function);
  if (!promotable.empty()) llvm::PromoteMemToReg(promotable, dominators);
  return std::nullopt;
}

// Gives each sync call an empty block of its own that marks it. A barrier call
// is removed; a collective call moves to the end of the block before, where
// lower_collective_calls() turns it into the work-item's post.
SyncBlocks isolate_sync_points(llvm::Function &function, const SyncFunctions &sync) {
  std::vector<llvm::CallInst *> calls;
  for (llvm::Instruction &inst : llvm::instructions(function)) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
    if (call != nullptr && sync.contains(call->getCalledFunction())) calls.push_back(call);
  }
  SyncBlocks blocks;
  for (llvm::CallInst *call : calls) {
    const bool collective = call->getCalledFunction() == sync.collective;
    llvm::BasicBlock *before = call->getParent();
    llvm::BasicBlock *block = before->splitBasicBlock(call, collective ? "collective" : "barrier");
    block->splitBasicBlock(call->getNextNode(), collective ? "after.collective" : "after.barrier");
    if (collective) {
      call->moveBefore(before->getTerminator());
      blocks.collectives.push_back(block);
      blocks.collective_calls.push_back(call);
    } else {
      call->eraseFromParent();
      blocks.barriers.push_back(block);
    }
  }
  return blocks;
}

// Values used after a barrier that may separate them from their definition are
// recomputed there (once, in the prologue, when the whole work-group shares
// them: local memory's base, group ids, sizes), or demoted to allocas that
// widen_allocas() gives one slot per work-item. Returns the new allocas.
std::vector<llvm::AllocaInst *> handle_crossing_values(llvm::Function &function, llvm::BasicBlock &prologue,
                                                       const BlockSet &barriers) {
  llvm::Value *work_item = function.getArg(1);
  llvm::Instruction *alloca_point = &prologue.front();
  std::vector<llvm::AllocaInst *> demoted;
  std::vector<llvm::Instruction *> candidates;
  for (llvm::BasicBlock &block : function) {
    if (&block == &prologue) continue;
    for (llvm::Instruction &inst : block) {
      if (!inst.getType()->isVoidTy()) candidates.push_back(&inst);
    }
  }
  llvm::DenseMap<llvm::BasicBlock *, BlockSet> crossing;
  for (llvm::Instruction *inst : candidates) {
    llvm::BasicBlock *def = inst->getParent();
    std::vector<llvm::Use *> uses;
    for (llvm::Use &use : inst->uses()) {
      auto *user = llvm::cast<llvm::Instruction>(use.getUser());
      if (user->getParent() == def) continue;
      auto [entry, fresh] = crossing.try_emplace(def);
      if (fresh) entry->second = after_barriers(def, barriers);
      if (entry->second.contains(user->getParent())) uses.push_back(&use);
    }
    if (uses.empty()) continue;
    if (recomputable(inst, prologue, work_item)) {
      if (hoistable(inst, work_item, prologue)) {
        llvm::Value *shared = recompute(inst, prologue.getTerminator(), prologue);
        for (llvm::Use *use : uses) use->set(shared);
        continue;
      }
      for (llvm::Use *use : uses) use->set(recompute(inst, llvm::cast<llvm::Instruction>(use->getUser()), prologue));
    } else {
      demoted.push_back(llvm::DemoteRegToStack(*inst, false, alloca_point));
    }
  }
  return demoted;
}

// Lays out the scratch (arrays of `total` slots, each 64-byte aligned: first
// `next`, then the collective arguments if any, then one per alloca) and
// replaces each alloca by its work-item's slot.
RegionFrame widen_allocas(llvm::Function &function, llvm::BasicBlock &prologue, llvm::ArrayRef<llvm::AllocaInst *> allocas,
                          bool collectives, std::vector<SlotArray> &slots) {
  llvm::Value *work_item = function.getArg(1);
  const llvm::DataLayout &layout = function.getParent()->getDataLayout();
  llvm::IRBuilder<> b(prologue.getTerminator());
  RegionFrame frame;
  for (unsigned d = 0; d < 3; ++d) {
    frame.size[d] = load_work_item(b, work_item, LocalSize, d);
    // The work-group function calls this one only for groups of work-items;
    // knowing it, LLVM keeps the local sizes as the trip counts of the loops
    // (no umax(size, 1)), which turns `(id + 1) % size` into a compare.
    b.CreateAssumption(b.CreateICmpNE(frame.size[d], b.getInt64(0)));
  }
  frame.total = b.CreateMul(b.CreateMul(frame.size[0], frame.size[1]), frame.size[2], "group.items");
  std::vector<uint64_t> strides{4};
  if (collectives) strides.push_back(sizeof(uint32_t));
  const size_t first_alloca = strides.size();
  for (llvm::AllocaInst *alloca : allocas) {
    const uint64_t align = alloca->getAlign().value();
    strides.push_back(llvm::alignTo(alloca->getAllocationSizeInBits(layout)->getFixedSize() / 8, align));
  }
  std::vector<llvm::Value *> offsets;
  llvm::Value *end = b.getInt64(0);
  for (uint64_t stride : strides) {
    offsets.push_back(end);
    frame.slot_bytes += stride;
    end = b.CreateAnd(b.CreateAdd(b.CreateAdd(end, b.CreateMul(frame.total, b.getInt64(stride))), b.getInt64(63)),
                      b.getInt64(~uint64_t{63}));
  }
  llvm::FunctionCallee scratch_fn =
      function.getParent()->getOrInsertFunction(region_scratch_symbol, b.getInt8PtrTy(), b.getInt64Ty());
  llvm::Value *scratch = b.CreateCall(scratch_fn, {end}, "region.scratch");
  frame.next = b.CreatePointerCast(scratch, b.getInt32Ty()->getPointerTo(), "next.region");
  frame.uniform = b.CreateAlloca(b.getInt1Ty(), nullptr, "uniform.region");
  if (collectives) {
    frame.args = b.CreatePointerCast(b.CreateInBoundsGEP(b.getInt8Ty(), scratch, offsets[1]),
                                     b.getInt32Ty()->getPointerTo(), "collective.args");
  }
  for (size_t i = 0; i < allocas.size(); ++i) {
    llvm::AllocaInst *alloca = allocas[i];
    const uint64_t stride = strides[first_alloca + i];
    b.SetInsertPoint(prologue.getTerminator());
    llvm::Value *base = b.CreateInBoundsGEP(b.getInt8Ty(), scratch, offsets[first_alloca + i]);
    slots.push_back(SlotArray{base, stride});
    std::vector<llvm::Instruction *> users;
    for (llvm::User *user : alloca->users()) users.push_back(llvm::cast<llvm::Instruction>(user));
    for (llvm::Instruction *user : users) {
      b.SetInsertPoint(user);
      llvm::Value *offset = b.CreateMul(local_linear_id(b, work_item), b.getInt64(stride));
      llvm::Value *slot = b.CreatePointerCast(b.CreateInBoundsGEP(b.getInt8Ty(), base, offset), alloca->getType());
      user->replaceUsesOfWith(alloca, slot);
    }
    alloca->eraseFromParent();
  }
  return frame;
}

std::vector<CollectiveSite> describe_collective_sites(const SyncBlocks &blocks, llvm::ArrayRef<llvm::AllocaInst *> widened) {
  auto index_of = [&](llvm::Value *pointer) {
    auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(pointer->stripPointerCasts());
    auto found = std::find(widened.begin(), widened.end(), alloca);
    return alloca != nullptr && found != widened.end() ? int(found - widened.begin()) : -1;
  };
  std::vector<CollectiveSite> sites;
  for (llvm::CallInst *call : blocks.collective_calls) {
    // zeal_cpu_subgroup(work_item, code, in, arg, out)
    CollectiveSite site;
    auto *code = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(1));
    site.arg = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(3));
    site.post_index = index_of(call->getArgOperand(2));
    llvm::Value *out = call->getArgOperand(4);
    const bool has_out = !llvm::isa<llvm::ConstantPointerNull>(out);
    site.out_index = has_out ? index_of(out) : -1;
    site.found = code != nullptr && site.post_index >= 0 && (!has_out || site.out_index >= 0);
    if (site.found) {
      site.code = uint32_t(code->getZExtValue());
      site.post_type = widened[size_t(site.post_index)]->getAllocatedType();
      if (has_out) site.out_type = widened[size_t(site.out_index)]->getAllocatedType();
    }
    sites.push_back(site);
  }
  return sites;
}

void locate_collective_slots(std::vector<CollectiveSite> &sites, llvm::ArrayRef<SlotArray> slots) {
  for (CollectiveSite &site : sites) {
    if (!site.found) continue;
    site.post = slots[size_t(site.post_index)];
    if (site.out_index >= 0) site.out = slots[size_t(site.out_index)];
  }
}

// Each collective call (whose post and result buffers are the work-item's
// slots by now) goes; what stays is the work-item's argument in frame.args
// when it is not a constant.
void lower_collective_calls(llvm::Function &function, const RegionFrame &frame, llvm::Function *collective) {
  if (collective == nullptr) return;
  std::vector<llvm::CallInst *> calls;
  for (llvm::User *user : collective->users()) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(user);
    if (call != nullptr && call->getFunction() == &function) calls.push_back(call);
  }
  for (llvm::CallInst *call : calls) {
    // zeal_cpu_subgroup(work_item, code, in, arg, out)
    llvm::Value *arg = call->getArgOperand(3);
    if (!llvm::isa<llvm::ConstantInt>(arg)) {
      llvm::IRBuilder<> b(call);
      b.CreateStore(arg, b.CreateInBoundsGEP(b.getInt32Ty(), frame.args, local_linear_id(b, call->getArgOperand(0))));
    }
    call->eraseFromParent();
  }
}

// Lifetime markers and variable locations describe allocas that are about to
// become slots shared by a work-group; they would only mislead the optimiser.
void drop_markers(llvm::Function &function) {
  for (llvm::Instruction &inst : llvm::make_early_inc_range(llvm::instructions(function))) {
    if (auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&inst)) {
      if (intrinsic->isLifetimeStartOrEnd() || llvm::isa<llvm::DbgInfoIntrinsic>(intrinsic)) intrinsic->eraseFromParent();
    }
  }
}

} // namespace zeal::cpu::detail
