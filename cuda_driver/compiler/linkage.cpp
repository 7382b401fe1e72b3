// What a PTX module keeps visible: kernels (and, with library compilation, exported functions and variables); what
// stays declared must be an import of the SPIR-V module, kept as `.extern` for the runtime's cuLink; calls through
// function pointers go by the joint module's table.
#include "cuda_driver/compiler/internal.hpp"

#include <fmt/format.h>

namespace zeal::cuda {

namespace {

// Exported variables stay visible always (the runtime finds them with cuModuleGetGlobal); exported functions with
// library compilation, or when the module is made for function pointers.
bool stays_visible(const llvm::GlobalValue &value, const std::set<std::string> &kernels,
                   const std::set<std::string> &exports, bool keep_exported_functions) {
  std::string name = value.getName().str();
  bool exported = exports.count(name) != 0 && (keep_exported_functions || llvm::isa<llvm::GlobalVariable>(value));
  return kernels.count(name) != 0 || exported || value.hasAppendingLinkage() || value.getName().startswith("llvm.");
}

} // namespace

Status internalize_and_check(llvm::Module &module, const std::vector<PtxKernel> &kernels,
                             const std::set<std::string> &imports, const std::set<std::string> &exports,
                             bool keep_exported_functions) {
  std::set<std::string> kernel_names;
  for (const PtxKernel &kernel : kernels) kernel_names.insert(kernel.name);
  for (llvm::GlobalValue &value : module.global_values()) {
    if (value.isDeclaration() || stays_visible(value, kernel_names, exports, keep_exported_functions)) continue;
    value.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  std::vector<llvm::Function *> unused;
  for (llvm::Function &function : module) {
    if (!function.isDeclaration() || function.isIntrinsic() || imports.count(function.getName().str()) != 0) continue;
    if (function.getName() == kPtxVprintf) continue; // a PTX system call: CUDA's JIT provides it
    if (function.use_empty()) {
      unused.push_back(&function);
      continue;
    }
    return build_failure(fmt::format("{}, which neither libclc nor the CUDA back end defines",
                                     who_calls(function, kernels)));
  }
  for (llvm::Function *function : unused) function->eraseFromParent();
  for (llvm::GlobalVariable &global : module.globals()) {
    if (!global.isDeclaration() || imports.count(global.getName().str()) != 0) continue;
    if (global.getName() == "__zeal_dynamic_shared") continue;
    return build_failure(fmt::format("the module uses the variable '{}', which no module defines",
                                     global.getName().str()));
  }
  return {};
}

void publish_function_addresses(llvm::Module &module, const std::vector<PtxKernel> &kernels,
                                const std::set<std::string> &exports) {
  std::set<std::string> kernel_names;
  for (const PtxKernel &kernel : kernels) kernel_names.insert(kernel.name);
  llvm::Type *generic = llvm::PointerType::get(module.getContext(), kNvptxGeneric);
  for (const std::string &name : exports) {
    llvm::Function *function = module.getFunction(name);
    if (function == nullptr || function->isDeclaration() || kernel_names.count(name) != 0) continue;
    auto *address = new llvm::GlobalVariable(module, generic, true, llvm::GlobalValue::ExternalLinkage,
                                             llvm::ConstantExpr::getPointerBitCastOrAddrSpaceCast(function, generic),
                                             ptx_function_address_prefix + name, nullptr,
                                             llvm::GlobalValue::NotThreadLocal, kNvptxGlobal);
    address->setAlignment(llvm::Align(8));
  }
}

void route_indirect_calls(llvm::Module &module) {
  std::vector<llvm::CallBase *> calls;
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &instruction : block)
        if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
            call != nullptr && call->isIndirectCall() && !call->isInlineAsm())
          calls.push_back(call);
  if (calls.empty()) return;
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  auto *table_type = llvm::ArrayType::get(i64, 0);
  auto *table = new llvm::GlobalVariable(module, table_type, false, llvm::GlobalValue::ExternalLinkage, nullptr,
                                         ptx_function_table, nullptr, llvm::GlobalValue::NotThreadLocal, kNvptxGlobal);
  table->setAlignment(llvm::Align(8));
  for (llvm::CallBase *call : calls) {
    llvm::IRBuilder<> b(call);
    llvm::Value *callee = call->getCalledOperand();
    llvm::Value *bits = b.CreatePtrToInt(callee, i64);
    llvm::Value *tagged = b.CreateICmpEQ(b.CreateLShr(bits, ptx_function_id_shift),
                                         b.getInt64(ptx_function_id_tag >> ptx_function_id_shift));
    // Entry 0 is never an id's: a pointer without the tag reads it and keeps its own value.
    llvm::Value *index = b.CreateSelect(tagged, b.CreateAnd(bits, b.getInt64(ptx_function_table_entries - 1)),
                                        b.getInt64(0));
    llvm::Value *slot = b.CreateInBoundsGEP(table_type, table, {b.getInt64(0), index});
    auto *address = b.CreateAlignedLoad(i64, slot, llvm::Align(8));
    llvm::Value *target = b.CreateIntToPtr(b.CreateSelect(tagged, address, bits), callee->getType());
    call->setCalledOperand(target);
  }
}

} // namespace zeal::cuda
