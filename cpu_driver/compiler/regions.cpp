// Kernels with work-group barriers compiled into barrier-free regions that run as work-item loops.
//
// Continuation-based synchronisation: every barrier starts a region, the code
// reachable from it without crossing another barrier. Each region is cloned
// into x/y/z work-item loops; a dispatcher runs the region the work-items
// stopped at (they all stop at the same barrier) until they return. Values
// live across a barrier move to per-work-item slots of a per-thread scratch
// buffer, unless they can be recomputed from the work-item's ids.
#include "cpu_driver/compiler/host_runtime.hpp"

#include "common/log.hpp"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
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

// Functions from which a barrier is reachable through direct calls.
llvm::SmallPtrSet<llvm::Function *, 16> functions_reaching(llvm::Module &module, llvm::Function &barrier) {
  llvm::SmallPtrSet<llvm::Function *, 16> found{&barrier};
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

// Inlines every call that may reach a barrier, so that all barriers of the
// kernel are in one function. Recursion cannot be inlined away.
std::optional<Unsupported> inline_barrier_calls(llvm::Function &function, llvm::Function &barrier) {
  auto reaching = functions_reaching(*function.getParent(), barrier);
  for (unsigned round = 0;; ++round) {
    llvm::CallBase *target = nullptr;
    for (llvm::Instruction &inst : llvm::instructions(function)) {
      auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
      if (call == nullptr || call->isInlineAsm()) continue;
      llvm::Function *callee = call->getCalledFunction();
      if (callee == nullptr) return Unsupported{"an indirect call may reach a barrier"};
      if (callee != &barrier && reaching.contains(callee)) {
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

// Puts each barrier call alone at the start of a block, then removes the call:
// the block itself marks the barrier.
std::vector<llvm::BasicBlock *> isolate_barriers(llvm::Function &function, llvm::Function &barrier) {
  std::vector<llvm::CallInst *> calls;
  for (llvm::Instruction &inst : llvm::instructions(function)) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
    if (call != nullptr && call->getCalledFunction() == &barrier) calls.push_back(call);
  }
  std::vector<llvm::BasicBlock *> blocks;
  for (llvm::CallInst *call : calls) {
    llvm::BasicBlock *block = call->getParent()->splitBasicBlock(call, "barrier");
    block->splitBasicBlock(call->getNextNode(), "after.barrier");
    call->eraseFromParent();
    blocks.push_back(block);
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

// Values used after a barrier that may separate them from their definition are
// recomputed there, or demoted to allocas that widen_allocas() gives one slot
// per work-item. Returns the new allocas.
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
  // i32 per work-item: the region it runs next (a barrier's id, or exit_region).
  llvm::Value *next;
  // i1 alloca, set by the dispatcher: every work-item waits at the same barrier
  // (the usual case), so no work-item needs its own test.
  llvm::Value *uniform = nullptr;
  uint64_t slot_bytes = 0; // bytes per work-item, `next` included
};

constexpr uint32_t exit_region = ~uint32_t{0};

// Lays out the scratch (arrays of `total` slots, each 64-byte aligned: first
// `next`, then one per alloca) and replaces each alloca by its work-item's slot.
RegionFrame widen_allocas(llvm::Function &function, llvm::BasicBlock &prologue, llvm::ArrayRef<llvm::AllocaInst *> allocas) {
  llvm::Value *work_item = function.getArg(1);
  const llvm::DataLayout &layout = function.getParent()->getDataLayout();
  llvm::IRBuilder<> b(prologue.getTerminator());
  RegionFrame frame;
  for (unsigned d = 0; d < 3; ++d) frame.size[d] = load_work_item(b, work_item, LocalSize, d);
  frame.total = b.CreateMul(b.CreateMul(frame.size[0], frame.size[1]), frame.size[2], "group.items");
  std::vector<uint64_t> strides{4};
  for (llvm::AllocaInst *alloca : allocas) {
    uint64_t align = std::max<uint64_t>(alloca->getAlign().value(), 16);
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
  for (size_t i = 0; i < allocas.size(); ++i) {
    llvm::AllocaInst *alloca = allocas[i];
    b.SetInsertPoint(prologue.getTerminator());
    llvm::Value *base = b.CreateInBoundsGEP(b.getInt8Ty(), scratch, offsets[i + 1]);
    std::vector<llvm::Instruction *> users;
    for (llvm::User *user : alloca->users()) users.push_back(llvm::cast<llvm::Instruction>(user));
    for (llvm::Instruction *user : users) {
      b.SetInsertPoint(user);
      llvm::Value *offset = b.CreateMul(local_linear_id(b, work_item), b.getInt64(strides[i + 1]));
      llvm::Value *slot = b.CreatePointerCast(b.CreateInBoundsGEP(b.getInt8Ty(), base, offset), alloca->getType());
      user->replaceUsesOfWith(alloca, slot);
    }
    alloca->eraseFromParent();
  }
  return frame;
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

// Wraps `entry` (the clone of region `id`'s first block) in z/y/x work-item
// loops; `latch` is where each work-item's run of the region ends. When
// `checked`, only the work-items waiting at the region's barrier run it:
// sub-group barriers reach this driver as work-group barriers, and sub-groups
// may legally wait at different ones. Returns the nest's first block; after
// the last work-item the nest goes to `dispatch`; `from` branches to it.
llvm::BasicBlock *emit_loops(llvm::Function &function, const RegionFrame &frame, llvm::BasicBlock *entry,
                             llvm::BasicBlock *latch, llvm::BasicBlock *from, llvm::BasicBlock *dispatch, uint32_t id,
                             bool checked) {
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
    llvm::Value *waiting = b.CreateLoad(b.getInt32Ty(), b.CreateInBoundsGEP(b.getInt32Ty(), frame.next, linear));
    b.CreateCondBr(b.CreateICmpEQ(waiting, b.getInt32(id)), entry, latch);
  }
  // latch -> lid0.done -> lid1.done: each increments its id.
  for (unsigned d = 0; d < 3; ++d) {
    llvm::BasicBlock *step = d == 0 ? latch : dones[d - 1];
    b.SetInsertPoint(step);
    llvm::Value *next = b.CreateNUWAdd(ids[d], b.getInt64(1));
    ids[d]->addIncoming(next, step);
    b.CreateCondBr(b.CreateICmpULT(next, frame.size[d]), headers[d], d == 2 ? dispatch : dones[d]);
  }
  return headers[2];
}

// Clones the blocks of the region starting at `entry` (barrier blocks end it)
// into its work-item loops and returns the loop nest's first block.
llvm::BasicBlock *clone_region(llvm::Function &function, const RegionFrame &frame, llvm::BasicBlock *entry, uint32_t id,
                               const llvm::DenseMap<llvm::BasicBlock *, uint32_t> &barrier_ids,
                               llvm::ArrayRef<llvm::BasicBlock *> originals, llvm::BasicBlock *from,
                               llvm::BasicBlock *dispatch, bool checked) {
  llvm::LLVMContext &context = function.getContext();
  BlockSet members{entry};
  std::vector<llvm::BasicBlock *> work{entry};
  while (!work.empty()) {
    llvm::BasicBlock *block = work.back();
    work.pop_back();
    for (llvm::BasicBlock *next : llvm::successors(block)) {
      if (!barrier_ids.count(next) && members.insert(next).second) work.push_back(next);
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
  llvm::DenseMap<llvm::BasicBlock *, llvm::BasicBlock *> exits;
  auto exit_to = [&](uint32_t next) {
    auto *block = llvm::BasicBlock::Create(context, "region." + std::to_string(id) + ".to." + std::to_string(next),
                                           &function);
    llvm::IRBuilder<> b(block);
    llvm::Value *linear = local_linear_id(b, function.getArg(1));
    b.CreateStore(b.getInt32(next), b.CreateInBoundsGEP(b.getInt32Ty(), frame.next, linear));
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
      auto barrier = barrier_ids.find(next);
      if (barrier == barrier_ids.end()) continue;
      auto [exit, fresh] = exits.try_emplace(next);
      if (fresh) exit->second = exit_to(barrier->second);
      terminator->setSuccessor(i, exit->second);
    }
  }
  llvm::remapInstructionsInBlocks(clones, map);
  return emit_loops(function, frame, llvm::cast<llvm::BasicBlock>(map[entry]), latch, from, dispatch, id, checked);
}

// dispatch: the lowest region id any work-item waits for runs next; when all
// have returned (exit_region is the highest id) the function returns.
llvm::SwitchInst *emit_dispatch(llvm::Function &function, const RegionFrame &frame, llvm::BasicBlock *dispatch,
                                unsigned cases) {
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
  lowest->addIncoming(b.getInt32(exit_region), dispatch);
  lowest->addIncoming(lower, scan);
  highest->addIncoming(b.getInt32(0), dispatch);
  highest->addIncoming(higher, scan);
  b.CreateCondBr(b.CreateICmpULT(next, frame.total), scan, pick);
  b.SetInsertPoint(pick);
  b.CreateStore(b.CreateICmpEQ(lower, higher), frame.uniform);
  return b.CreateSwitch(lower, exit, cases);
}

// Replaces the body (everything after the prologue) by one cloned loop nest per
// region and the dispatcher between them.
std::optional<Unsupported> build_dispatcher(llvm::Function &function, llvm::BasicBlock &prologue, const RegionFrame &frame,
                                            llvm::BasicBlock *start, llvm::ArrayRef<llvm::BasicBlock *> barriers) {
  std::vector<llvm::BasicBlock *> originals;
  for (llvm::BasicBlock &block : function) {
    if (&block != &prologue) originals.push_back(&block);
  }
  auto *dispatch = llvm::BasicBlock::Create(function.getContext(), "dispatch", &function);
  llvm::SwitchInst *switch_inst = emit_dispatch(function, frame, dispatch, unsigned(barriers.size()));
  llvm::DenseMap<llvm::BasicBlock *, uint32_t> barrier_ids;
  for (size_t i = 0; i < barriers.size(); ++i) barrier_ids[barriers[i]] = uint32_t(i + 1);
  // Every work-item starts in region 0, which nothing re-enters.
  llvm::BasicBlock *first = clone_region(function, frame, start, 0, barrier_ids, originals, &prologue, dispatch, false);
  llvm::cast<llvm::BranchInst>(prologue.getTerminator())->setSuccessor(0, first);
  // Each barrier's region twice: for all work-items when they all wait there
  // (then the loops vectorise as without barriers), and for those that do.
  for (size_t i = 0; i < barriers.size(); ++i) {
    uint32_t id = uint32_t(i + 1);
    auto *pick = llvm::BasicBlock::Create(function.getContext(), "region." + std::to_string(id) + ".pick", &function);
    switch_inst->addCase(llvm::ConstantInt::get(llvm::Type::getInt32Ty(function.getContext()), id), pick);
    llvm::BasicBlock *all = clone_region(function, frame, barriers[i], id, barrier_ids, originals, pick, dispatch, false);
    llvm::BasicBlock *some = clone_region(function, frame, barriers[i], id, barrier_ids, originals, pick, dispatch, true);
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
          return Unsupported{"internal error: a value crosses a barrier unnoticed"};
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
std::optional<Unsupported> form_regions(llvm::Function &function, llvm::Function &barrier, uint64_t &slot_bytes) {
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
  if (auto failed = inline_barrier_calls(function, barrier)) return failed;
  if (auto failed = promote_allocas(function, prologue)) return failed;
  // What promote_allocas left, arrays and variables whose address is taken, may
  // hold values across a barrier.
  std::vector<llvm::AllocaInst *> widened;
  for (llvm::Instruction &inst : prologue) {
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst)) widened.push_back(alloca);
  }
  drop_markers(function);
  std::vector<llvm::BasicBlock *> barriers = isolate_barriers(function, barrier);
  // PHIs become allocas stored on the incoming edge: within a region, since
  // no barrier block has PHIs, so they need no per-work-item slot.
  std::vector<llvm::PHINode *> phis;
  for (llvm::BasicBlock &block : function) {
    for (llvm::PHINode &phi : block.phis()) phis.push_back(&phi);
  }
  for (llvm::PHINode *phi : phis) llvm::DemotePHIToStack(phi, &prologue.front());
  BlockSet barrier_set(barriers.begin(), barriers.end());
  for (llvm::AllocaInst *alloca : handle_crossing_values(function, prologue, barrier_set)) widened.push_back(alloca);
  RegionFrame frame = widen_allocas(function, prologue, widened);
  slot_bytes = frame.slot_bytes;
  return build_dispatcher(function, prologue, frame, start, barriers);
}

} // namespace

llvm::Function *build_region_function(llvm::Function &item, uint64_t &slot_bytes) {
  llvm::Module &module = *item.getParent();
  llvm::Function *barrier = module.getFunction(barrier_symbol);
  llvm::StringRef kernel = llvm::StringRef(item.getName()).drop_front(llvm::StringRef("zeal.wi.").size());
  if (barrier == nullptr) return nullptr;
  llvm::ValueToValueMapTy map;
  llvm::Function *function = llvm::CloneFunction(&item, map);
  function->setName("zeal.regions." + kernel);
  std::optional<Unsupported> failed = form_regions(*function, *barrier, slot_bytes);
  if (!failed) {
    std::string problems;
    llvm::raw_string_ostream out(problems);
    if (llvm::verifyFunction(*function, &out)) failed = Unsupported{"internal error: " + out.str()};
  }
  if (failed) {
    logger("zeal-cpu").debug("kernel '{}' runs its barriers on fibers: {}", kernel.str(), failed->reason);
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

} // namespace

std::span<const RuntimeSymbol> region_symbols() {
  static const RuntimeSymbol symbols[] = {{region_scratch_symbol, reinterpret_cast<void *>(&zeal_cpu_region_scratch)}};
  return symbols;
}

} // namespace zeal::cpu::detail
