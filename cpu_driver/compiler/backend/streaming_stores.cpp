// Streaming stores: a launch that writes more than the caches hold writes it with non-temporal stores.
//
// A plain store first reads its cache line (read for ownership) and later
// writes it back, so a kernel streaming its output through memory moves each
// output byte twice. A non-temporal store writes whole lines without reading
// them, as memcpy and memset do above a size (glibc's
// x86_non_temporal_threshold). After optimisation, each innermost loop of a
// work-group function whose vector stores tile a contiguous stretch of global
// memory per iteration is versioned: the copy with non-temporal stores runs when
// the launch stores at least streaming_store_threshold() bytes through them and
// the stretch is aligned to the store width (an unaligned non-temporal vector
// store would be split into eight-byte ones). A vector store of one whole
// cache line whose address is not such a stretch (a sub-group's block write,
// computed in 32 bits) streams on its own in that copy, when it starts a line.
// Smaller launches keep plain stores, so output that the next kernel reads
// stays in the cache.
//
// Non-temporal stores are weakly ordered: they may become visible to other
// threads after later plain stores. Only functions without atomics, fences or
// calls that may write memory are versioned, so nothing inside the kernel can
// order them; an sfence before each return makes them visible before the
// runtime's own synchronisation says the work-group is done.
#include "cpu_driver/compiler/internal.hpp"

#include "common/log.hpp"

#include <llvm/ADT/DepthFirstIterator.h>
#include <llvm/ADT/Triple.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <map>
#include <optional>

namespace zeal::cpu {
namespace {

std::atomic<uint64_t> threshold_bytes{UINT64_MAX};
static_assert(sizeof(std::atomic<uint64_t>) == sizeof(uint64_t) && std::atomic<uint64_t>::is_always_lock_free,
              "compiled code reads the threshold as a plain 64-bit load");

constexpr unsigned global_address_space = 1;
constexpr uint64_t cache_line_bytes = 64;

} // namespace

void set_streaming_store_threshold(uint64_t bytes) { threshold_bytes.store(bytes, std::memory_order_relaxed); }
uint64_t streaming_store_threshold() { return threshold_bytes.load(std::memory_order_relaxed); }

namespace detail {

std::span<const RuntimeSymbol> streaming_store_symbols() {
  static const RuntimeSymbol symbols[] = {{streaming_threshold_symbol, &threshold_bytes}};
  return symbols;
}

namespace {

// Calls that cannot order memory: intrinsics that only mark things for the
// optimiser, and functions that read memory at most (libmvec's vector forms
// are declared without attributes, but only compute).
bool harmless_call(const llvm::CallBase &call) {
  if (const auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&call)) {
    switch (intrinsic->getIntrinsicID()) {
    case llvm::Intrinsic::assume:
    case llvm::Intrinsic::lifetime_start:
    case llvm::Intrinsic::lifetime_end:
    case llvm::Intrinsic::experimental_noalias_scope_decl:
      return true;
    default:
      break;
    }
  }
  if (call.onlyReadsMemory()) return true;
  const llvm::Function *callee = call.getCalledFunction();
  if (callee == nullptr) return false;
  for (const VectorMathFunction &f : vector_math_functions()) {
    if (callee->getName() == f.vector || callee->getName() == f.scalar) return true;
  }
  return false;
}

// Nothing in the function could make another thread rely on the order of its stores.
bool free_of_ordering(const llvm::Function &function) {
  for (const llvm::BasicBlock &block : function) {
    for (const llvm::Instruction &i : block) {
      if (i.isAtomic()) return false; // fences, read-modify-writes, atomic loads and stores
      if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&i); call != nullptr && !harmless_call(*call)) return false;
    }
  }
  return true;
}

// Vector stores of one loop that, together, write a contiguous stretch from
// `start` on each iteration (as many bytes as the addresses step by), each
// `width` bytes at a multiple of `width`. Code generation splits a store wider
// than a vector register into `piece`-byte ones, each of which must be aligned
// to stream.
struct Tile {
  const llvm::SCEV *start = nullptr; // the lowest store's address on the first iteration
  uint64_t width = 0;
  uint64_t piece = 0;
  uint64_t element_bytes = 0;
  std::vector<llvm::StoreInst *> stores;
};

struct Candidate {
  llvm::StoreInst *store;
  const llvm::SCEVAddRecExpr *address;
  uint64_t step, width;
};

// The bytes one store instruction writes of a store `width` bytes wide: the
// vector registers the target prefers (LLVM's register width for the target
// CPU: 16 for SSE, 32 for AVX2 and for AVX-512 CPUs tuned for 256-bit vectors,
// 64 otherwise). 0 when such a store is not made of whole registers.
uint64_t store_piece(uint64_t width, uint64_t register_bytes) {
  const uint64_t piece = std::min(width, register_bytes);
  if (piece != 16 && piece != 32 && piece != 64) return 0;
  return width % piece == 0 ? piece : 0;
}

std::optional<Candidate> streaming_candidate(llvm::StoreInst &store, const llvm::Loop &loop, llvm::ScalarEvolution &se,
                                             const llvm::DataLayout &layout, uint64_t register_bytes) {
  if (store.isVolatile() || store.getPointerAddressSpace() != global_address_space) return std::nullopt;
  auto *type = llvm::dyn_cast<llvm::FixedVectorType>(store.getValueOperand()->getType());
  if (type == nullptr) return std::nullopt;
  const uint64_t width = layout.getTypeStoreSize(type).getFixedSize();
  if (store_piece(width, register_bytes) == 0) return std::nullopt;
  if (layout.getTypeAllocSize(type).getFixedSize() != width) return std::nullopt;
  const auto *address = llvm::dyn_cast<llvm::SCEVAddRecExpr>(se.getSCEV(store.getPointerOperand()));
  if (address == nullptr || address->getLoop() != &loop || !address->isAffine()) return std::nullopt;
  const auto *step = llvm::dyn_cast<llvm::SCEVConstant>(address->getStepRecurrence(se));
  if (step == nullptr || step->getAPInt().isNonPositive() || step->getAPInt().getZExtValue() % width != 0) {
    return std::nullopt;
  }
  return Candidate{&store, address, step->getAPInt().getZExtValue(), width};
}

// Groups the loop's candidate stores by stretch; keeps the stretches its stores cover exactly.
std::vector<Tile> find_tiles(llvm::Loop &loop, llvm::ScalarEvolution &se, const llvm::DataLayout &layout,
                             uint64_t register_bytes) {
  struct Group {
    const llvm::SCEV *first_start;
    uint64_t step, width;
    std::vector<std::pair<int64_t, Candidate>> stores; // offset from first_start
  };
  std::vector<Group> groups;
  for (llvm::BasicBlock *block : loop.blocks()) {
    for (llvm::Instruction &i : *block) {
      auto *store = llvm::dyn_cast<llvm::StoreInst>(&i);
      if (store == nullptr) continue;
      std::optional<Candidate> c = streaming_candidate(*store, loop, se, layout, register_bytes);
      if (!c) continue;
      const llvm::SCEV *start = c->address->getStart();
      Group *home = nullptr;
      int64_t offset = 0;
      for (Group &g : groups) {
        if (g.step != c->step || g.width != c->width) continue;
        const auto *difference = llvm::dyn_cast<llvm::SCEVConstant>(se.getMinusSCEV(start, g.first_start));
        if (difference == nullptr) continue;
        home = &g, offset = difference->getAPInt().getSExtValue();
        break;
      }
      if (home != nullptr) home->stores.emplace_back(offset, *c);
      else groups.push_back({start, c->step, c->width, {{0, *c}}});
    }
  }
  std::vector<Tile> tiles;
  for (Group &g : groups) {
    std::sort(g.stores.begin(), g.stores.end(), [](auto &x, auto &y) { return x.first < y.first; });
    const int64_t lowest = g.stores.front().first;
    bool exact = g.stores.size() * g.width == g.step;
    for (size_t k = 0; exact && k < g.stores.size(); ++k) exact = g.stores[k].first - lowest == int64_t(k * g.width);
    if (!exact) continue;
    llvm::StoreInst *first = g.stores.front().second.store;
    Tile tile;
    tile.start = g.stores.front().second.address->getStart();
    tile.width = g.width;
    tile.piece = store_piece(g.width, register_bytes);
    tile.element_bytes = layout.getTypeStoreSize(first->getValueOperand()->getType()->getScalarType()).getFixedSize();
    for (auto &[offset, c] : g.stores) tile.stores.push_back(c.store);
    tiles.push_back(std::move(tile));
  }
  return tiles;
}

// Stores of one whole cache line (64 bytes, a sub-group's block write, say)
// whose addresses the stretch analysis cannot follow: each may stream on its
// own, whatever the others write, when it lands on a line boundary (tested per
// store), since it leaves no part of its line to read for ownership.
std::vector<llvm::StoreInst *> find_line_stores(llvm::Loop &loop, const std::vector<Tile> &tiles,
                                                const llvm::DataLayout &layout) {
  std::vector<llvm::StoreInst *> lines;
  for (llvm::BasicBlock *block : loop.blocks()) {
    for (llvm::Instruction &i : *block) {
      auto *store = llvm::dyn_cast<llvm::StoreInst>(&i);
      if (store == nullptr || store->isVolatile() || store->getPointerAddressSpace() != global_address_space) continue;
      if (!llvm::isa<llvm::FixedVectorType>(store->getValueOperand()->getType())) continue;
      if (layout.getTypeStoreSize(store->getValueOperand()->getType()).getFixedSize() != cache_line_bytes) continue;
      bool tiled = false;
      for (const Tile &tile : tiles) tiled = tiled || llvm::is_contained(tile.stores, store);
      if (!tiled) lines.push_back(store);
    }
  }
  return lines;
}

// In the streaming copy of a loop: `store` streams when its address is on a line boundary, else stays plain.
void stream_when_aligned(llvm::StoreInst *store, llvm::MDNode *marker) {
  llvm::IRBuilder<> b(store);
  llvm::Value *offset = b.CreateAnd(b.CreatePtrToInt(store->getPointerOperand(), b.getInt64Ty()), cache_line_bytes - 1);
  llvm::Instruction *then_term = nullptr, *else_term = nullptr;
  llvm::SplitBlockAndInsertIfThenElse(b.CreateICmpEQ(offset, b.getInt64(0)), store, &then_term, &else_term);
  auto *stream = llvm::cast<llvm::StoreInst>(store->clone());
  stream->insertBefore(then_term);
  stream->setAlignment(llvm::Align(cache_line_bytes));
  stream->setMetadata(llvm::LLVMContext::MD_nontemporal, marker);
  store->moveBefore(else_term);
}

// Whether the launch stores enough to stream, per element size, computed once
// in the work-group function's entry block (the launch is the same for every
// group and loop entry).
class LaunchSize {
public:
  explicit LaunchSize(llvm::Function &function) : function_(function) {}

  llvm::Value *streams(uint64_t element_bytes) {
    llvm::Value *&flag = by_element_[element_bytes];
    if (flag != nullptr) return flag;
    llvm::IRBuilder<> b(function_.getEntryBlock().getTerminator());
    if (work_items_ == nullptr) {
      // In double: a heuristic need not be exact, and cannot overflow.
      llvm::Value *context = function_.getArg(1);
      work_items_ = llvm::ConstantFP::get(b.getDoubleTy(), 1.0);
      auto field = [&](size_t offset) {
        llvm::Value *at = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), context, offset);
        llvm::Value *value = b.CreateLoad(b.getInt32Ty(), b.CreateBitCast(at, b.getInt32Ty()->getPointerTo()));
        return b.CreateUIToFP(value, b.getDoubleTy());
      };
      for (size_t d = 0; d < 3; ++d) {
        work_items_ = b.CreateFMul(work_items_, field(offsetof(GroupContext, num_groups) + 4 * d));
        work_items_ = b.CreateFMul(work_items_, field(offsetof(GroupContext, local_size) + 4 * d));
      }
      llvm::Constant *variable = function_.getParent()->getOrInsertGlobal(streaming_threshold_symbol, b.getInt64Ty());
      threshold_ = b.CreateUIToFP(b.CreateLoad(b.getInt64Ty(), variable), b.getDoubleTy());
    }
    // As if each work-item stored one element through the stretch: launches
    // that store more per work-item are underestimated, never the other way.
    llvm::Value *bytes = b.CreateFMul(work_items_, llvm::ConstantFP::get(b.getDoubleTy(), double(element_bytes)));
    return flag = b.CreateFCmpOGE(bytes, threshold_);
  }

private:
  llvm::Function &function_;
  llvm::Value *work_items_ = nullptr;
  llvm::Value *threshold_ = nullptr;
  std::map<uint64_t, llvm::Value *> by_element_;
};

// Whether this entry into the loop streams: the launch stores enough through
// each stretch and whole line, and each stretch starts aligned to its store width.
llvm::Value *streaming_condition(llvm::Instruction *before, const std::vector<Tile> &tiles,
                                 const std::vector<llvm::StoreInst *> &lines, LaunchSize &launch,
                                 llvm::ScalarEvolution &se, const llvm::DataLayout &layout) {
  llvm::SCEVExpander expander(se, layout, "zeal.stream");
  llvm::IRBuilder<> b(before);
  llvm::Value *all = b.getTrue();
  for (const Tile &tile : tiles) {
    llvm::Value *streams = launch.streams(tile.element_bytes);
    llvm::Value *start = expander.expandCodeFor(tile.start, tile.start->getType(), before);
    b.SetInsertPoint(before);
    llvm::Value *misalignment = b.CreateAnd(b.CreatePtrToInt(start, b.getInt64Ty()), tile.piece - 1);
    all = b.CreateAnd(all, b.CreateAnd(streams, b.CreateICmpEQ(misalignment, b.getInt64(0))));
  }
  for (llvm::StoreInst *line : lines) {
    llvm::Type *element = line->getValueOperand()->getType()->getScalarType();
    all = b.CreateAnd(all, launch.streams(layout.getTypeStoreSize(element).getFixedSize()));
  }
  return all;
}

llvm::MDNode *nontemporal_marker(llvm::LLVMContext &context) {
  return llvm::MDNode::get(context, {llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                                        llvm::Type::getInt32Ty(context), 1))});
}

// Versions the loop whose header is `header`: the copy with non-temporal stores
// runs when streaming_condition() holds. False when the loop has no tile or
// not the shape versioning needs (one exiting block, dedicated exits).
bool version_loop(llvm::Function &function, llvm::BasicBlock *header, LaunchSize &launch, uint64_t register_bytes) {
  llvm::DominatorTree dt(function);
  llvm::LoopInfo loops(dt);
  llvm::Loop *loop = loops.getLoopFor(header);
  if (loop == nullptr || loop->getHeader() != header || !loop->isInnermost()) return false;
  llvm::BasicBlock *exiting = loop->getExitingBlock();
  if (exiting == nullptr || loop->getExitBlock() == nullptr) return false;

  const llvm::DataLayout &layout = function.getParent()->getDataLayout();
  llvm::TargetLibraryInfoImpl library_info(llvm::Triple(function.getParent()->getTargetTriple()));
  llvm::TargetLibraryInfo library(library_info);
  llvm::AssumptionCache assumptions(function);
  llvm::ScalarEvolution se(function, library, assumptions, dt, loops);
  std::vector<Tile> tiles = find_tiles(*loop, se, layout, register_bytes);
  std::vector<llvm::StoreInst *> lines = find_line_stores(*loop, tiles, layout);
  if (tiles.empty() && lines.empty()) return false;

  // The exit is shared with a path around the loop whenever the loop may run
  // no iteration and no pass gave it a block of its own (unrolled loops with a
  // remainder, on some targets, are left so): the copy needs one to join at.
  llvm::formDedicatedExitBlocks(loop, &dt, &loops, nullptr, false);
  llvm::BasicBlock *exit = loop->getExitBlock();
  // One edge out, so the copy's exit adds one incoming value to each phi.
  if (!llvm::isa<llvm::BranchInst>(exiting->getTerminator()) || llvm::count(llvm::successors(exiting), exit) != 1) {
    return false;
  }
  llvm::formLCSSA(*loop, dt, &loops, &se);
  llvm::BasicBlock *preheader = loop->getLoopPreheader();
  if (preheader == nullptr) preheader = llvm::InsertPreheaderForLoop(loop, &dt, &loops, nullptr, true);
  if (preheader == nullptr) return false;
  // preheader (the check) -> plain_entry -> loop; the copy's own preheader joins them.
  llvm::BasicBlock *plain_entry =
      llvm::SplitBlock(preheader, preheader->getTerminator(), &dt, &loops, nullptr, header->getName() + ".plain");
  llvm::Value *streaming = streaming_condition(preheader->getTerminator(), tiles, lines, launch, se, layout);

  llvm::ValueToValueMapTy map;
  llvm::SmallVector<llvm::BasicBlock *, 8> copied;
  llvm::Loop *copy = llvm::cloneLoopWithPreheader(plain_entry, preheader, loop, map, ".stream", &loops, &dt, copied);
  llvm::remapInstructionsInBlocks(copied, map);
  llvm::Instruction *old_branch = preheader->getTerminator();
  llvm::BranchInst::Create(copy->getLoopPreheader(), plain_entry, streaming, old_branch);
  old_branch->eraseFromParent();
  auto *copy_exiting = llvm::cast<llvm::BasicBlock>(map[exiting]);
  for (llvm::PHINode &phi : exit->phis()) {
    llvm::Value *value = phi.getIncomingValueForBlock(exiting);
    auto mapped = map.find(value);
    phi.addIncoming(mapped != map.end() ? static_cast<llvm::Value *>(mapped->second) : value, copy_exiting);
  }

  llvm::MDNode *marker = nontemporal_marker(function.getContext());
  for (const Tile &tile : tiles) {
    for (llvm::StoreInst *store : tile.stores) {
      auto *stream = llvm::cast<llvm::StoreInst>(map[store]);
      stream->setAlignment(llvm::Align(tile.piece));
      stream->setMetadata(llvm::LLVMContext::MD_nontemporal, marker);
    }
  }
  for (llvm::StoreInst *line : lines) stream_when_aligned(llvm::cast<llvm::StoreInst>(map[line]), marker);
  return true;
}

} // namespace

void add_streaming_stores(llvm::Module &module, llvm::TargetMachine &machine) {
  const std::string prefix = work_group_function_name("");
  for (llvm::Function &function : module) {
    if (function.isDeclaration() || !function.getName().startswith(prefix) || function.arg_size() != 2) continue;
    if (!free_of_ordering(function)) continue;
    std::vector<llvm::BasicBlock *> headers;
    {
      llvm::DominatorTree dt(function);
      llvm::LoopInfo loops(dt);
      for (llvm::Loop *top : loops) {
        for (llvm::Loop *loop : llvm::depth_first(top)) {
          if (loop->isInnermost()) headers.push_back(loop->getHeader());
        }
      }
    }
    const uint64_t register_bytes =
        machine.getTargetTransformInfo(function)
            .getRegisterBitWidth(llvm::TargetTransformInfo::RGK_FixedWidthVector)
            .getFixedSize() / 8;
    LaunchSize launch(function);
    unsigned versioned = 0;
    for (llvm::BasicBlock *header : headers) versioned += version_loop(function, header, launch, register_bytes);
    if (versioned == 0) continue;
    for (llvm::BasicBlock &block : function) {
      if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(block.getTerminator())) {
        llvm::IRBuilder<> b(ret);
        b.CreateCall(llvm::Intrinsic::getDeclaration(&module, llvm::Intrinsic::x86_sse_sfence));
      }
    }
    logger("zeal-cpu").debug("{}: {} loop(s) can write with streaming stores", function.getName().str(), versioned);
  }
}

} // namespace detail
} // namespace zeal::cpu
