// What the parts of region compilation share (preparation, emission, run time): sync points and the work-item frame.
//
// Continuation-based synchronisation: every barrier and every collective
// starts a region, the code reachable from it without crossing another. Each
// region is cloned into x/y/z work-item loops; a dispatcher runs the region the
// work-items stopped at (they usually all stop at the same place) until they
// return. A collective ends a region like a barrier, but only its sub-group
// waits for it: the dispatcher combines each sub-group's posts (with the call
// site's compiled combine when the whole group waits there, else on the host),
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
  // The call of each collective, zeal_cpu_subgroup(work_item, code, in, arg, out), in the block before it.
  std::vector<llvm::CallInst *> collective_calls;
};

// An alloca widened to one slot per work-item: work-item i's slot is at base + i * stride.
struct SlotArray {
  llvm::Value *base = nullptr; // i8*, in the prologue
  uint64_t stride = 0;
};

// What the dispatcher needs to combine one collective call site itself, in
// compiled code, when every work-item of the group waits there.
struct CollectiveSite {
  uint32_t code = 0;                   // sg_code(); 0 with `found` false when the call's code is not constant
  SlotArray post, out;                 // the lanes' posted values and results (out.base null: no result)
  llvm::Type *post_type = nullptr;     // the post's type before widening
  llvm::Type *out_type = nullptr;      // the result's, or null
  llvm::ConstantInt *arg = nullptr;    // the call's argument when it is a constant
  bool found = false;                  // post and out were found as widened slots
  int post_index = -1, out_index = -1; // their allocas' places in the list given to widen_allocas()
};

// What the work-group keeps per work-item, in the thread's region scratch.
struct RegionFrame {
  llvm::Value *size[3]; // local sizes, loaded in the prologue
  llvm::Value *total;   // work-items in the group
  // i32 per work-item: the region it runs next (a sync block's id, or
  // exit_region); with region_waits set, the collective it waits at first.
  llvm::Value *next;
  // i32 per work-item, when the kernel has collectives: its argument at the
  // collective it waits at, when that argument is not a constant.
  llvm::Value *args = nullptr;
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
// `next`, then the collective arguments if any, then one per alloca) and
// replaces each alloca by its work-item's slot; `slots[i]` receives where
// allocas[i]'s slots are.
RegionFrame widen_allocas(llvm::Function &function, llvm::BasicBlock &prologue, llvm::ArrayRef<llvm::AllocaInst *> allocas,
                          bool collectives, std::vector<SlotArray> &slots);

// What each collective call site posts and receives, found before widening
// (`widened` are the allocas widen_allocas() is given) and completed from its
// `slots`: one CollectiveSite per blocks.collective_calls entry. A site whose
// buffers are not widened allocas (not made by define_collective) is not found.
std::vector<CollectiveSite> describe_collective_sites(const SyncBlocks &blocks, llvm::ArrayRef<llvm::AllocaInst *> widened);
void locate_collective_slots(std::vector<CollectiveSite> &sites, llvm::ArrayRef<SlotArray> slots);

// Each collective call (whose post and result buffers are the work-item's
// slots by now) goes; what stays is the work-item's argument in frame.args
// when it is not a constant. The dispatcher combines a sub-group once all its
// lanes have stopped.
void lower_collective_calls(llvm::Function &function, const RegionFrame &frame, llvm::Function *collective);

// --- Collectives compiled into the dispatcher (region_collectives.cpp) ---------------------------------------

// When every work-item of the group waits at collective site `id` and every
// sub-group is whole, the dispatcher runs the block this returns instead of
// the host's combine: a loop over the sub-groups that loads each one's posts
// as vectors, computes every lane's result with vector operations (reductions,
// scans, shuffles as gathers, votes, ballots) and stores them; then it
// branches to `resume`, where every lane resumes after the site (their `next`
// is not written: the dispatcher is told). The results are the
// host's, bit for bit (floating-point reductions and scans keep lane order).
// Null when the site's collective is left to the host (half elements, a
// clustered reduction of a non-constant size, slots laid out otherwise).
llvm::BasicBlock *emit_inline_collective(llvm::Function &function, const RegionFrame &frame, const CollectiveSite &site,
                                         uint32_t id, uint32_t subgroup_size, llvm::BasicBlock *resume);

// The same combine for one sub-group, emitted where `b` is: the sub-group whose
// lanes are the work-items with linear ids first .. first + S - 1. False, with
// nothing emitted, when emit_inline_collective() would return null.
bool emit_subgroup_combine(llvm::IRBuilder<> &b, const RegionFrame &frame, const CollectiveSite &site,
                           uint32_t subgroup_size, llvm::Value *first);

// Lifetime markers and variable locations describe allocas that are about to
// become slots shared by a work-group; they would only mislead the optimiser.
void drop_markers(llvm::Function &function);

} // namespace zeal::cpu::detail
