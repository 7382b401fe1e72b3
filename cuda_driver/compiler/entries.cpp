// Kernels as PTX entries: each kernel's SPIR-V body becomes an internal function, always inlined into an entry of
// the same name whose parameters are the kernel's (a local pointer as a u32 byte offset into the launch's dynamic
// shared memory) and the four hidden ones (global offset x, y, z as u64; work dimensions as u32). The entry stores
// the hidden values where the work-item built-ins read them, and nvvm.annotations marks it a kernel.
#include "cuda_driver/compiler/internal.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Metadata.h>

namespace zeal::cuda {

namespace {

llvm::GlobalVariable *dynamic_shared(llvm::Module &module) {
  constexpr const char *name = "__zeal_dynamic_shared";
  if (llvm::GlobalVariable *known = module.getGlobalVariable(name)) return known;
  llvm::Type *type = llvm::ArrayType::get(llvm::Type::getInt8Ty(module.getContext()), 0);
  auto *global = new llvm::GlobalVariable(module, type, false, llvm::GlobalValue::ExternalLinkage, nullptr, name,
                                          nullptr, llvm::GlobalValue::NotThreadLocal, kNvptxShared);
  global->setAlignment(llvm::Align(16));
  return global;
}

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

void make_entry(llvm::Function &body, const PtxKernel &kernel, HiddenValues hidden, llvm::GlobalVariable *shared) {
  llvm::Function *entry = declare_entry(body, kernel);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(body.getContext(), "entry", entry));
  size_t count = kernel.args.size();
  for (unsigned d = 0; d < 3; ++d) {
    b.CreateStore(entry->getArg(count + d),
                  b.CreateConstInBoundsGEP2_32(hidden.global_offset->getValueType(), hidden.global_offset, 0, d));
  }
  b.CreateStore(entry->getArg(count + 3), hidden.work_dim);
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

} // namespace

void make_entries(llvm::Module &module, const std::vector<PtxKernel> &kernels) {
  HiddenValues hidden = hidden_values(module);
  llvm::GlobalVariable *shared = dynamic_shared(module);
  for (const PtxKernel &kernel : kernels) make_entry(*module.getFunction(kernel.name), kernel, hidden, shared);
}

} // namespace zeal::cuda
