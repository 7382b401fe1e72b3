// cl_intel_subgroups' block reads and writes through a pointer (intel_sub_group_block_read/write and their _ui, _us,
// _uc, _ul and vector forms): element k of lane l is p[k * S + l], S the sub-group's maximum size (the kernel's
// sub-group size, or the work-group's size when smaller). The image forms are refused (refusals.cpp).
#include "cuda_driver/compiler/internal.hpp"

namespace zeal::cuda {

namespace {

// p[k * S + l] for element k.
llvm::Value *element_at(llvm::IRBuilder<> &b, llvm::Type *element, llvm::Value *pointer, llvm::Value *lane,
                        llvm::Value *stride, unsigned k) {
  llvm::Value *index = b.CreateAdd(b.CreateMul(b.getInt32(k), stride), lane);
  return b.CreateInBoundsGEP(element, pointer, b.CreateZExt(index, b.getInt64Ty()));
}

void define_block(llvm::Function &f, bool read) {
  llvm::Type *data = read ? f.getReturnType() : f.getArg(1)->getType();
  auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(data);
  llvm::Type *element = data->getScalarType();
  unsigned count = vector != nullptr ? vector->getNumElements() : 1;
  llvm::IRBuilder<> b = begin_definition(f);
  f.addFnAttr(llvm::Attribute::Convergent);
  SubGroupPlace place = subgroup_place(b, subgroup_size(b));
  llvm::Value *stride = place.max_size;
  llvm::Value *pointer = f.getArg(0);
  llvm::Value *result = llvm::PoisonValue::get(data);
  for (unsigned k = 0; k < count; ++k) {
    llvm::Value *at = element_at(b, element, pointer, place.lane, stride, k);
    if (read) {
      llvm::Value *value = b.CreateLoad(element, at);
      result = vector != nullptr ? b.CreateInsertElement(result, value, k) : value;
    } else {
      llvm::Value *value = vector != nullptr ? b.CreateExtractElement(f.getArg(1), k) : f.getArg(1);
      b.CreateStore(value, at);
    }
  }
  if (read) b.CreateRet(result);
  else b.CreateRetVoid();
}

} // namespace

void define_subgroup_blocks(llvm::Module &module) {
  for (llvm::Function &f : module) {
    if (!f.isDeclaration() || f.isIntrinsic() || f.arg_size() == 0 || !f.getArg(0)->getType()->isPointerTy()) continue;
    llvm::StringRef base = opencl_base_name(f.getName());
    bool read = base.startswith("intel_sub_group_block_read") && f.arg_size() == 1;
    bool write = base.startswith("intel_sub_group_block_write") && f.arg_size() == 2 && f.getReturnType()->isVoidTy();
    if (!read && !write) continue;
    llvm::Type *data = read ? f.getReturnType() : f.getArg(1)->getType();
    if (!data->getScalarType()->isIntegerTy()) continue;
    define_block(f, read);
  }
}

} // namespace zeal::cuda
