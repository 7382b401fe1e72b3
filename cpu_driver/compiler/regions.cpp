// Kernels with work-group barriers or sub-group collectives compiled into sync-free regions that run as work-item loops.
//
// Continuation-based synchronisation: every barrier and every collective
// starts a region, the code reachable from it without crossing another. Each
// region is cloned into x/y/z work-item loops; a dispatcher runs the region the
// work-items stopped at (they usually all stop at the same place) until they
// return. A collective ends a region like a barrier, but only its sub-group
// waits for it: the dispatcher combines each sub-group's posts on the host,
// then the lanes that took part resume. Values live across a sync point move
// to per-work-item slots of a per-thread scratch buffer, unless they can be
// recomputed from the work-item's ids.
#include "cpu_driver/compiler/host_runtime.hpp"

#include "common/log.hpp"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace zeal::cpu::detail {
namespace {

using BlockSet = llvm::SmallPtrSet<llvm::BasicBlock *, 32>;

// Why a kernel keeps fibers; logged at debug level.
struct Unsupported {
  std::string reason;
};

// The host functions at which work-items wait for others: the work-group
// barrier and the sub-group collective (either may be absent from the module).
struct SyncFunctions {
  llvm::Function *barrier, *collective;
  bool contains(const llvm::Function *function) const {
    return function != nullptr && (function == barrier || function == collective);
  }
};

// Functions from which a sync function is reachable through direct calls.
llvm::SmallPtrSet<llvm::Function *, 16> functions_reaching(llvm::Module &module, const SyncFunctions &sync) {
  llvm::SmallPtrSet<llvm::Function *, 16> found;
  for (llvm::Function *root : {sync.barrier, sync.collective}) {
    if (root != nullptr) found.insert(root);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (llvm::Function &function : module) {
      if (found.contains(&function) || function.isDeclaration()) continue;
      for (llvm::Instruction &inst : llvm::instructions(function)) {
        auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
        if (call != nullptr && call->getCalledFunction() != nullptr && found.contains(call->getCalledFunction())) {
          found.insert(&function);
          changed = true;
          break;
        }
      }
    }
  }
  return found;
}

// Inlines every call that may reach a barrier or collective, so that all sync
// points of the kernel are in one function. Recursion cannot be inlined away.
std::optional<Unsupported> inline_sync_calls(llvm::Function &function, const SyncFunctions &sync) {
  auto reaching = functions_reaching(*function.getParent(), sync);
  for (unsigned round = 0;; ++round) {
    llvm::CallBase *target = nullptr;
    for (llvm::Instruction &inst : llvm::instructions(function)) {
      auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
      if (call == nullptr || call->isInlineAsm()) continue;
      llvm::Function *callee = call->getCalledFunction();
      if (callee == nullptr) return Unsupported{"an indirect call may reach a barrier"};
      if (!sync.contains(callee) && reaching.contains(callee)) {
        target = call;
        break;
      }
    }
    if (target == nullptr) return std::nullopt;
    if (round == 256) return Unsupported{"barriers are reached through recursion"};
    llvm::InlineFunctionInfo info;
    if (llvm::InlineResult result = llvm::InlineFunction(*target, info); !result.isSuccess()) {
      return Unsupported{std::string("a function with a barrier cannot be inlined: ") + result.getFailureReason()};
    }
  }
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

// The blocks that mark sync points; each starts the region that runs after it.
struct SyncBlocks {
  // In block order, which orders the collective sites as fibers order call
  // sites by address: a loop's collectives come before those after it.
  std::vector<llvm::BasicBlock *> collectives;
  std::vector<llvm::BasicBlock *> barriers;
};

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
    } else {
      call->eraseFromParent();
      blocks.barriers.push_back(block);
    }
  }
  return blocks;
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

// True when recomputable() `value` may be computed once, in the prologue, for
// the whole work-group: it reads no local id (the first field of the
// WorkItem; everything else there and in the GroupContext is fixed for the
// group) and nothing in it can trap where the original did not run (a
// division, say, under a test of its divisor).
bool hoistable(llvm::Value *value, llvm::Value *work_item, const llvm::BasicBlock &prologue) {
  auto *inst = llvm::dyn_cast<llvm::Instruction>(value);
  if (inst == nullptr || inst->getParent() == &prologue) return true;
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(inst)) {
    const llvm::DataLayout &layout = load->getModule()->getDataLayout();
    llvm::APInt offset(64, 0);
    const llvm::Value *base = load->getPointerOperand()->stripAndAccumulateConstantOffsets(layout, offset, true);
    if (base == work_item && offset.getZExtValue() < sizeof(HostWorkItem::local_id)) return false;
  } else if (!llvm::isSafeToSpeculativelyExecute(inst)) {
    return false;
  }
  for (llvm::Value *operand : inst->operands()) {
    if (!hoistable(operand, work_item, prologue)) return false;
  }
  return true;
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

// What the work-group keeps per work-item, in the thread's region scratch.
struct RegionFrame {
  llvm::Value *size[3]; // local sizes, loaded in the prologue
  llvm::Value *total;   // work-items in the group
  // i32 per work-item: the region it runs next (a sync block's id, or
  // exit_region); with region_waits set, the collective it waits at first.
  llvm::Value *next;
  // A CollectiveRecord per work-item, when the kernel has collectives.
  llvm::Value *records = nullptr;
  // i1 alloca, set by the dispatcher: every work-item waits at the same barrier
  // (the usual case), so no work-item needs its own test.
  llvm::Value *uniform = nullptr;
  uint64_t slot_bytes = 0; // bytes per work-item, `next` included
};

// Above every region id, below every waiting collective (region_waits | id).
constexpr uint32_t exit_region = region_waits - 1;

llvm::StructType *collective_record_type(llvm::LLVMContext &context) {
  llvm::Type *byte_pointer = llvm::Type::getInt8PtrTy(context);
  llvm::Type *word = llvm::Type::getInt32Ty(context);
  return llvm::StructType::get(context, {byte_pointer, byte_pointer, word, word});
}

// Lays out the scratch (arrays of `total` slots, each 64-byte aligned: first
// `next`, then the collective records if any, then one per alloca) and
// replaces each alloca by its work-item's slot.
RegionFrame widen_allocas(llvm::Function &function, llvm::BasicBlock &prologue, llvm::ArrayRef<llvm::AllocaInst *> allocas,
                          bool collectives) {
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
  if (collectives) strides.push_back(sizeof(CollectiveRecord));
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
    frame.records = b.CreatePointerCast(b.CreateInBoundsGEP(b.getInt8Ty(), scratch, offsets[1]),
                                        collective_record_type(function.getContext())->getPointerTo(),
                                        "collective.records");
  }
  for (size_t i = 0; i < allocas.size(); ++i) {
    llvm::AllocaInst *alloca = allocas[i];
    const uint64_t stride = strides[first_alloca + i];
    b.SetInsertPoint(prologue.getTerminator());
    llvm::Value *base = b.CreateInBoundsGEP(b.getInt8Ty(), scratch, offsets[first_alloca + i]);
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

// Each collective call (whose post and result buffers are the work-item's
// slots by now) becomes the work-item's CollectiveRecord; the dispatcher
// reads the records of a sub-group once all its lanes have stopped.
void lower_collective_calls(llvm::Function &function, const RegionFrame &frame, llvm::Function *collective) {
  if (collective == nullptr) return;
  llvm::StructType *record_type = collective_record_type(function.getContext());
  std::vector<llvm::CallInst *> calls;
  for (llvm::User *user : collective->users()) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(user);
    if (call != nullptr && call->getFunction() == &function) calls.push_back(call);
  }
  for (llvm::CallInst *call : calls) {
    // zeal_cpu_subgroup(work_item, code, in, arg, out)
    llvm::IRBuilder<> b(call);
    llvm::Value *record = b.CreateInBoundsGEP(record_type, frame.records, local_linear_id(b, call->getArgOperand(0)));
    llvm::Value *fields[] = {call->getArgOperand(2), call->getArgOperand(4), call->getArgOperand(1),
                             call->getArgOperand(3)};
    for (unsigned i = 0; i < 4; ++i) {
      llvm::Value *field = fields[i];
      if (field->getType()->isPointerTy()) field = b.CreatePointerCast(field, b.getInt8PtrTy());
      b.CreateStore(field, b.CreateStructGEP(record_type, record, i));
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

// Work-items between two sync points do not depend on each other: OpenCL
// makes unsynchronised conflicting accesses by different work-items a data
// race. So a region's x loop may be marked parallel (its accesses in one
// access group), which lets the loop vectoriser widen it without proving that
// local, global and slot accesses do not alias. Private variables the
// work-items share one at a time (the prologue's unwidened allocas, which
// SROA turns into registers) are left out of the group.
void mark_parallel_accesses(llvm::ArrayRef<llvm::BasicBlock *> blocks, const llvm::BasicBlock &prologue,
                            llvm::MDNode *accesses) {
  for (llvm::BasicBlock *block : blocks) {
    for (llvm::Instruction &inst : *block) {
      if (!inst.mayReadOrWriteMemory()) continue;
      llvm::Value *pointer = llvm::getLoadStorePointerOperand(&inst);
      auto *alloca = llvm::dyn_cast_or_null<llvm::AllocaInst>(pointer);
      if (alloca != nullptr && alloca->getParent() == &prologue) continue;
      inst.setMetadata(llvm::LLVMContext::MD_access_group, accesses);
    }
  }
}

// Loop metadata that declares the accesses in `accesses` free of loop-carried dependences.
llvm::MDNode *parallel_loop(llvm::LLVMContext &context, llvm::MDNode *accesses) {
  llvm::Metadata *parallel[] = {llvm::MDString::get(context, "llvm.loop.parallel_accesses"), accesses};
  llvm::Metadata *operands[] = {nullptr, llvm::MDNode::get(context, parallel)};
  llvm::MDNode *loop = llvm::MDNode::getDistinct(context, operands);
  loop->replaceOperandWith(0, loop);
  return loop;
}

// Wraps `entry` (the clone of region `id`'s first block) in z/y/x work-item
// loops; `latch` is where each work-item's run of the region ends. When
// `checked`, only the work-items waiting at the region's sync point run it:
// sub-group barriers reach this driver as work-group barriers, sub-groups may
// legally wait at different ones, and only some lanes may have passed a
// collective. Returns the nest's first block; after
// the last work-item the nest goes to `dispatch`; `from` branches to it.
llvm::BasicBlock *emit_loops(llvm::Function &function, const RegionFrame &frame, llvm::BasicBlock *entry,
                             llvm::BasicBlock *latch, llvm::BasicBlock *from, llvm::BasicBlock *dispatch, uint32_t id,
                             bool checked, llvm::MDNode *accesses) {
  llvm::LLVMContext &context = function.getContext();
  llvm::Value *work_item = function.getArg(1);
  llvm::StructType *type = work_item_type(context);
  const std::string name = "region." + std::to_string(id);
  llvm::BasicBlock *headers[3], *dones[2];
  for (unsigned d = 0; d < 3; ++d) {
    headers[d] = llvm::BasicBlock::Create(context, name + ".lid" + std::to_string(d), &function);
  }
  for (unsigned d = 0; d < 2; ++d) {
    dones[d] = llvm::BasicBlock::Create(context, name + ".lid" + std::to_string(d) + ".done", &function);
  }
  llvm::PHINode *ids[3];
  llvm::IRBuilder<> b(context);
  for (unsigned d = 3; d-- > 0;) { // z outermost
    b.SetInsertPoint(headers[d]);
    ids[d] = b.CreatePHI(b.getInt64Ty(), 2);
    ids[d]->addIncoming(b.getInt64(0), d == 2 ? from : headers[d + 1]);
    b.CreateStore(ids[d], b.CreateInBoundsGEP(type, work_item, {b.getInt32(0), b.getInt32(LocalId), b.getInt32(d)}));
    if (d > 0) b.CreateBr(headers[d - 1]);
  }
  if (!checked) {
    b.CreateBr(entry);
  } else {
    llvm::Value *linear = b.CreateAdd(b.CreateMul(b.CreateAdd(b.CreateMul(ids[2], frame.size[1]), ids[1]), frame.size[0]),
                                      ids[0]);
    llvm::LoadInst *waiting = b.CreateLoad(b.getInt32Ty(), b.CreateInBoundsGEP(b.getInt32Ty(), frame.next, linear));
    waiting->setMetadata(llvm::LLVMContext::MD_access_group, accesses);
    b.CreateCondBr(b.CreateICmpEQ(waiting, b.getInt32(id)), entry, latch);
  }
  // latch -> lid0.done -> lid1.done: each increments its id.
  for (unsigned d = 0; d < 3; ++d) {
    llvm::BasicBlock *step = d == 0 ? latch : dones[d - 1];
    b.SetInsertPoint(step);
    llvm::Value *next = b.CreateNUWAdd(ids[d], b.getInt64(1));
    ids[d]->addIncoming(next, step);
    llvm::BranchInst *back =
        b.CreateCondBr(b.CreateICmpULT(next, frame.size[d]), headers[d], d == 2 ? dispatch : dones[d]);
    if (d == 0) back->setMetadata(llvm::LLVMContext::MD_loop, parallel_loop(function.getContext(), accesses));
  }
  return headers[2];
}

// The ids of the sync blocks: collectives 1..C in block order, then barriers,
// so that lanes resuming after a collective run before any barrier opens.
struct SyncIds {
  llvm::DenseMap<llvm::BasicBlock *, uint32_t> of;
  uint32_t first_barrier = 1;
  // What a work-item reaching sync block `id` records in `next`.
  uint32_t waiting_at(uint32_t id) const { return id < first_barrier ? id | region_waits : id; }
};

// Clones the blocks of the region starting at `entry` (sync blocks end it)
// into its work-item loops and returns the loop nest's first block.
llvm::BasicBlock *clone_region(llvm::Function &function, const RegionFrame &frame, llvm::BasicBlock *entry, uint32_t id,
                               const SyncIds &sync_ids,
                               llvm::ArrayRef<llvm::BasicBlock *> originals, llvm::BasicBlock *from,
                               llvm::BasicBlock *dispatch, bool checked) {
  llvm::LLVMContext &context = function.getContext();
  BlockSet members{entry};
  std::vector<llvm::BasicBlock *> work{entry};
  while (!work.empty()) {
    llvm::BasicBlock *block = work.back();
    work.pop_back();
    for (llvm::BasicBlock *next : llvm::successors(block)) {
      if (!sync_ids.of.count(next) && members.insert(next).second) work.push_back(next);
    }
  }
  llvm::ValueToValueMapTy map;
  llvm::SmallVector<llvm::BasicBlock *, 32> clones;
  for (llvm::BasicBlock *block : originals) { // function order: deterministic output
    if (!members.contains(block)) continue;
    llvm::BasicBlock *clone = llvm::CloneBasicBlock(block, map, ".r" + llvm::Twine(id), &function);
    map[block] = clone;
    clones.push_back(clone);
  }
  auto *latch = llvm::BasicBlock::Create(context, "region." + std::to_string(id) + ".latch", &function);
  llvm::MDNode *accesses = llvm::MDNode::getDistinct(context, {});
  llvm::DenseMap<llvm::BasicBlock *, llvm::BasicBlock *> exits;
  auto exit_to = [&](uint32_t next) {
    auto *block = llvm::BasicBlock::Create(context, "region." + std::to_string(id) + ".to." + std::to_string(next),
                                           &function);
    llvm::IRBuilder<> b(block);
    llvm::Value *linear = local_linear_id(b, function.getArg(1));
    b.CreateStore(b.getInt32(next), b.CreateInBoundsGEP(b.getInt32Ty(), frame.next, linear))
        ->setMetadata(llvm::LLVMContext::MD_access_group, accesses);
    b.CreateBr(latch);
    return block;
  };
  for (llvm::BasicBlock *clone : clones) {
    llvm::Instruction *terminator = clone->getTerminator();
    if (llvm::isa<llvm::ReturnInst>(terminator)) {
      llvm::BranchInst::Create(exit_to(exit_region), terminator);
      terminator->eraseFromParent();
      continue;
    }
    for (unsigned i = 0; i < terminator->getNumSuccessors(); ++i) {
      llvm::BasicBlock *next = terminator->getSuccessor(i);
      auto sync = sync_ids.of.find(next);
      if (sync == sync_ids.of.end()) continue;
      auto [exit, fresh] = exits.try_emplace(next);
      if (fresh) exit->second = exit_to(sync_ids.waiting_at(sync->second));
      terminator->setSuccessor(i, exit->second);
    }
  }
  llvm::remapInstructionsInBlocks(clones, map);
  mark_parallel_accesses(clones, function.getEntryBlock(), accesses);
  return emit_loops(function, frame, llvm::cast<llvm::BasicBlock>(map[entry]), latch, from, dispatch, id, checked,
                    accesses);
}

// dispatch: the lowest region id any work-item waits for runs next; when all
// have returned (exit_region is the highest id) the function returns. Lanes
// resuming after a collective (the lowest ids) run first; when none is left
// but some wait at collectives, the host combines each sub-group's earliest
// one; only then may a barrier open.
llvm::SwitchInst *emit_dispatch(llvm::Function &function, const RegionFrame &frame, llvm::BasicBlock *dispatch,
                                unsigned cases, uint32_t first_barrier) {
  llvm::LLVMContext &context = function.getContext();
  auto *scan = llvm::BasicBlock::Create(context, "dispatch.scan", &function);
  auto *pick = llvm::BasicBlock::Create(context, "dispatch.pick", &function);
  auto *exit = llvm::BasicBlock::Create(context, "exit", &function);
  llvm::ReturnInst::Create(context, exit);
  llvm::IRBuilder<> b(dispatch);
  b.CreateBr(scan);
  b.SetInsertPoint(scan);
  llvm::PHINode *index = b.CreatePHI(b.getInt64Ty(), 2);
  llvm::PHINode *lowest = b.CreatePHI(b.getInt32Ty(), 2);
  llvm::PHINode *highest = b.CreatePHI(b.getInt32Ty(), 2);
  llvm::Value *waiting = b.CreateLoad(b.getInt32Ty(), b.CreateInBoundsGEP(b.getInt32Ty(), frame.next, index));
  llvm::Value *lower = b.CreateSelect(b.CreateICmpULT(waiting, lowest), waiting, lowest);
  llvm::Value *higher = b.CreateSelect(b.CreateICmpUGT(waiting, highest), waiting, highest);
  llvm::Value *next = b.CreateNUWAdd(index, b.getInt64(1));
  index->addIncoming(b.getInt64(0), dispatch);
  index->addIncoming(next, scan);
  lowest->addIncoming(b.getInt32(~uint32_t{0}), dispatch);
  lowest->addIncoming(lower, scan);
  highest->addIncoming(b.getInt32(0), dispatch);
  highest->addIncoming(higher, scan);
  b.CreateCondBr(b.CreateICmpULT(next, frame.total), scan, pick);
  b.SetInsertPoint(pick);
  if (frame.records != nullptr) {
    auto *combine = llvm::BasicBlock::Create(context, "dispatch.collectives", &function);
    auto *run = llvm::BasicBlock::Create(context, "dispatch.run", &function);
    llvm::Value *waits = b.CreateICmpUGE(higher, b.getInt32(region_waits));
    b.CreateCondBr(b.CreateAnd(waits, b.CreateICmpUGE(lower, b.getInt32(first_barrier))), combine, run);
    b.SetInsertPoint(combine);
    llvm::Value *work_item = function.getArg(1);
    llvm::FunctionCallee host = function.getParent()->getOrInsertFunction(
        region_collectives_symbol, b.getVoidTy(), frame.next->getType(), b.getInt8PtrTy(), b.getInt64Ty(),
        b.getInt64Ty());
    b.CreateCall(host, {frame.next, b.CreatePointerCast(frame.records, b.getInt8PtrTy()), frame.total,
                        load_work_item(b, work_item, SubgroupSize)});
    b.CreateBr(dispatch);
    b.SetInsertPoint(run);
  }
  b.CreateStore(b.CreateICmpEQ(lower, higher), frame.uniform);
  return b.CreateSwitch(lower, exit, cases);
}

// Replaces the body (everything after the prologue) by one cloned loop nest per
// region and the dispatcher between them.
std::optional<Unsupported> build_dispatcher(llvm::Function &function, llvm::BasicBlock &prologue, const RegionFrame &frame,
                                            llvm::BasicBlock *start, const SyncBlocks &blocks) {
  std::vector<llvm::BasicBlock *> originals;
  for (llvm::BasicBlock &block : function) {
    if (&block != &prologue) originals.push_back(&block);
  }
  std::vector<llvm::BasicBlock *> syncs(blocks.collectives);
  syncs.insert(syncs.end(), blocks.barriers.begin(), blocks.barriers.end());
  SyncIds sync_ids;
  sync_ids.first_barrier = uint32_t(blocks.collectives.size() + 1);
  for (size_t i = 0; i < syncs.size(); ++i) sync_ids.of[syncs[i]] = uint32_t(i + 1);
  auto *dispatch = llvm::BasicBlock::Create(function.getContext(), "dispatch", &function);
  llvm::SwitchInst *switch_inst =
      emit_dispatch(function, frame, dispatch, unsigned(syncs.size()), sync_ids.first_barrier);
  // Every work-item starts in region 0, which nothing re-enters.
  llvm::BasicBlock *first = clone_region(function, frame, start, 0, sync_ids, originals, &prologue, dispatch, false);
  llvm::cast<llvm::BranchInst>(prologue.getTerminator())->setSuccessor(0, first);
  // Each sync point's region twice: for all work-items when they all wait
  // there (then the loops vectorise as without barriers), and for those that do.
  for (size_t i = 0; i < syncs.size(); ++i) {
    uint32_t id = uint32_t(i + 1);
    auto *pick = llvm::BasicBlock::Create(function.getContext(), "region." + std::to_string(id) + ".pick", &function);
    switch_inst->addCase(llvm::ConstantInt::get(llvm::Type::getInt32Ty(function.getContext()), id), pick);
    llvm::BasicBlock *all = clone_region(function, frame, syncs[i], id, sync_ids, originals, pick, dispatch, false);
    llvm::BasicBlock *some = clone_region(function, frame, syncs[i], id, sync_ids, originals, pick, dispatch, true);
    llvm::IRBuilder<> b(pick);
    b.CreateCondBr(b.CreateLoad(b.getInt1Ty(), frame.uniform), all, some);
  }

  // Every value the clones use is theirs or the prologue's, unless a crossing
  // value was missed: then keep fibers rather than leave a dangling use.
  BlockSet old(originals.begin(), originals.end());
  for (llvm::BasicBlock *block : originals) {
    for (llvm::Instruction &inst : *block) {
      for (llvm::User *user : inst.users()) {
        if (!old.contains(llvm::cast<llvm::Instruction>(user)->getParent())) {
          return Unsupported{"internal error: a value crosses a sync point unnoticed"};
        }
      }
    }
  }
  for (llvm::BasicBlock *block : originals) block->dropAllReferences();
  for (llvm::BasicBlock *block : originals) block->eraseFromParent();
  return std::nullopt;
}

// The phases, on `function` = zeal.regions.<kernel>(args, work_item), a copy of
// the work-item function whose entry loads the arguments and calls the kernel.
std::optional<Unsupported> form_regions(llvm::Function &function, const SyncFunctions &sync, uint64_t &slot_bytes) {
  llvm::BasicBlock &prologue = function.getEntryBlock();
  llvm::CallInst *kernel_call = nullptr;
  for (llvm::Instruction &inst : prologue) {
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(&inst)) kernel_call = call;
  }
  assert(kernel_call != nullptr && "the work-item function calls its kernel");
  llvm::BasicBlock *start = prologue.splitBasicBlock(kernel_call, "start");
  llvm::InlineFunctionInfo info;
  if (llvm::InlineResult result = llvm::InlineFunction(*kernel_call, info); !result.isSuccess()) {
    return Unsupported{std::string("the kernel cannot be inlined: ") + result.getFailureReason()};
  }
  if (auto failed = inline_sync_calls(function, sync)) return failed;
  if (auto failed = promote_allocas(function, prologue)) return failed;
  // What promote_allocas left, arrays and variables whose address is taken, may
  // hold values across a barrier.
  std::vector<llvm::AllocaInst *> widened;
  for (llvm::Instruction &inst : prologue) {
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst)) widened.push_back(alloca);
  }
  drop_markers(function);
  SyncBlocks blocks = isolate_sync_points(function, sync);
  if (blocks.collectives.empty() && blocks.barriers.empty()) return Unsupported{"no barrier or collective is reached"};
  // PHIs become allocas stored on the incoming edge: within a region, since
  // no sync block has PHIs, so they need no per-work-item slot.
  std::vector<llvm::PHINode *> phis;
  for (llvm::BasicBlock &block : function) {
    for (llvm::PHINode &phi : block.phis()) phis.push_back(&phi);
  }
  for (llvm::PHINode *phi : phis) llvm::DemotePHIToStack(phi, &prologue.front());
  BlockSet sync_set(blocks.barriers.begin(), blocks.barriers.end());
  sync_set.insert(blocks.collectives.begin(), blocks.collectives.end());
  for (llvm::AllocaInst *alloca : handle_crossing_values(function, prologue, sync_set)) widened.push_back(alloca);
  RegionFrame frame = widen_allocas(function, prologue, widened, !blocks.collectives.empty());
  lower_collective_calls(function, frame, sync.collective);
  slot_bytes = frame.slot_bytes;
  return build_dispatcher(function, prologue, frame, start, blocks);
}

} // namespace

llvm::Function *build_region_function(llvm::Function &item, uint64_t &slot_bytes) {
  llvm::Module &module = *item.getParent();
  SyncFunctions sync{module.getFunction(barrier_symbol), module.getFunction(subgroup_symbol)};
  llvm::StringRef kernel = llvm::StringRef(item.getName()).drop_front(llvm::StringRef("zeal.wi.").size());
  if (sync.barrier == nullptr && sync.collective == nullptr) return nullptr;
  llvm::ValueToValueMapTy map;
  llvm::Function *function = llvm::CloneFunction(&item, map);
  function->setName("zeal.regions." + kernel);
  std::optional<Unsupported> failed = form_regions(*function, sync, slot_bytes);
  if (!failed) {
    std::string problems;
    llvm::raw_string_ostream out(problems);
    if (llvm::verifyFunction(*function, &out)) failed = Unsupported{"internal error: " + out.str()};
  }
  if (failed) {
    logger("zeal-cpu").debug("kernel '{}' runs its barriers and collectives on fibers: {}", kernel.str(), failed->reason);
    function->dropAllReferences();
    function->eraseFromParent();
    return nullptr;
  }
  return function;
}

namespace {

// One buffer per worker thread, reused by every work-group it runs.
struct RegionScratch {
  void *data = nullptr;
  uint64_t size = 0;
  ~RegionScratch() { std::free(data); }
};
thread_local RegionScratch region_scratch;

extern "C" void *zeal_cpu_region_scratch(uint64_t bytes) {
  RegionScratch &scratch = region_scratch;
  if (bytes <= scratch.size) return scratch.data;
  std::free(scratch.data);
  uint64_t size = std::max<uint64_t>((bytes + 4095) & ~uint64_t{4095}, 65536);
  scratch.data = std::aligned_alloc(64, size);
  if (scratch.data == nullptr) {
    std::fputs("zeal-cpu: out of memory for the values a work-group keeps across barriers\n", stderr);
    std::abort(); // JIT'd code has no way to fail a launch
  }
  scratch.size = size;
  return scratch.data;
}

// Called when no work-item is left to run but some wait at collectives:
// in each sub-group, the lanes waiting at the earliest collective (the lowest
// id) take part and get their results; they resume in the region after it.
// Lanes at later collectives wait for a later call, as with fibers.
extern "C" void zeal_cpu_region_collectives(uint32_t *next, const CollectiveRecord *records, uint64_t total,
                                            uint64_t subgroup_size) {
  const unsigned char *posts[sg_max_lanes];
  for (uint64_t first = 0; first < total; first += subgroup_size) {
    const uint32_t size = uint32_t(std::min(subgroup_size, total - first));
    uint32_t site = exit_region;
    for (uint32_t j = 0; j < size; ++j) {
      if (next[first + j] & region_waits) site = std::min(site, next[first + j] & ~region_waits);
    }
    if (site == exit_region) continue;
    uint64_t active = 0;
    for (uint32_t j = 0; j < size; ++j) {
      if (next[first + j] != (site | region_waits)) continue;
      active |= uint64_t{1} << j;
      posts[j] = static_cast<const unsigned char *>(records[first + j].in);
      next[first + j] = site;
    }
    combine_sub_group(CollectiveView{posts, active, 0, size, uint32_t(subgroup_size)}, records + first);
  }
}

} // namespace

std::span<const RuntimeSymbol> region_symbols() {
  static const RuntimeSymbol symbols[] = {
      {region_scratch_symbol, reinterpret_cast<void *>(&zeal_cpu_region_scratch)},
      {region_collectives_symbol, reinterpret_cast<void *>(&zeal_cpu_region_collectives)},
  };
  return symbols;
}

} // namespace zeal::cpu::detail
