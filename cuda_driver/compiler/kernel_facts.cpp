// Kernels' facts for the runtime: arguments and how each is passed, required and hinted sizes, static local memory.
#include "cuda_driver/compiler/internal.hpp"
#include "spirv_frontend/image_builtins.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace zeal::cuda {

namespace {

constexpr unsigned kSpirGlobal = 1, kSpirConstant = 2, kSpirLocal = 3, kSpirGeneric = 4;

uint32_t metadata_int(const llvm::MDNode *node, unsigned index) {
  if (node == nullptr || index >= node->getNumOperands()) return 0;
  if (auto *value = llvm::mdconst::dyn_extract<llvm::ConstantInt>(node->getOperand(index))) {
    return static_cast<uint32_t>(value->getZExtValue());
  }
  return 0;
}

PtxArg describe_arg(const llvm::Argument &arg, const llvm::DataLayout &layout) {
  llvm::Type *type = arg.getType();
  if (arg.hasByValAttr()) {
    return {PtxArgKind::Value, static_cast<uint32_t>(layout.getTypeAllocSize(arg.getParamByValType()))};
  }
  // The translator's images and samplers: pointers to opaque structs (spirv_frontend/image_builtins.hpp).
  llvm::StringRef opaque = frontend::opaque_pointee(type);
  if (opaque.startswith("opencl.image")) return {PtxArgKind::Image, 8};
  if (opaque == "opencl.sampler_t") return {PtxArgKind::Sampler, 8};
  if (auto *pointer = llvm::dyn_cast<llvm::PointerType>(type)) {
    unsigned space = pointer->getAddressSpace();
    if (space == kSpirLocal) return {PtxArgKind::LocalPointer, 0};
    if (space == kSpirGlobal || space == kSpirConstant || space == kSpirGeneric) return {PtxArgKind::GlobalPointer, 8};
  }
  return {PtxArgKind::Value, static_cast<uint32_t>(layout.getTypeAllocSize(type))};
}

// Functions a kernel reaches through direct calls, itself included.
std::set<const llvm::Function *> reachable_functions(const llvm::Function &kernel) {
  std::set<const llvm::Function *> seen{&kernel};
  std::vector<const llvm::Function *> work{&kernel};
  while (!work.empty()) {
    const llvm::Function *function = work.back();
    work.pop_back();
    for (const llvm::BasicBlock &block : *function) {
      for (const llvm::Instruction &instruction : block) {
        const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
        const llvm::Function *callee = call != nullptr ? call->getCalledFunction() : nullptr;
        if (callee != nullptr && !callee->isDeclaration() && seen.insert(callee).second) work.push_back(callee);
      }
    }
  }
  return seen;
}

// Whether an instruction of one of `functions` uses `value`, directly or through constant expressions.
bool used_in(const llvm::Value &value, const std::set<const llvm::Function *> &functions) {
  for (const llvm::User *user : value.users()) {
    if (const auto *instruction = llvm::dyn_cast<llvm::Instruction>(user)) {
      if (functions.count(instruction->getFunction()) != 0) return true;
    } else if (llvm::isa<llvm::ConstantExpr>(user) && used_in(*user, functions)) {
      return true;
    }
  }
  return false;
}

uint64_t static_local_bytes(const llvm::Function &kernel) {
  const llvm::Module &module = *kernel.getParent();
  std::set<const llvm::Function *> functions = reachable_functions(kernel);
  uint64_t bytes = 0;
  for (const llvm::GlobalVariable &global : module.globals()) {
    if (global.getAddressSpace() != kSpirLocal || !used_in(global, functions)) continue;
    uint64_t align = std::max<uint64_t>(global.getAlign().valueOrOne().value(), 1);
    bytes = (bytes + align - 1) / align * align + module.getDataLayout().getTypeAllocSize(global.getValueType());
  }
  return bytes;
}

PtxKernel describe_kernel(const llvm::Function &kernel) {
  PtxKernel info;
  info.name = kernel.getName().str();
  const llvm::DataLayout &layout = kernel.getParent()->getDataLayout();
  for (const llvm::Argument &arg : kernel.args()) info.args.push_back(describe_arg(arg, layout));
  const llvm::MDNode *group_size = kernel.getMetadata("reqd_work_group_size");
  const llvm::MDNode *hint = kernel.getMetadata("work_group_size_hint");
  for (unsigned d = 0; d < 3; ++d) {
    info.required_group_size[d] = metadata_int(group_size, d);
    info.group_size_hint[d] = metadata_int(hint, d);
  }
  info.required_subgroup_size = metadata_int(kernel.getMetadata("intel_reqd_sub_group_size"), 0);
  info.subgroup_size = info.required_subgroup_size != 0 ? info.required_subgroup_size : 32;
  info.static_local_bytes = static_local_bytes(kernel);
  return info;
}

} // namespace

Result<std::vector<PtxKernel>> describe_kernels(llvm::Module &module, const PtxOptions &options) {
  std::vector<PtxKernel> kernels;
  for (const llvm::Function &function : module) {
    if (function.getCallingConv() != llvm::CallingConv::SPIR_KERNEL || function.isDeclaration()) continue;
    PtxKernel kernel = describe_kernel(function);
    uint32_t required = kernel.required_subgroup_size;
    const std::vector<uint32_t> &sizes = options.subgroup_sizes;
    bool listed = std::find(sizes.begin(), sizes.end(), required) != sizes.end();
    // Sub-groups are warps or segments of one: 8, 16 and 32 lanes are the sizes this back end generates code for.
    bool generated = required == 8 || required == 16 || required == 32;
    if (required != 0 && (!listed || !generated)) {
      return build_failure(fmt::format(
          "kernel '{}' requires sub-group size {} (intel_reqd_sub_group_size), which the CUDA back end does not "
          "support: its sub-groups are warps of 32 work-items or segments of 8 or 16 of one",
          kernel.name, required));
    }
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}

} // namespace zeal::cuda
