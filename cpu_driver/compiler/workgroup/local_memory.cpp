// Kernel-scope `local` variables: laid out in GroupContext::local_memory and reached through the hidden WorkItem.
#include "cpu_driver/compiler/host_runtime.hpp"

#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>

#include <algorithm>
#include <cstddef>

namespace zeal::cpu::detail {
namespace {

constexpr const char *offset_kind = "zeal.local_offset";
constexpr unsigned local_address_space = 3;

bool is_local_variable(const llvm::GlobalVariable &global) {
  return global.getAddressSpace() == local_address_space && global.getMetadata(offset_kind) != nullptr;
}

uint64_t recorded_offset(const llvm::GlobalVariable &global) {
  auto *node = global.getMetadata(offset_kind);
  return llvm::mdconst::extract<llvm::ConstantInt>(node->getOperand(0))->getZExtValue();
}

uint64_t size_of(const llvm::GlobalVariable &global) {
  return global.getParent()->getDataLayout().getTypeAllocSize(global.getValueType()).getFixedSize();
}

// Functions whose instructions use `global`, directly or through constant expressions.
llvm::SmallPtrSet<llvm::Function *, 4> functions_using(llvm::GlobalVariable &global) {
  llvm::SmallPtrSet<llvm::Function *, 4> functions;
  llvm::SmallVector<llvm::User *, 16> work(global.user_begin(), global.user_end());
  while (!work.empty()) {
    llvm::User *user = work.pop_back_val();
    if (auto *inst = llvm::dyn_cast<llvm::Instruction>(user)) {
      functions.insert(inst->getFunction());
    } else if (llvm::isa<llvm::ConstantExpr>(user)) {
      work.append(user->user_begin(), user->user_end());
    }
  }
  return functions;
}

// Rewrites each constant expression over `constant` used by instructions as
// an instruction of its own, so that every use of the global sits in a
// function that can compute its address.
void expand_constant_users(llvm::Constant &constant) {
  for (llvm::User *user : llvm::make_early_inc_range(constant.users())) {
    auto *expression = llvm::dyn_cast<llvm::ConstantExpr>(user);
    if (expression == nullptr) continue;
    expand_constant_users(*expression);
    for (llvm::User *inner : llvm::make_early_inc_range(expression->users())) {
      auto *inst = llvm::dyn_cast<llvm::Instruction>(inner);
      if (inst == nullptr) continue;
      if (auto *phi = llvm::dyn_cast<llvm::PHINode>(inst)) {
        for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i) {
          if (phi->getIncomingValue(i) != expression) continue;
          phi->setIncomingValue(i, expression->getAsInstruction(phi->getIncomingBlock(i)->getTerminator()));
        }
      } else {
        inst->replaceUsesOfWith(expression, expression->getAsInstruction(inst));
      }
    }
  }
}

// work_item->group->local_memory, computed once at the function's entry.
llvm::Value *local_base(llvm::Function &function) {
  llvm::IRBuilder<> b(&*function.getEntryBlock().getFirstInsertionPt());
  llvm::Value *work_item = function.getArg(function.arg_size() - 1);
  assert(work_item->getType() == work_item_pointer_type(function.getContext()));
  auto *byte_pointer = llvm::PointerType::get(b.getInt8Ty(), 0);
  llvm::Value *group = b.CreateLoad(
      byte_pointer, b.CreateStructGEP(work_item_type(function.getContext()), work_item, Group), "group");
  llvm::Value *field = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), group, offsetof(GroupContext, local_memory));
  // Loaded as a local pointer: an address space cast between a variable's
  // address and its loads would hide their stride from the vectoriser.
  auto *local_pointer = llvm::PointerType::get(b.getInt8Ty(), local_address_space);
  llvm::LoadInst *base =
      b.CreateLoad(local_pointer, b.CreatePointerCast(field, llvm::PointerType::get(local_pointer, 0)), "local_memory");
  // Fixed for the whole work-group: a store to local or global memory cannot
  // change it, so the optimiser may keep it in a register across the
  // work-item loops (region_emit.cpp puts this load inside them).
  base->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(function.getContext(), {}));
  return base;
}

} // namespace

// Kernels run one at a time per work-group, so each kernel's own variables
// may overlap another kernel's; only variables that several kernels reach
// (through a shared function) need one place for all, and go first.
void assign_local_offsets(llvm::Module &module) {
  llvm::SmallVector<llvm::SmallPtrSet<llvm::Function *, 16>, 4> kernels;
  for (llvm::Function &function : module) {
    if (function.getCallingConv() == llvm::CallingConv::SPIR_KERNEL && !function.isDeclaration()) {
      kernels.push_back(reachable_functions(function));
    }
  }
  llvm::SmallVector<std::pair<llvm::GlobalVariable *, int>, 8> variables; // owning kernel, or -1 when shared
  for (llvm::GlobalVariable &global : module.globals()) {
    if (global.getAddressSpace() != local_address_space || global.use_empty()) continue;
    int owner = -2;
    for (llvm::Function *user : functions_using(global)) {
      for (int k = 0; k < int(kernels.size()); ++k) {
        if (kernels[k].contains(user)) owner = owner == -2 || owner == k ? k : -1;
      }
    }
    variables.emplace_back(&global, owner < 0 ? -1 : owner);
  }
  auto place = [&](llvm::GlobalVariable &global, uint64_t &end) {
    llvm::Align align = module.getDataLayout().getValueOrABITypeAlignment(global.getAlign(), global.getValueType());
    uint64_t offset = llvm::alignTo(end, align);
    end = offset + size_of(global);
    auto *i64 = llvm::Type::getInt64Ty(module.getContext());
    global.setMetadata(offset_kind, llvm::MDNode::get(module.getContext(), {llvm::ConstantAsMetadata::get(
                                                                                 llvm::ConstantInt::get(i64, offset))}));
  };
  uint64_t shared_end = 0;
  for (auto [global, owner] : variables) {
    if (owner == -1) place(*global, shared_end);
  }
  for (int k = 0; k < int(kernels.size()); ++k) {
    uint64_t end = shared_end;
    for (auto [global, owner] : variables) {
      if (owner == k) place(*global, end);
    }
  }
}

uint64_t static_local_bytes(llvm::Function &kernel) {
  auto reachable = reachable_functions(kernel);
  uint64_t bytes = 0;
  for (llvm::GlobalVariable &global : kernel.getParent()->globals()) {
    if (!is_local_variable(global)) continue;
    for (llvm::Function *user : functions_using(global)) {
      if (reachable.contains(user)) bytes = std::max(bytes, recorded_offset(global) + size_of(global));
    }
  }
  return bytes;
}

void lower_local_variables(llvm::Module &module) {
  llvm::DenseMap<llvm::Function *, llvm::Value *> bases;
  for (llvm::GlobalVariable &global : llvm::make_early_inc_range(module.globals())) {
    if (!is_local_variable(global)) continue;
    expand_constant_users(global);
    uint64_t offset = recorded_offset(global);
    for (llvm::Use &use : llvm::make_early_inc_range(global.uses())) {
      auto *inst = llvm::dyn_cast<llvm::Instruction>(use.getUser());
      if (inst == nullptr) continue; // a constant initialiser elsewhere: left to fail verification loudly
      llvm::Function *function = inst->getFunction();
      llvm::Value *&base = bases[function];
      if (base == nullptr) base = local_base(*function);
      llvm::IRBuilder<> b(llvm::cast<llvm::Instruction>(base)->getNextNode());
      llvm::Value *address = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), base, offset);
      use.set(b.CreatePointerBitCastOrAddrSpaceCast(address, global.getType()));
    }
    if (global.use_empty()) global.eraseFromParent();
  }
}

} // namespace zeal::cpu::detail
