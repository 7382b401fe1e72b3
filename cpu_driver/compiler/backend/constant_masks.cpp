// Gathers and scatters whose mask the optimiser has made constant, turned into the few scalar accesses they are.
#include "cpu_driver/compiler/internal.hpp"

#include "common/log.hpp"

#include <llvm/ADT/STLExtras.h>
#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>

#include <optional>
#include <vector>

namespace zeal::cpu::detail {
namespace {

// The lanes a constant mask enables, or nothing when the mask is not constant.
std::optional<std::vector<unsigned>> enabled_lanes(llvm::Value *mask) {
  auto *constant = llvm::dyn_cast<llvm::Constant>(mask);
  auto *type = llvm::dyn_cast<llvm::FixedVectorType>(mask->getType());
  if (constant == nullptr || type == nullptr) return std::nullopt;
  std::vector<unsigned> lanes;
  for (unsigned i = 0; i < type->getNumElements(); ++i) {
    llvm::Constant *bit = constant->getAggregateElement(i);
    if (bit == nullptr || !llvm::isa<llvm::ConstantInt>(bit)) return std::nullopt; // undef, poison, expressions
    if (!bit->isNullValue()) lanes.push_back(i);
  }
  return lanes;
}

// Lane `i` of `vector`, read through the insertions that built it where it can be.
llvm::Value *lane(llvm::IRBuilder<> &b, llvm::Value *vector, unsigned i) {
  if (llvm::Value *scalar = llvm::findScalarElement(vector, i)) return scalar;
  return b.CreateExtractElement(vector, b.getInt64(i));
}

} // namespace

// A lane loop runs one vector iteration per sub-group, so once it is
// vectorised and its single iteration simplified, the mask of a guarded access
// like `if (get_sub_group_local_id() == 0) sums[get_sub_group_id()] = s` is a
// constant with one lane set; the back end would still emit a gather or a
// scatter, an instruction of many micro-operations that holds up the memory
// accesses around it. With at most a quarter of the lanes enabled, each
// enabled lane becomes a scalar load or store (a scatter's in lane order,
// which keeps its rule that the highest lane writing an address wins).
void scalarise_constant_mask_accesses(llvm::Module &module) {
  for (llvm::Function &function : module) {
    unsigned scalarised = 0;
    for (llvm::Instruction &inst : llvm::make_early_inc_range(llvm::instructions(function))) {
      auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst);
      if (call == nullptr) continue;
      const llvm::Intrinsic::ID id = call->getIntrinsicID();
      if (id != llvm::Intrinsic::masked_gather && id != llvm::Intrinsic::masked_scatter) continue;
      const bool gather = id == llvm::Intrinsic::masked_gather;
      // gather(pointers, align, mask, passthru); scatter(values, pointers, align, mask)
      llvm::Value *pointers = call->getArgOperand(gather ? 0 : 1);
      auto *align = llvm::cast<llvm::ConstantInt>(call->getArgOperand(gather ? 1 : 2));
      std::optional<std::vector<unsigned>> lanes = enabled_lanes(call->getArgOperand(gather ? 2 : 3));
      auto *type = llvm::cast<llvm::FixedVectorType>(pointers->getType());
      if (!lanes || lanes->size() * 4 > type->getNumElements()) continue;
      llvm::IRBuilder<> b(call);
      const llvm::MaybeAlign alignment(align->getZExtValue()); // 0: the element type's
      if (gather) {
        llvm::Value *result = call->getArgOperand(3);
        for (unsigned i : *lanes) {
          llvm::Value *loaded = b.CreateAlignedLoad(call->getType()->getScalarType(), lane(b, pointers, i), alignment);
          result = b.CreateInsertElement(result, loaded, b.getInt64(i));
        }
        call->replaceAllUsesWith(result);
      } else {
        llvm::Value *values = call->getArgOperand(0);
        for (unsigned i : *lanes) b.CreateAlignedStore(lane(b, values, i), lane(b, pointers, i), alignment);
      }
      call->eraseFromParent();
      ++scalarised;
    }
    if (scalarised > 0) {
      logger("zeal-cpu").debug("{}: {} gather(s) and scatter(s) with a constant mask became scalar accesses",
                               function.getName().str(), scalarised);
    }
  }
}

} // namespace zeal::cpu::detail
