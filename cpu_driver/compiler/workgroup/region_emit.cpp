// Emitting regions: each region cloned into work-item loops, and the dispatcher that runs them in turn.
#include "cpu_driver/compiler/workgroup/regions.hpp"

#include "common/log.hpp"

#include <fmt/format.h>

#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <algorithm>
#include <map>
#include <set>

namespace zeal::cpu::detail {
namespace {

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
// A copy of a region run by work-item x = 0 before the x loop, which then starts at 1.
struct Peel {
  llvm::BasicBlock *entry = nullptr, *latch = nullptr;
};

llvm::BasicBlock *emit_loops(llvm::Function &function, const RegionFrame &frame, llvm::BasicBlock *entry,
                             llvm::BasicBlock *latch, const Peel &peel, llvm::BasicBlock *from,
                             llvm::BasicBlock *dispatch, uint32_t id, bool checked, llvm::MDNode *accesses) {
  llvm::LLVMContext &context = function.getContext();
  llvm::Value *work_item = function.getArg(1);
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
  // Work-item (x, ids[1], ids[2]): its x and sub-group ids stored, its linear id returned.
  auto store_ids = [&](llvm::IRBuilder<> &at, llvm::Value *x) {
    at.CreateStore(x, work_item_field(at, work_item, LocalId, 0));
    llvm::Value *row = at.CreateMul(at.CreateAdd(at.CreateMul(ids[2], frame.size[1]), ids[1]), frame.size[0]);
    llvm::Value *linear = at.CreateAdd(row, x);
    store_subgroup_ids(at, work_item, linear);
    return linear;
  };
  // With a peel, the y header goes to x0 (work-item 0's copy), whose latch enters the x loop at 1 when the row has more.
  llvm::BasicBlock *x0 =
      peel.entry != nullptr ? llvm::BasicBlock::Create(context, name + ".x0", &function) : nullptr;
  for (unsigned d = 3; d-- > 0;) { // z outermost
    b.SetInsertPoint(headers[d]);
    ids[d] = b.CreatePHI(b.getInt64Ty(), 2);
    if (d == 0 && x0 != nullptr) ids[d]->addIncoming(b.getInt64(1), peel.latch);
    else ids[d]->addIncoming(b.getInt64(0), d == 2 ? from : headers[d + 1]);
    if (d > 0) {
      b.CreateStore(ids[d], work_item_field(b, work_item, LocalId, d));
      b.CreateBr(d == 1 && x0 != nullptr ? x0 : headers[d - 1]);
    }
  }
  if (x0 != nullptr) {
    llvm::IRBuilder<> first(x0);
    store_ids(first, first.getInt64(0));
    first.CreateBr(peel.entry);
    first.SetInsertPoint(peel.latch);
    first.CreateCondBr(first.CreateICmpULT(first.getInt64(1), frame.size[0]), headers[0], dones[0]);
  }
  llvm::Value *linear = store_ids(b, ids[0]);
  if (!checked) {
    b.CreateBr(entry);
  } else {
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

// Where the dispatcher decides what runs next from the lowest and the highest
// `next` of the group's work-items: `scan` reads them all; a block from
// known() goes on as if every work-item's were `target`, whose `next` need not
// hold it then. Wherever a work-item's `next` is read (the scan, the loops of
// work-items that wait at different places, the host's combine), every
// work-item's is up to date: regions that may leave them apart write them all,
// the host's combine is given them filled in.
struct Dispatcher {
  llvm::Function *function = nullptr;
  llvm::BasicBlock *scan = nullptr, *pick = nullptr;
  llvm::PHINode *lowest = nullptr, *highest = nullptr;
  llvm::SwitchInst *regions = nullptr; // in pick's successor: region id -> its loops
  std::map<uint32_t, llvm::BasicBlock *> known_blocks;

  llvm::BasicBlock *known(uint32_t target) {
    auto [at, fresh] = known_blocks.try_emplace(target);
    if (fresh) {
      at->second = llvm::BasicBlock::Create(function->getContext(), "dispatch.known." + std::to_string(target), function);
      llvm::BranchInst::Create(pick, at->second);
      auto *value = llvm::ConstantInt::get(llvm::Type::getInt32Ty(function->getContext()), target);
      lowest->addIncoming(value, at->second);
      highest->addIncoming(value, at->second);
    }
    return at->second;
  }
};

// Whether the region's blocks (`members`, reached from `entry`) form a cycle: a loop inside the region. An edge to
// a sync block, `entry` included, leaves the region.
bool has_cycle(llvm::BasicBlock *entry, const BlockSet &members, const SyncIds &sync_ids) {
  enum class Mark { Open, Done };
  llvm::DenseMap<llvm::BasicBlock *, Mark> marks;
  std::vector<std::pair<llvm::BasicBlock *, llvm::succ_iterator>> stack;
  marks[entry] = Mark::Open;
  stack.emplace_back(entry, llvm::succ_begin(entry));
  while (!stack.empty()) {
    auto &[block, next] = stack.back();
    if (next == llvm::succ_end(block)) {
      marks[block] = Mark::Done;
      stack.pop_back();
      continue;
    }
    llvm::BasicBlock *successor = *next++;
    if (!members.contains(successor) || sync_ids.of.count(successor)) continue;
    auto [mark, fresh] = marks.try_emplace(successor, Mark::Open);
    if (fresh) stack.emplace_back(successor, llvm::succ_begin(successor));
    else if (mark->second == Mark::Open) return true;
  }
  return false;
}

// A region: the blocks reached from its sync block (or the kernel's start)
// without crossing another, and where its work-items can go from there.
struct Region {
  llvm::BasicBlock *entry = nullptr;
  uint32_t id = 0;
  bool checked = false; // run by the work-items waiting at it only
  BlockSet members;
  std::set<uint32_t> targets; // what its work-items can record in `next`
  // Every work-item runs the region and all of them can only go one way: the
  // dispatcher is told where instead of reading each one's `next`, which is then left unwritten.
  bool one_way() const { return !checked && targets.size() == 1; }
};

Region describe_region(llvm::BasicBlock *entry, uint32_t id, const SyncIds &sync_ids) {
  Region region{entry, id, false, {entry}, {}};
  std::vector<llvm::BasicBlock *> work{entry};
  while (!work.empty()) {
    llvm::BasicBlock *block = work.back();
    work.pop_back();
    for (llvm::BasicBlock *next : llvm::successors(block)) {
      if (!sync_ids.of.count(next) && region.members.insert(next).second) work.push_back(next);
    }
  }
  for (llvm::BasicBlock *block : region.members) {
    if (llvm::isa<llvm::ReturnInst>(block->getTerminator())) region.targets.insert(exit_region);
    for (llvm::BasicBlock *next : llvm::successors(block)) {
      auto sync = sync_ids.of.find(next);
      if (sync != sync_ids.of.end()) region.targets.insert(sync_ids.waiting_at(sync->second));
    }
  }
  return region;
}

// What the build log says of a kernel's collective sites.
struct SiteSummary {
  std::vector<bool> compiled; // per site (id - 1): the dispatcher combines it in compiled code
  std::set<uint32_t> chained; // sites combined between lane loops, sub-group by sub-group
};

// What emitting the regions shares: the function, its frame and sync points, and the dispatcher.
struct RegionEmitter {
  llvm::Function &function;
  const RegionFrame &frame;
  const SyncIds &sync_ids;
  llvm::ArrayRef<llvm::BasicBlock *> syncs;     // sync block id - 1 -> the block
  llvm::ArrayRef<llvm::BasicBlock *> originals; // the kernel's blocks, in function order
  Dispatcher &dispatcher;
  llvm::ArrayRef<CollectiveSite> sites;
  SiteSummary &summary;
  uint32_t subgroup_size;
  // Regions a chain goes on to (the one after a compiled site some region
  // leads every work-item to). They start no chain of their own: the
  // dispatcher runs them when rows split sub-groups, where no chain can run,
  // or when work-items come another way, which is rare enough to leave to the
  // dispatcher rather than compile one more copy of the regions after them.
  std::set<uint32_t> continuations = {};
  // Region id -> its blocks and ways out, described once before any is cloned (as run by every work-item).
  std::vector<Region> described = {};

  // Region `id` as run by every work-item, or (`checked`) by those waiting at its sync point only.
  Region region_of(uint32_t id, bool checked) const {
    Region region = described[id];
    region.checked = checked;
    return region;
  }

  // One copy of the region's blocks, whose every way out ends at `latch`; their accesses join group `accesses`.
  llvm::BasicBlock *clone_once(const Region &region, const std::string &suffix, llvm::BasicBlock *latch,
                               llvm::MDNode *accesses) const {
    llvm::LLVMContext &context = function.getContext();
    llvm::ValueToValueMapTy map;
    llvm::SmallVector<llvm::BasicBlock *, 32> clones;
    for (llvm::BasicBlock *block : originals) { // function order: deterministic output
      if (!region.members.contains(block)) continue;
      llvm::BasicBlock *clone = llvm::CloneBasicBlock(block, map, suffix, &function);
      map[block] = clone;
      clones.push_back(clone);
    }
    llvm::DenseMap<llvm::BasicBlock *, llvm::BasicBlock *> exits;
    auto exit_to = [&](uint32_t next) {
      auto *block = llvm::BasicBlock::Create(
          context, "region." + std::to_string(region.id) + suffix + ".to." + std::to_string(next), &function);
      llvm::IRBuilder<> b(block);
      if (!region.one_way()) {
        llvm::Value *linear = local_linear_id(b, function.getArg(1));
        b.CreateStore(b.getInt32(next), b.CreateInBoundsGEP(b.getInt32Ty(), frame.next, linear))
            ->setMetadata(llvm::LLVMContext::MD_access_group, accesses);
      }
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
    return llvm::cast<llvm::BasicBlock>(map[region.entry]);
  }

  // Where the dispatcher goes on after every work-item has run `region`.
  llvm::BasicBlock *after(const Region &region) const {
    return region.one_way() ? dispatcher.known(*region.targets.begin()) : dispatcher.scan;
  }

  // Clones region `id` into its work-item loops and returns the first block of
  // what runs it; `from` branches there.
  llvm::BasicBlock *clone_region(uint32_t id, llvm::BasicBlock *from, bool checked) const {
    llvm::LLVMContext &context = function.getContext();
    const Region region = region_of(id, checked);
    llvm::BasicBlock *entry = region.entry;
    const std::string name = "region." + std::to_string(id);
    // When rows hold whole sub-groups, a region that starts a chain runs it
    // sub-group by sub-group (emit_chain); `choose` tests the rows.
    llvm::BasicBlock *choose = nullptr, *chain = nullptr;
    if (!checked && !continuations.count(id)) {
      std::vector<Region> regions = chain_from(region);
      if (regions.size() > 1) {
        choose = llvm::BasicBlock::Create(context, name + ".by_sub_group", &function);
        chain = emit_chain(regions, choose);
      }
    }
    llvm::MDNode *accesses = llvm::MDNode::getDistinct(context, {});
    auto *latch = llvm::BasicBlock::Create(context, name + ".latch", &function);
    llvm::BasicBlock *body = clone_once(region, ".r" + std::to_string(id), latch, accesses);
    // A loop inside the region keeps the vectoriser off its x loop, so the loop
    // runs once per work-item even where most of them skip the work (the usual
    // `if (get_local_id(0) == 0)` after a reduction). Work-item x = 0 runs from
    // a copy of its own: in the x loop from 1 the optimiser then knows such
    // tests' outcome, and a loop left with nothing to do goes.
    Peel peel;
    if (!checked && has_cycle(entry, region.members, sync_ids)) {
      peel.latch = llvm::BasicBlock::Create(context, name + ".x0.latch", &function);
      peel.entry = clone_once(region, ".r" + std::to_string(id) + ".x0", peel.latch, accesses);
    }
    llvm::BasicBlock *loops = emit_loops(function, frame, body, latch, peel, choose ? choose : from, after(region), id,
                                         checked, accesses);
    if (choose == nullptr) return loops;
    llvm::IRBuilder<> b(choose);
    llvm::Value *whole = b.CreateICmpEQ(b.CreateURem(frame.size[0], b.getInt64(subgroup_size)), b.getInt64(0));
    b.CreateCondBr(whole, chain, loops);
    return choose;
  }

  // The collective site (1..C) `region` leads every work-item to, when the
  // dispatcher compiled its combine: its chain may go on through that site.
  std::optional<uint32_t> next_site(const Region &region) const {
    if (!region.one_way() || subgroup_size == 0) return std::nullopt;
    const uint32_t target = *region.targets.begin();
    if ((target & region_waits) == 0) return std::nullopt;
    const uint32_t site = target & ~region_waits;
    if (site == 0 || site > summary.compiled.size() || !summary.compiled[site - 1]) return std::nullopt;
    return site;
  }

  // `first` and the regions after it that a chain runs: while a region leads
  // every work-item to a compiled collective, the region after that site
  // follows, until a region leads elsewhere (a barrier, the end, several
  // places) or back to a site already in the chain.
  std::vector<Region> chain_from(const Region &first) const {
    std::vector<Region> regions{first};
    std::set<uint32_t> seen{first.id};
    while (std::optional<uint32_t> site = next_site(regions.back())) {
      if (!seen.insert(*site).second) break;
      regions.push_back(region_of(*site, false));
    }
    return regions;
  }

  // A chain, sub-group by sub-group: for each sub-group, a loop over its S
  // lanes runs the first region; the combine of the site it ends at takes the
  // lanes' posts from the slots they were just stored to; a lane loop runs the
  // next region, and so on. The lane loops vectorise at width S, as the lane
  // loop of a kernel without barriers does (emit_x_loop), and the dispatcher
  // is not involved until the last sub-group is done. Sub-groups do not wait
  // for each other at a collective, so running one's chain before the next one
  // starts is a valid order. Needs rows of whole sub-groups (local_size[0] % S
  // == 0), which `from` tests. Returns the nest's first block.
  llvm::BasicBlock *emit_chain(const std::vector<Region> &regions, llvm::BasicBlock *from) const {
    llvm::LLVMContext &context = function.getContext();
    std::string name = "chain";
    for (const Region &region : regions) name += "." + std::to_string(region.id);
    auto block = [&](const std::string &suffix) { return llvm::BasicBlock::Create(context, name + suffix, &function); };
    llvm::BasicBlock *z = block(".lid2"), *y = block(".lid1"), *subgroup = block(".sub_group");
    llvm::BasicBlock *subgroup_done = block(".sub_group.done"), *y_done = block(".lid1.done"),
                     *z_done = block(".lid2.done");
    llvm::Value *work_item = function.getArg(1);
    auto counter = [&](llvm::BasicBlock *header, llvm::BasicBlock *entered_from, const std::string &label) {
      llvm::IRBuilder<> at(header);
      llvm::PHINode *phi = at.CreatePHI(at.getInt64Ty(), 2, name + label);
      phi->addIncoming(at.getInt64(0), entered_from);
      return phi;
    };
    llvm::PHINode *zid = counter(z, from, ".z"), *yid = counter(y, z, ".y"), *index = counter(subgroup, y, ".k");
    // Sub-group k of row (y, z): its lanes are x = k * S + lane, its first linear id row * size_x + k * S.
    llvm::IRBuilder<> b(z);
    b.CreateStore(zid, work_item_field(b, work_item, LocalId, 2));
    b.CreateBr(y);
    b.SetInsertPoint(y);
    b.CreateStore(yid, work_item_field(b, work_item, LocalId, 1));
    llvm::Value *row_index = b.CreateAdd(b.CreateMul(zid, frame.size[1]), yid);
    llvm::Value *size = b.getInt64(subgroup_size);
    llvm::Value *per_row = b.CreateUDiv(frame.size[0], size);
    llvm::Value *row_first = b.CreateMul(row_index, per_row); // the row's first sub-group
    llvm::Value *row_linear = b.CreateMul(row_index, frame.size[0]);
    b.CreateBr(subgroup);
    b.SetInsertPoint(subgroup);
    b.CreateStore(b.CreateAdd(row_first, index), work_item_field(b, work_item, SubgroupId, 0));
    llvm::Value *x0 = b.CreateMul(index, size);
    llvm::Value *first_lane = b.CreateAdd(row_linear, x0);
    // Each region's lane loop, then the combine of the site it ends at.
    llvm::BasicBlock *previous = subgroup;
    for (size_t r = 0; r < regions.size(); ++r) {
      const std::string suffix = ".c" + std::to_string(regions.front().id) + "." + std::to_string(regions[r].id);
      llvm::BasicBlock *header = block(suffix + ".lanes"), *latch = block(suffix + ".lanes.latch");
      llvm::BasicBlock *done = r + 1 < regions.size() ? block(suffix + ".combine") : subgroup_done;
      llvm::PHINode *lane = counter(header, previous, suffix + ".lane");
      llvm::BranchInst::Create(header, previous);
      llvm::MDNode *accesses = llvm::MDNode::getDistinct(context, {});
      llvm::BasicBlock *body = clone_once(regions[r], suffix, latch, accesses);
      b.SetInsertPoint(header);
      b.CreateStore(b.CreateAdd(x0, lane), work_item_field(b, work_item, LocalId, 0));
      b.CreateStore(lane, work_item_field(b, work_item, SubgroupLocalId, 0));
      b.CreateBr(body);
      b.SetInsertPoint(latch);
      llvm::Value *next = b.CreateNUWAdd(lane, b.getInt64(1));
      lane->addIncoming(next, latch);
      b.CreateCondBr(b.CreateICmpULT(next, size), header, done)
          ->setMetadata(llvm::LLVMContext::MD_loop, lane_loop_hints(context, subgroup_size, accesses));
      if (r + 1 == regions.size()) break;
      b.SetInsertPoint(done);
      const bool emitted = emit_subgroup_combine(b, frame, sites[regions[r + 1].id - 1], subgroup_size, first_lane);
      assert(emitted && "next_site() chose sites whose combine the dispatcher compiled");
      (void)emitted;
      summary.chained.insert(regions[r + 1].id);
      previous = done;
    }
    // Step k, then y, then z.
    auto step = [&](llvm::BasicBlock *at_block, llvm::PHINode *phi, llvm::Value *limit, llvm::BasicBlock *header,
                    llvm::BasicBlock *exit) {
      llvm::IRBuilder<> at(at_block);
      llvm::Value *next = at.CreateNUWAdd(phi, at.getInt64(1));
      phi->addIncoming(next, at_block);
      at.CreateCondBr(at.CreateICmpULT(next, limit), header, exit);
    };
    step(subgroup_done, index, per_row, subgroup, y_done);
    step(y_done, yid, frame.size[1], y, z_done);
    step(z_done, zid, frame.size[2], z, after(regions.back()));
    return z;
  }
};

// The RegionSite table the host's combine reads, filled where `b` is (only
// when the host combines); returns it as an i8*.
llvm::Value *describe_sites_for_host(llvm::Function &function, llvm::ArrayRef<CollectiveSite> sites, llvm::IRBuilder<> &b) {
  llvm::LLVMContext &context = function.getContext();
  llvm::Type *i8p = b.getInt8PtrTy(), *i64 = b.getInt64Ty(), *i32 = b.getInt32Ty();
  llvm::StructType *site_type = llvm::StructType::get(context, {i8p, i64, i8p, i64, i32, i32, i32, i32});
  auto *table_type = llvm::ArrayType::get(site_type, sites.size());
  llvm::IRBuilder<> entry(&*function.getEntryBlock().getFirstInsertionPt());
  llvm::AllocaInst *table = entry.CreateAlloca(table_type, nullptr, "collective.sites");
  for (size_t i = 0; i < sites.size(); ++i) {
    const CollectiveSite &site = sites[i];
    llvm::Value *fields[] = {
        site.post.base, b.getInt64(site.post.stride),
        site.out.base ? site.out.base : llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(i8p)),
        b.getInt64(site.out.stride), b.getInt32(site.code),
        b.getInt32(site.arg ? uint32_t(site.arg->getZExtValue()) : 0), b.getInt32(site.arg ? 0 : 1), b.getInt32(0)};
    for (unsigned f = 0; f < 8; ++f) {
      b.CreateStore(fields[f], b.CreateInBoundsGEP(table_type, table, {b.getInt32(0), b.getInt32(unsigned(i)), b.getInt32(f)}));
    }
  }
  return b.CreatePointerCast(table, i8p);
}

// The scan over every work-item's `next`, from dispatcher.scan into dispatcher.pick, where the builder is
// left and the dispatcher's `lowest` and `highest` are phis of what it found.
void emit_scan(llvm::IRBuilder<> &b, const RegionFrame &frame, Dispatcher &dispatcher, llvm::BasicBlock *scan) {
  llvm::BasicBlock *dispatch = dispatcher.scan, *pick = dispatcher.pick;
  b.SetInsertPoint(dispatch);
  b.CreateBr(scan);
  b.SetInsertPoint(scan);
  llvm::PHINode *index = b.CreatePHI(b.getInt64Ty(), 2);
  llvm::PHINode *lowest = b.CreatePHI(b.getInt32Ty(), 2);
  llvm::PHINode *highest = b.CreatePHI(b.getInt32Ty(), 2);
  llvm::Value *waiting = b.CreateLoad(b.getInt32Ty(), b.CreateInBoundsGEP(b.getInt32Ty(), frame.next, index));
  llvm::Value *scanned_lower = b.CreateSelect(b.CreateICmpULT(waiting, lowest), waiting, lowest);
  llvm::Value *scanned_higher = b.CreateSelect(b.CreateICmpUGT(waiting, highest), waiting, highest);
  llvm::Value *next = b.CreateNUWAdd(index, b.getInt64(1));
  index->addIncoming(b.getInt64(0), dispatch);
  index->addIncoming(next, scan);
  lowest->addIncoming(b.getInt32(~uint32_t{0}), dispatch);
  lowest->addIncoming(scanned_lower, scan);
  highest->addIncoming(b.getInt32(0), dispatch);
  highest->addIncoming(scanned_higher, scan);
  b.CreateCondBr(b.CreateICmpULT(next, frame.total), scan, pick);
  b.SetInsertPoint(pick);
  dispatcher.lowest = b.CreatePHI(b.getInt32Ty(), 2, "lowest");
  dispatcher.highest = b.CreatePHI(b.getInt32Ty(), 2, "highest");
  dispatcher.lowest->addIncoming(scanned_lower, scan);
  dispatcher.highest->addIncoming(scanned_higher, scan);
}

// When no work-item is left to run but some wait at collectives (the builder at the pick, `together`: every
// work-item waits at one site): each site's compiled combine when every work-item is there and every sub-group
// whole (compiled_sites[i] says which sites have one), else the host's, then a new scan. Leaves the builder
// where work-items are left to run.
void emit_collective_step(llvm::IRBuilder<> &b, const RegionFrame &frame, Dispatcher &dispatcher,
                          llvm::Value *together, uint32_t first_barrier, llvm::ArrayRef<CollectiveSite> sites,
                          uint32_t subgroup_size, std::vector<bool> &compiled_sites) {
  llvm::Function &function = *dispatcher.function;
  llvm::LLVMContext &context = function.getContext();
  llvm::Value *lower = dispatcher.lowest, *higher = dispatcher.highest;
  auto *combine = llvm::BasicBlock::Create(context, "dispatch.collectives", &function);
  auto *run = llvm::BasicBlock::Create(context, "dispatch.run", &function);
  llvm::Value *waits = b.CreateICmpUGE(higher, b.getInt32(region_waits));
  b.CreateCondBr(b.CreateAnd(waits, b.CreateICmpUGE(lower, b.getInt32(first_barrier))), combine, run);
  b.SetInsertPoint(combine);
  auto *host_combine = llvm::BasicBlock::Create(context, "dispatch.collectives.host", &function);
  // Every work-item at one site, every sub-group whole: the site's compiled
  // combine, after which they all resume after the site.
  std::vector<std::pair<uint32_t, llvm::BasicBlock *>> compiled;
  for (size_t i = 0; i < sites.size(); ++i) {
    const uint32_t id = uint32_t(i + 1);
    if (llvm::BasicBlock *block =
            emit_inline_collective(function, frame, sites[i], id, subgroup_size, dispatcher.known(id))) {
      compiled.emplace_back(id, block);
      compiled_sites[i] = true;
    }
  }
  if (!compiled.empty()) {
    auto *select = llvm::BasicBlock::Create(context, "dispatch.collectives.compiled", &function);
    llvm::Value *whole = b.CreateICmpEQ(b.CreateURem(frame.total, b.getInt64(subgroup_size)), b.getInt64(0));
    b.CreateCondBr(b.CreateAnd(together, whole), select, host_combine);
    b.SetInsertPoint(select);
    llvm::SwitchInst *to_site = b.CreateSwitch(lower, host_combine, unsigned(compiled.size()));
    for (auto [id, block] : compiled) to_site->addCase(b.getInt32(id | region_waits), block);
  } else {
    b.CreateBr(host_combine);
  }
  // The host reads every work-item's `next`: when the dispatcher was told
  // where they all are, they are written first.
  b.SetInsertPoint(host_combine);
  auto *fill = llvm::BasicBlock::Create(context, "dispatch.collectives.fill", &function);
  auto *call = llvm::BasicBlock::Create(context, "dispatch.collectives.call", &function);
  b.CreateCondBr(together, fill, call);
  b.SetInsertPoint(fill);
  llvm::PHINode *item = b.CreatePHI(b.getInt64Ty(), 2);
  item->addIncoming(b.getInt64(0), host_combine);
  b.CreateStore(lower, b.CreateInBoundsGEP(b.getInt32Ty(), frame.next, item));
  llvm::Value *following = b.CreateNUWAdd(item, b.getInt64(1));
  item->addIncoming(following, fill);
  b.CreateCondBr(b.CreateICmpULT(following, frame.total), fill, call);
  b.SetInsertPoint(call);
  llvm::Value *table = describe_sites_for_host(function, sites, b);
  llvm::FunctionCallee host = function.getParent()->getOrInsertFunction(
      region_collectives_symbol, b.getVoidTy(), frame.next->getType(), b.getInt8PtrTy(), frame.args->getType(),
      b.getInt64Ty(), b.getInt64Ty());
  b.CreateCall(host, {frame.next, table, frame.args, frame.total, b.getInt64(subgroup_size)});
  b.CreateBr(dispatcher.scan);
  b.SetInsertPoint(run);
}

// dispatch: the lowest region id any work-item waits for runs next; when all
// have returned (exit_region is the highest id) the function returns. Lanes
// resuming after a collective (the lowest ids) run first; when none is left
// but some wait at collectives, the host combines each sub-group's earliest
// one; only then may a barrier open.
Dispatcher emit_dispatch(llvm::Function &function, const RegionFrame &frame, llvm::BasicBlock *dispatch,
                         unsigned cases, uint32_t first_barrier, llvm::ArrayRef<CollectiveSite> sites,
                         uint32_t subgroup_size, std::vector<bool> &compiled_sites) {
  llvm::LLVMContext &context = function.getContext();
  Dispatcher dispatcher;
  dispatcher.function = &function;
  dispatcher.scan = dispatch;
  auto *scan = llvm::BasicBlock::Create(context, "dispatch.scan", &function);
  dispatcher.pick = llvm::BasicBlock::Create(context, "dispatch.pick", &function);
  auto *exit = llvm::BasicBlock::Create(context, "exit", &function);
  llvm::ReturnInst::Create(context, exit);
  llvm::IRBuilder<> b(dispatch);
  emit_scan(b, frame, dispatcher, scan);
  llvm::Value *together = b.CreateICmpEQ(dispatcher.lowest, dispatcher.highest);
  compiled_sites.assign(sites.size(), false);
  if (frame.args != nullptr) {
    emit_collective_step(b, frame, dispatcher, together, first_barrier, sites, subgroup_size, compiled_sites);
  }
  b.CreateStore(together, frame.uniform);
  dispatcher.regions = b.CreateSwitch(dispatcher.lowest, exit, cases);
  return dispatcher;
}

// Replaces the body (everything after the prologue) by one cloned loop nest per
// region and the dispatcher between them.
std::optional<Unsupported> build_dispatcher(llvm::Function &function, llvm::BasicBlock &prologue, const RegionFrame &frame,
                                            llvm::BasicBlock *start, const SyncBlocks &blocks,
                                            llvm::ArrayRef<CollectiveSite> sites, uint32_t subgroup_size,
                                            SiteSummary &summary) {
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
  Dispatcher dispatcher = emit_dispatch(function, frame, dispatch, unsigned(syncs.size()), sync_ids.first_barrier,
                                        sites, subgroup_size, summary.compiled);
  // Every work-item starts in region 0, which nothing re-enters.
  RegionEmitter emitter{function, frame, sync_ids, syncs, originals, dispatcher, sites, summary, subgroup_size};
  for (size_t i = 0; i <= syncs.size(); ++i) {
    emitter.described.push_back(describe_region(i == 0 ? start : syncs[i - 1], uint32_t(i), sync_ids));
  }
  for (const Region &region : emitter.described) {
    if (std::optional<uint32_t> site = emitter.next_site(region); site && *site != region.id) {
      emitter.continuations.insert(*site);
    }
  }
  llvm::BasicBlock *first = emitter.clone_region(0, &prologue, false);
  llvm::cast<llvm::BranchInst>(prologue.getTerminator())->setSuccessor(0, first);
  // Each sync point's region twice: for all work-items when they all wait
  // there (then the loops vectorise as without barriers), and for those that do.
  for (size_t i = 0; i < syncs.size(); ++i) {
    uint32_t id = uint32_t(i + 1);
    auto *pick = llvm::BasicBlock::Create(function.getContext(), "region." + std::to_string(id) + ".pick", &function);
    dispatcher.regions->addCase(llvm::ConstantInt::get(llvm::Type::getInt32Ty(function.getContext()), id), pick);
    llvm::BasicBlock *all = emitter.clone_region(id, pick, false);
    llvm::BasicBlock *some = emitter.clone_region(id, pick, true);
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
std::optional<Unsupported> form_regions(llvm::Function &function, const SyncFunctions &sync, uint32_t subgroup_size,
                                        uint64_t &slot_bytes, SiteSummary &summary) {
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
  std::vector<CollectiveSite> sites = describe_collective_sites(blocks, widened);
  for (const CollectiveSite &site : sites) {
    if (!site.found) return Unsupported{"a collective's buffers are not the work-item's own variables"};
  }
  std::vector<SlotArray> slots;
  RegionFrame frame = widen_allocas(function, prologue, widened, !blocks.collectives.empty(), slots);
  locate_collective_slots(sites, slots);
  lower_collective_calls(function, frame, sync.collective);
  slot_bytes = frame.slot_bytes;
  return build_dispatcher(function, prologue, frame, start, blocks, sites, subgroup_size, summary);
}

} // namespace

llvm::Function *build_region_function(llvm::Function &item, uint32_t subgroup_size, uint64_t &slot_bytes) {
  llvm::Module &module = *item.getParent();
  SyncFunctions sync{module.getFunction(barrier_symbol), module.getFunction(subgroup_symbol)};
  llvm::StringRef kernel = llvm::StringRef(item.getName()).drop_front(llvm::StringRef("zeal.wi.").size());
  if (sync.barrier == nullptr && sync.collective == nullptr) return nullptr;
  llvm::ValueToValueMapTy map;
  llvm::Function *function = llvm::CloneFunction(&item, map);
  function->setName("zeal.regions." + kernel);
  SiteSummary summary;
  std::optional<Unsupported> failed = form_regions(*function, sync, subgroup_size, slot_bytes, summary);
  if (!failed) {
    std::string problems;
    llvm::raw_string_ostream out(problems);
    if (llvm::verifyFunction(*function, &out)) failed = Unsupported{"internal error: " + out.str()};
  }
  if (failed) {
    log_fiber_path(kernel, failed->reason);
    function->dropAllReferences();
    function->eraseFromParent();
    return nullptr;
  }
  std::string collectives;
  const std::vector<bool> &compiled_sites = summary.compiled;
  if (!compiled_sites.empty()) {
    std::string host;
    for (size_t i = 0; i < compiled_sites.size(); ++i) {
      if (!compiled_sites[i]) host += (host.empty() ? "" : ", ") + std::to_string(i + 1);
    }
    const auto compiled = std::count(compiled_sites.begin(), compiled_sites.end(), true);
    collectives = fmt::format("; {} of its {} collective sites are combined in compiled code when the whole work-group "
                              "waits there, {} of them sub-group by sub-group between lane loops when rows hold whole "
                              "sub-groups{}",
                              compiled, compiled_sites.size(), summary.chained.size(),
                              host.empty() ? std::string() : "; the host combines site " + host);
  }
  logger("zeal-cpu").info("kernel '{}' runs as regions, loops over its work-items between barriers and collectives{}",
                          kernel.str(), collectives);
  return function;
}

} // namespace zeal::cpu::detail
