// Splits a lowered module into one module per kernel, compiled at the kernel's first use, and one of shared state.
#include "cpu_driver/compiler/linking.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <vector>

namespace zeal::cpu::detail {
namespace {

using GlobalSet = llvm::SmallPtrSet<const llvm::GlobalValue *, 32>;

// Variables that must exist once per program: a kernel writing one must be
// seen by the others, and other modules import exported ones by address.
bool shared_state(const llvm::GlobalVariable &variable) {
  return !variable.isConstant() || !variable.hasLocalLinkage();
}

// The global values `roots` reach through their code and initialisers.
GlobalSet reached(llvm::ArrayRef<const llvm::GlobalValue *> roots) {
  GlobalSet seen(roots.begin(), roots.end());
  std::vector<const llvm::GlobalValue *> work(roots.begin(), roots.end());
  llvm::SmallPtrSet<const llvm::Constant *, 32> constants;
  std::vector<const llvm::Constant *> pending;
  auto note = [&](const llvm::Value *value) {
    if (auto *global = llvm::dyn_cast<llvm::GlobalValue>(value)) {
      if (seen.insert(global).second) work.push_back(global);
    } else if (auto *constant = llvm::dyn_cast<llvm::Constant>(value)) {
      if (constants.insert(constant).second) pending.push_back(constant);
    }
  };
  while (!work.empty() || !pending.empty()) {
    if (!pending.empty()) {
      const llvm::Constant *constant = pending.back();
      pending.pop_back();
      for (const llvm::Value *operand : constant->operands()) note(operand);
      continue;
    }
    const llvm::GlobalValue *global = work.back();
    work.pop_back();
    if (auto *function = llvm::dyn_cast<llvm::Function>(global)) {
      for (const llvm::Instruction &inst : llvm::instructions(*function)) {
        for (const llvm::Value *operand : inst.operands()) note(operand);
      }
    } else if (auto *variable = llvm::dyn_cast<llvm::GlobalVariable>(global); variable && variable->hasInitializer()) {
      note(variable->getInitializer());
    }
  }
  return seen;
}

// A copy of `module` defining what `roots` reach, except shared state when
// `with_shared_state` is false (it is then declared, to be found in the
// program's JITDylib). Only the roots keep their linkage; the rest is private
// to the copy, so that copies in one JITDylib never define a name twice.
std::unique_ptr<llvm::Module> extract(const llvm::Module &module, llvm::ArrayRef<const llvm::GlobalValue *> roots,
                                      bool with_shared_state) {
  GlobalSet wanted = reached(roots);
  llvm::ValueToValueMapTy map;
  auto copy = llvm::CloneModule(module, map, [&](const llvm::GlobalValue *global) {
    if (!wanted.contains(global)) return false;
    auto *variable = llvm::dyn_cast<llvm::GlobalVariable>(global);
    return with_shared_state || variable == nullptr || !shared_state(*variable);
  });
  GlobalSet kept;
  for (const llvm::GlobalValue *root : roots) kept.insert(llvm::cast<llvm::GlobalValue>(map[root]));
  auto privatise = [&](llvm::GlobalValue &global) {
    if (global.isDeclaration() || kept.contains(&global)) return;
    auto *variable = llvm::dyn_cast<llvm::GlobalVariable>(&global);
    if (variable != nullptr && with_shared_state && shared_state(*variable)) return;
    global.setLinkage(llvm::GlobalValue::InternalLinkage);
    global.setVisibility(llvm::GlobalValue::DefaultVisibility);
  };
  for (llvm::Function &function : *copy) privatise(function);
  for (llvm::GlobalVariable &variable : copy->globals()) privatise(variable);
  return copy;
}

} // namespace

SplitModule split_by_kernel(llvm::Module &module, std::span<const KernelInfo> kernels) {
  // Kernel modules reach shared state by name, so it must have one that links.
  for (llvm::GlobalVariable &variable : module.globals()) {
    if (variable.isDeclaration() || !shared_state(variable) || !variable.hasLocalLinkage()) continue;
    if (!variable.hasName()) variable.setName("zeal.variable");
    variable.setLinkage(llvm::GlobalValue::ExternalLinkage);
    variable.setVisibility(llvm::GlobalValue::HiddenVisibility);
  }
  SplitModule split;
  for (const KernelInfo &kernel : kernels) {
    const llvm::Function *function = module.getFunction(work_group_function_name(kernel.name));
    assert(function != nullptr && "every kernel has its work-group function");
    split.kernels.push_back(extract(module, {function}, false));
  }
  // Shared state and exported functions, each defined once; the kernel
  // modules have their own copies of the functions they call.
  std::vector<const llvm::GlobalValue *> shared;
  for (const llvm::GlobalVariable &variable : module.globals()) {
    if (!variable.isDeclaration() && shared_state(variable)) shared.push_back(&variable);
  }
  for (const llvm::Function &function : module) {
    if (!function.isDeclaration() && !function.hasLocalLinkage() &&
        !llvm::StringRef(function.getName()).startswith("zeal.wg.")) {
      shared.push_back(&function);
    }
  }
  if (!shared.empty()) split.shared = extract(module, shared, true);
  return split;
}

} // namespace zeal::cpu::detail
