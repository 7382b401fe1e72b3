// Software prefetches for loops that read one stream of global memory.
//
// The hardware's stream prefetcher follows a stream within one 4 KiB page and
// starts again on the next, after a few misses. A loop that reads one stream
// and does little with it (a sub-group reduction: one cache line per
// sub-group, a few vector instructions) then waits on memory at each page, and
// reads at about half the bandwidth of a loop with several streams (the STREAM
// triad). After optimisation, each innermost loop of a work-group function
// that reads one stream of global memory (loads at addresses that advance by a
// constant step of 16 bytes or more) gets a prefetch, prefetch_distance bytes
// ahead, for each cache line of the stream it reads per iteration. A prefetch
// never faults, so reading ahead past the end of a buffer is harmless.
#include "cpu_driver/compiler/internal.hpp"

#include "common/log.hpp"

#include <llvm/ADT/DepthFirstIterator.h>
#include <llvm/ADT/Triple.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace zeal::cpu::detail {
namespace {

constexpr unsigned global_address_space = 1;
constexpr uint64_t cache_line_bytes = 64;
constexpr int64_t min_step_bytes = 16;
constexpr int64_t max_step_bytes = 4096; // a page per iteration and more: not a stream the prefetcher misses
// Far enough ahead to cover memory's latency at one core's bandwidth (the
// reduction of bench_cpu_compute_subgroups read as fast 1 to 4 KiB ahead),
// near enough that what it brings is still in the L1 cache when read.
constexpr uint64_t prefetch_distance = 2048;

// When the loop's loads of global memory read one stream (one buffer, at
// addresses that advance by a constant step): one of them per cache line the
// stream's iteration reads (the first load of the line in block order).
std::vector<llvm::LoadInst *> stream_loads(llvm::Loop &loop, llvm::ScalarEvolution &se) {
  const llvm::SCEV *base = nullptr; // the buffer the stream reads
  std::vector<std::pair<llvm::LoadInst *, const llvm::SCEV *>> chosen; // with their first addresses
  for (llvm::BasicBlock *block : loop.blocks()) {
    for (llvm::Instruction &inst : *block) {
      auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
      if (load == nullptr || load->isVolatile() || load->getPointerAddressSpace() != global_address_space) continue;
      const auto *address = llvm::dyn_cast<llvm::SCEVAddRecExpr>(se.getSCEV(load->getPointerOperand()));
      if (address == nullptr || address->getLoop() != &loop || !address->isAffine()) continue;
      const auto *step = llvm::dyn_cast<llvm::SCEVConstant>(address->getStepRecurrence(se));
      // 16 bytes or more per iteration (a vector loop, or an unrolled one): at most four prefetches a line.
      if (step == nullptr || step->getAPInt().slt(min_step_bytes) || step->getAPInt().sgt(max_step_bytes)) continue;
      // Two streams or more keep the hardware busy enough: one's restart at a page overlaps the other's flow (the
      // triad, two streams read and one written, is 3 % slower with prefetches).
      const llvm::SCEV *buffer = se.getPointerBase(address);
      if (base != nullptr && buffer != base) return {};
      base = buffer;
      bool same_line = false;
      for (const auto &[other, start] : chosen) {
        const auto *apart = llvm::dyn_cast<llvm::SCEVConstant>(se.getMinusSCEV(address->getStart(), start));
        same_line |= apart != nullptr && apart->getAPInt().abs().ult(cache_line_bytes);
      }
      if (!same_line) chosen.emplace_back(load, address->getStart());
    }
  }
  std::vector<llvm::LoadInst *> loads;
  for (const auto &[load, start] : chosen) loads.push_back(load);
  return loads;
}

} // namespace

void add_stream_prefetches(llvm::Module &module) {
  const std::string prefix = work_group_function_name("");
  for (llvm::Function &function : module) {
    if (function.isDeclaration() || !function.getName().startswith(prefix)) continue;
    llvm::DominatorTree dt(function);
    llvm::LoopInfo loops(dt);
    llvm::TargetLibraryInfoImpl library_info(llvm::Triple(module.getTargetTriple()));
    llvm::TargetLibraryInfo library(library_info);
    llvm::AssumptionCache assumptions(function);
    llvm::ScalarEvolution se(function, library, assumptions, dt, loops);
    std::vector<llvm::LoadInst *> loads;
    for (llvm::Loop *top : loops) {
      for (llvm::Loop *loop : llvm::depth_first(top)) {
        if (!loop->isInnermost()) continue;
        for (llvm::LoadInst *load : stream_loads(*loop, se)) loads.push_back(load);
      }
    }
    for (llvm::LoadInst *load : loads) {
      llvm::IRBuilder<> b(load);
      llvm::Type *bytes = b.getInt8PtrTy(global_address_space);
      llvm::Value *ahead =
          b.CreateGEP(b.getInt8Ty(), b.CreatePointerCast(load->getPointerOperand(), bytes), b.getInt64(prefetch_distance));
      // prefetch(address, read, locality 3: keep in every cache level, data)
      b.CreateCall(llvm::Intrinsic::getDeclaration(&module, llvm::Intrinsic::prefetch, {bytes}),
                   {ahead, b.getInt32(0), b.getInt32(3), b.getInt32(1)});
    }
    if (!loads.empty()) {
      logger("zeal-cpu").debug("{}: {} software prefetch(es) {} bytes ahead of the streams its loops read",
                               function.getName().str(), loads.size(), prefetch_distance);
    }
  }
}

} // namespace zeal::cpu::detail
