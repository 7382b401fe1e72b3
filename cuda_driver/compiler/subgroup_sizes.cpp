// The sub-group size each function's built-ins run with: a constant where one size reaches it, else the stored one.
//
// Each kernel runs with its own sub-group size (8, 16 or 32), but built-ins are defined once per module, before
// anything is inlined. They ask for the size through a call of __zeal_sub_group_size, whose body reads the hidden
// value the entry stores. Once the built-ins are inlined, a call in a function that only kernels of one size reach
// (only through direct calls, and none from outside the module) becomes that constant, so that shuffles, masks and
// the steps past the size fold away; the other calls (a function that kernels of two sizes share, an exported one
// that another module's kernel may call) keep reading the hidden value, correct for any size.
#include "cuda_driver/compiler/internal.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include <map>
#include <optional>
#include <set>

namespace zeal::cuda {

namespace {

constexpr const char *kSizeFunction = "__zeal_sub_group_size";

llvm::Function *size_function(llvm::Module &module) {
  if (llvm::Function *known = module.getFunction(kSizeFunction)) return known;
  auto *type = llvm::FunctionType::get(llvm::Type::getInt32Ty(module.getContext()), false);
  auto *function = llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage, kSizeFunction, module);
  // Not inlined before resolve_subgroup_sizes has seen its calls.
  function->addFnAttr(llvm::Attribute::NoInline);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "entry", function));
  b.CreateRet(b.CreateAlignedLoad(b.getInt32Ty(), hidden_value(b, kHiddenSubGroupSize), llvm::Align(4)));
  return function;
}

// The one sub-group size of the kernels that reach `function`, when nothing else can call it.
std::optional<uint32_t> single_size(llvm::Function &function, const std::map<std::string, uint32_t> &sizes) {
  std::optional<uint32_t> size;
  std::set<llvm::Function *> seen{&function};
  std::vector<llvm::Function *> work{&function};
  while (!work.empty()) {
    llvm::Function *current = work.back();
    work.pop_back();
    auto kernel = sizes.find(current->getName().str());
    if (kernel != sizes.end() && !current->hasLocalLinkage()) {
      if (size && *size != kernel->second) return std::nullopt;
      size = kernel->second;
      continue;
    }
    if (!current->hasLocalLinkage()) return std::nullopt;
    for (llvm::User *user : current->users()) {
      auto *call = llvm::dyn_cast<llvm::CallBase>(user);
      if (call == nullptr || call->getCalledOperand() != current) return std::nullopt;
      if (seen.insert(call->getFunction()).second) work.push_back(call->getFunction());
    }
  }
  return size;
}

} // namespace

llvm::Value *subgroup_size(llvm::IRBuilder<> &b) {
  return b.CreateCall(size_function(*b.GetInsertBlock()->getModule()));
}

void resolve_subgroup_sizes(llvm::Module &module, const std::vector<PtxKernel> &kernels) {
  llvm::Function *function = module.getFunction(kSizeFunction);
  if (function == nullptr) return;
  inline_always_inlined(module);
  std::map<std::string, uint32_t> sizes;
  for (const PtxKernel &kernel : kernels) sizes[kernel.name] = kernel.subgroup_size;
  std::map<llvm::Function *, std::optional<uint32_t>> known;
  std::vector<llvm::CallBase *> calls;
  for (llvm::User *user : function->users()) {
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(user)) calls.push_back(call);
  }
  for (llvm::CallBase *call : calls) {
    llvm::Function *caller = call->getFunction();
    if (known.count(caller) == 0) known[caller] = single_size(*caller, sizes);
    if (!known[caller]) continue;
    call->replaceAllUsesWith(llvm::ConstantInt::get(call->getType(), *known[caller]));
    call->eraseFromParent();
  }
  function->removeFnAttr(llvm::Attribute::NoInline);
  function->addFnAttr(llvm::Attribute::AlwaysInline);
  if (function->use_empty()) function->eraseFromParent();
}

} // namespace zeal::cuda
