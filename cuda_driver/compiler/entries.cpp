// Kernels as PTX entries: each kernel's SPIR-V body becomes an internal function, always inlined into an entry of
// the same name whose parameters are the kernel's (a local pointer as a u32 byte offset into the launch's dynamic
// shared memory) and the four hidden ones (global offset x, y, z as u64; work dimensions as u32). The entry stores
// the hidden values, with its sub-group size, at the start of dynamic shared memory, where the work-item and
// sub-group built-ins read them, and nvvm.annotations marks it a kernel.
#include "cuda_driver/compiler/internal.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Metadata.h>

#include <algorithm>
#include <map>
#include <set>

namespace zeal::cuda {

namespace {

void annotate(llvm::Function &entry, const PtxKernel &kernel) {
  llvm::Module &module = *entry.getParent();
  llvm::LLVMContext &context = module.getContext();
  llvm::NamedMDNode *annotations = module.getOrInsertNamedMetadata("nvvm.annotations");
  auto add = [&](const char *key, uint32_t value) {
    llvm::Metadata *operands[] = {llvm::ValueAsMetadata::get(&entry), llvm::MDString::get(context, key),
                                  llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), value))};
    annotations->addOperand(llvm::MDNode::get(context, operands));
  };
  add("kernel", 1);
  if (kernel.required_group_size[0] != 0) {
    add("reqntidx", kernel.required_group_size[0]);
    add("reqntidy", std::max(kernel.required_group_size[1], 1u));
    add("reqntidz", std::max(kernel.required_group_size[2], 1u));
  }
}

llvm::Function *declare_entry(llvm::Function &body, const PtxKernel &kernel) {
  llvm::LLVMContext &context = body.getContext();
  std::vector<llvm::Type *> params;
  for (size_t i = 0; i < kernel.args.size(); ++i) {
    bool local = kernel.args[i].kind == PtxArgKind::LocalPointer;
    params.push_back(local ? llvm::Type::getInt32Ty(context) : body.getArg(i)->getType());
  }
  for (int d = 0; d < 3; ++d) params.push_back(llvm::Type::getInt64Ty(context));
  params.push_back(llvm::Type::getInt32Ty(context));
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), params, false);
  llvm::Function *entry = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, "", body.getParent());
  std::string name = body.getName().str();
  body.setName(name + ".body");
  entry->setName(name);
  for (size_t i = 0; i < kernel.args.size(); ++i) {
    entry->getArg(i)->setName(body.getArg(i)->getName());
    if (body.hasParamAttribute(i, llvm::Attribute::ByVal)) {
      entry->addParamAttr(i, llvm::Attribute::getWithByValType(context, body.getParamByValType(i)));
      if (llvm::MaybeAlign align = body.getParamAlign(i)) entry->addParamAttr(i, llvm::Attribute::getWithAlignment(context, *align));
    }
  }
  return entry;
}

// Every work-item stores the same hidden values (work_items.cpp says why no barrier follows).
void store_hidden_values(llvm::IRBuilder<> &b, llvm::Function &entry, const PtxKernel &kernel) {
  size_t count = kernel.args.size();
  for (unsigned d = 0; d < 3; ++d) {
    b.CreateAlignedStore(entry.getArg(count + d), hidden_value(b, kHiddenGlobalOffset + 8 * d), llvm::Align(8));
  }
  b.CreateAlignedStore(entry.getArg(count + 3), hidden_value(b, kHiddenWorkDim), llvm::Align(4));
  b.CreateAlignedStore(b.getInt32(kernel.subgroup_size), hidden_value(b, kHiddenSubGroupSize), llvm::Align(4));
}

void make_entry(llvm::Function &body, const PtxKernel &kernel, llvm::GlobalVariable *shared) {
  llvm::Function *entry = declare_entry(body, kernel);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(body.getContext(), "entry", entry));
  size_t count = kernel.args.size();
  store_hidden_values(b, *entry, kernel);
  std::vector<llvm::Value *> args;
  for (size_t i = 0; i < count; ++i) {
    llvm::Value *arg = entry->getArg(i);
    if (kernel.args[i].kind == PtxArgKind::LocalPointer) {
      arg = b.CreateInBoundsGEP(b.getInt8Ty(), shared, b.CreateZExt(arg, b.getInt64Ty()));
    }
    args.push_back(arg);
  }
  llvm::CallInst *call = b.CreateCall(&body, args);
  for (size_t i = 0; i < count; ++i) {
    if (body.hasParamAttribute(i, llvm::Attribute::ByVal)) {
      call->addParamAttr(i, llvm::Attribute::getWithByValType(body.getContext(), body.getParamByValType(i)));
    }
  }
  b.CreateRetVoid();
  body.setLinkage(llvm::GlobalValue::InternalLinkage);
  body.removeFnAttr(llvm::Attribute::NoInline);
  body.removeFnAttr(llvm::Attribute::OptimizeNone);
  body.addFnAttr(llvm::Attribute::AlwaysInline);
  annotate(*entry, kernel);
}

// What a function does with the hidden values: stores them (an entry), reads them, or may read them through a call
// of something the module does not define (an import that cuLink joins) or through a pointer.
struct HiddenUse {
  std::vector<llvm::StoreInst *> stores;
  bool reads = false;
  std::vector<llvm::Function *> callees;
};

// Whether `pointer` may point into `object`, through any GEP, cast, select or phi.
bool derived_from(const llvm::Value *pointer, const llvm::GlobalVariable *object) {
  llvm::SmallVector<const llvm::Value *, 4> objects;
  llvm::getUnderlyingObjects(pointer, objects, nullptr, 0);
  return std::find(objects.begin(), objects.end(), object) != objects.end();
}

HiddenUse hidden_use(llvm::Function &function, llvm::GlobalVariable *shared) {
  const llvm::DataLayout &layout = function.getParent()->getDataLayout();
  HiddenUse use;
  for (llvm::Instruction &instruction : llvm::instructions(function)) {
    auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
    if (call != nullptr && !call->isInlineAsm()) { // the back end's own assembly (activemask) reads no memory
      llvm::Function *callee = call->getCalledFunction();
      if (callee == nullptr || (callee->isDeclaration() && !callee->isIntrinsic())) use.reads = true;
      else if (!callee->isDeclaration()) use.callees.push_back(callee);
    }
    for (llvm::Value *operand : instruction.operands()) {
      if (!operand->getType()->isPointerTy() || !derived_from(operand, shared)) continue;
      // A constant offset past the hidden values is local memory; a run-time one may be either (local memory
      // reached through an argument's offset, or a hidden value the optimiser chose by index), so it counts.
      int64_t offset = 0;
      bool constant = llvm::GetPointerBaseWithConstantOffset(operand, offset, layout) == shared;
      if (constant && offset >= int64_t(ptx_reserved_shared_bytes)) continue;
      auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
      if (constant && store != nullptr && store->getPointerOperand() == operand) use.stores.push_back(store);
      else use.reads = true;
    }
  }
  return use;
}

} // namespace

void make_entries(llvm::Module &module, const std::vector<PtxKernel> &kernels) {
  llvm::GlobalVariable *shared = dynamic_shared(module);
  for (const PtxKernel &kernel : kernels) make_entry(*module.getFunction(kernel.name), kernel, shared);
}

void drop_unread_hidden_values(llvm::Module &module) {
  llvm::GlobalVariable *shared = module.getGlobalVariable("__zeal_dynamic_shared");
  if (shared == nullptr) return;
  std::map<llvm::Function *, HiddenUse> uses;
  for (llvm::Function &function : module) {
    if (!function.isDeclaration()) uses[&function] = hidden_use(function, shared);
  }
  for (auto &[function, use] : uses) {
    if (use.stores.empty() || function->hasLocalLinkage()) continue;
    // The entry and what it calls, directly or not.
    std::set<llvm::Function *> seen{function};
    std::vector<llvm::Function *> work{function};
    bool read = false;
    while (!work.empty() && !read) {
      const HiddenUse &current = uses[work.back()];
      work.pop_back();
      read = current.reads;
      for (llvm::Function *callee : current.callees) {
        if (seen.insert(callee).second) work.push_back(callee);
      }
    }
    if (!read) {
      for (llvm::StoreInst *store : use.stores) store->eraseFromParent();
    }
  }
}

} // namespace zeal::cuda
