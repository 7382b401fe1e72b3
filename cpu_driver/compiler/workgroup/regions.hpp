// What the parts of region compilation share (preparation, emission, run time): sync points and the work-item frame.
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
#pragma once

#include "cpu_driver/compiler/host_runtime.hpp"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Function.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace zeal::cpu::detail {

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

// The blocks that mark sync points; each starts the region that runs after it.
struct SyncBlocks {
  // In block order, which orders the collective sites as fibers order call
  // sites by address: a loop's collectives come before those after it.
  std::vector<llvm::BasicBlock *> collectives;
  std::vector<llvm::BasicBlock *> barriers;
};

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
inline constexpr uint32_t exit_region = region_waits - 1;

// --- Preparation (region_prepare.cpp): one function holding every sync point, in a shape regions can be cut from.

// Inlines every call that may reach a barrier or collective, so that all sync
// points of the kernel are in one function. Recursion cannot be inlined away.
std::optional<Unsupported> inline_sync_calls(llvm::Function &function, const SyncFunctions &sync);

// Scalars whose address is never taken live in registers from here on.
std::optional<Unsupported> promote_allocas(llvm::Function &function, llvm::BasicBlock &prologue);

// Gives each sync call an empty block of its own that marks it. A barrier call
// is removed; a collective call moves to the end of the block before, where
// lower_collective_calls() turns it into the work-item's post.
SyncBlocks isolate_sync_points(llvm::Function &function, const SyncFunctions &sync);

// Values used after a barrier that may separate them from their definition are
// recomputed there (once, in the prologue, when the whole work-group shares
// them: local memory's base, group ids, sizes), or demoted to allocas that
// widen_allocas() gives one slot per work-item. Returns the new allocas.
std::vector<llvm::AllocaInst *> handle_crossing_values(llvm::Function &function, llvm::BasicBlock &prologue,
                                                       const BlockSet &barriers);

// Lays out the scratch (arrays of `total` slots, each 64-byte aligned: first
// `next`, then the collective records if any, then one per alloca) and
// replaces each alloca by its work-item's slot.
RegionFrame widen_allocas(llvm::Function &function, llvm::BasicBlock &prologue, llvm::ArrayRef<llvm::AllocaInst *> allocas,
                          bool collectives);

// Each collective call (whose post and result buffers are the work-item's
// slots by now) becomes the work-item's CollectiveRecord; the dispatcher
// reads the records of a sub-group once all its lanes have stopped.
void lower_collective_calls(llvm::Function &function, const RegionFrame &frame, llvm::Function *collective);

// Lifetime markers and variable locations describe allocas that are about to
// become slots shared by a work-group; they would only mislead the optimiser.
void drop_markers(llvm::Function &function);

} // namespace zeal::cpu::detail
