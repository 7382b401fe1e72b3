// Memory orders NVPTX 15 can select: it has no `fence` and no atomic load or store stronger than monotonic (either
// stops code generation with a fatal error), and it emits read-modify-writes as relaxed `atom.*` whatever their order.
// So before code generation every fence becomes `membar` of its scope (cta for a work-group or sub-group, gl
// otherwise; none for one work-item), and every atomic access stronger than monotonic becomes monotonic with membars
// where its order needs them (before a release, after an acquire). Atomics on 16-bit floats have no lowering at all
// and are refused.
#include "cuda_driver/compiler/internal.hpp"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <fmt/format.h>

namespace zeal::cuda {

namespace {

// The membar of a scope, or none for a single work-item.
std::optional<llvm::Intrinsic::ID> membar(llvm::LLVMContext &context, llvm::SyncScope::ID scope) {
  if (scope == llvm::SyncScope::SingleThread) return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 8> names;
  context.getSyncScopeNames(names);
  llvm::StringRef name = scope < names.size() ? names[scope] : llvm::StringRef();
  if (name == "workgroup" || name == "subgroup" || name == "wavefront") return llvm::Intrinsic::nvvm_membar_cta;
  return llvm::Intrinsic::nvvm_membar_gl;
}

void fence_before(llvm::Instruction &at, llvm::Intrinsic::ID id) {
  llvm::IRBuilder<> b(&at);
  call_intrinsic(b, id);
}

void fence_after(llvm::Instruction &at, llvm::Intrinsic::ID id) {
  llvm::IRBuilder<> b(at.getNextNode());
  call_intrinsic(b, id);
}

// Membars around an access of `order`, which then runs monotonic (or keeps its order, for read-modify-writes).
void surround(llvm::Instruction &access, llvm::AtomicOrdering order, llvm::SyncScope::ID scope) {
  auto id = membar(access.getContext(), scope);
  if (!id) return;
  using llvm::AtomicOrdering;
  if (order == AtomicOrdering::Release || order == AtomicOrdering::AcquireRelease ||
      order == AtomicOrdering::SequentiallyConsistent) {
    fence_before(access, *id);
  }
  if (order == AtomicOrdering::Acquire || order == AtomicOrdering::AcquireRelease ||
      order == AtomicOrdering::SequentiallyConsistent) {
    fence_after(access, *id);
  }
}

bool stronger_than_monotonic(llvm::AtomicOrdering order) {
  return llvm::isStrongerThan(order, llvm::AtomicOrdering::Monotonic);
}

// Rewrites one instruction; true when it was a fence and is gone.
bool legalize(llvm::Instruction &instruction) {
  if (auto *fence = llvm::dyn_cast<llvm::FenceInst>(&instruction)) {
    if (auto id = membar(fence->getContext(), fence->getSyncScopeID())) fence_before(*fence, *id);
    return true;
  }
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction); load != nullptr && load->isAtomic()) {
    if (stronger_than_monotonic(load->getOrdering())) surround(*load, load->getOrdering(), load->getSyncScopeID());
    load->setOrdering(llvm::AtomicOrdering::Monotonic);
  } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction); store != nullptr && store->isAtomic()) {
    if (stronger_than_monotonic(store->getOrdering())) surround(*store, store->getOrdering(), store->getSyncScopeID());
    store->setOrdering(llvm::AtomicOrdering::Monotonic);
  } else if (auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&instruction)) {
    if (stronger_than_monotonic(rmw->getOrdering())) surround(*rmw, rmw->getOrdering(), rmw->getSyncScopeID());
  } else if (auto *exchange = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&instruction)) {
    if (stronger_than_monotonic(exchange->getSuccessOrdering())) {
      surround(*exchange, exchange->getSuccessOrdering(), exchange->getSyncScopeID());
    }
  }
  return false;
}

} // namespace

Status legalize_memory_order(llvm::Module &module) {
  for (llvm::Function &function : module) {
    std::vector<llvm::Instruction *> fences;
    for (llvm::BasicBlock &block : function) {
      for (llvm::Instruction &instruction : block) {
        auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&instruction);
        if (rmw != nullptr && (rmw->getType()->isHalfTy() || rmw->getType()->isBFloatTy())) {
          return build_failure(fmt::format("function '{}' makes an atomic operation on a 16-bit float, which the "
                                           "CUDA back end does not support", function.getName().str()));
        }
        if (legalize(instruction)) fences.push_back(&instruction);
      }
    }
    for (llvm::Instruction *fence : fences) fence->eraseFromParent();
  }
  return {};
}

} // namespace zeal::cuda
