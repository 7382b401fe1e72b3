// Imports and exports of a module in LLVM IR: static linking, checks, what stays visible and what is exported.
#include "cpu_driver/compiler/linking.hpp"
#include "cpu_driver/compiler/host_runtime.hpp"

#include <fmt/format.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>

namespace zeal::cpu::detail {
namespace {

llvm::StringSet<> as_set(std::span<const std::string> names) {
  llvm::StringSet<> set;
  for (const std::string &name : names) set.insert(name);
  return set;
}

std::string join(std::span<const uint32_t> sizes) {
  std::string text;
  for (uint32_t size : sizes) text += fmt::format("{}{}", text.empty() ? "" : ", ", size);
  return text;
}

} // namespace

Result<std::unique_ptr<llvm::Module>> link_statically(std::vector<std::unique_ptr<llvm::Module>> modules) {
  assert(!modules.empty());
  std::unique_ptr<llvm::Module> linked = std::move(modules.front());
  llvm::LLVMContext &context = linked->getContext();
  // The linker reports through the context's diagnostic handler, not its return value.
  std::string messages;
  struct Sink {
    std::string *messages;
  } sink{&messages};
  // The context's own handler (log_llvm_diagnostics) is back once linking ends.
  struct Restore {
    llvm::LLVMContext &context;
    std::unique_ptr<llvm::DiagnosticHandler> previous = context.getDiagnosticHandler();
    ~Restore() { context.setDiagnosticHandler(std::move(previous)); }
  } restore{context};
  context.setDiagnosticHandler(std::make_unique<llvm::DiagnosticHandler>()); // what the callback is set on
  context.setDiagnosticHandlerCallBack(
      [](const llvm::DiagnosticInfo &info, void *user) {
        llvm::raw_string_ostream out(*static_cast<Sink *>(user)->messages);
        llvm::DiagnosticPrinterRawOStream printer(out);
        info.print(printer);
        out << '\n';
      },
      &sink);
  llvm::Linker linker(*linked);
  for (size_t i = 1; i < modules.size(); ++i) {
    if (linker.linkInModule(std::move(modules[i]))) {
      return build_failure(fmt::format("input {} of the program could not be linked with the inputs before it: {}", i,
                                       messages.empty() ? std::string("no reason given\n") : messages));
    }
  }
  return linked;
}

std::vector<std::string> remaining_imports(const llvm::Module &module, const spirv::Linkage &spirv) {
  std::vector<std::string> imports;
  for (const std::string &name : spirv.imports) {
    const llvm::GlobalValue *value = module.getNamedValue(name);
    // What the driver's host runtime provides (DPC++'s __devicelib_assert_fail) is bound, not imported.
    if (value != nullptr && value->isDeclaration() && !is_host_symbol(name) &&
        std::find(imports.begin(), imports.end(), name) == imports.end()) {
      imports.push_back(name);
    }
  }
  return imports;
}

void retype_indirect_calls(llvm::Module &module) {
  for (llvm::Function &function : module) {
    for (llvm::Instruction &inst : llvm::instructions(function)) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
      if (call == nullptr || !call->isIndirectCall() || call->isInlineAsm()) continue;
      auto *pointer = llvm::cast<llvm::PointerType>(call->getCalledOperand()->getType());
      if (pointer->isOpaqueOrPointeeTypeMatches(call->getFunctionType())) continue;
      auto *wanted = llvm::PointerType::get(call->getFunctionType(), pointer->getAddressSpace());
      call->setCalledOperand(new llvm::BitCastInst(call->getCalledOperand(), wanted, "", call));
    }
  }
}

Status check_subgroup_sizes(std::span<const KernelInfo> kernels, const CompileOptions &options) {
  if (options.subgroup_sizes.empty()) return {};
  std::string log;
  const std::string device = options.device_name.empty() ? "the device" : options.device_name;
  for (const KernelInfo &kernel : kernels) {
    uint32_t size = kernel.required_subgroup_size != 0 ? kernel.required_subgroup_size : kernel.subgroup_size;
    if (size == 0 || std::ranges::find(options.subgroup_sizes, size) != options.subgroup_sizes.end()) continue;
    // A size nobody required was baked in by a native binary compiled for another
    // profile: its code cannot run with another size, so it is refused, not resized.
    std::string why = kernel.required_subgroup_size != 0
                          ? "requires sub-group size {} (intel_reqd_sub_group_size)"
                          : "was compiled for sub-group size {} (the primary size where its native binary was built)";
    log += fmt::format("error: kernel '{}' {}, which {} does not support; supported sub-group sizes: {}\n",
                       kernel.name, fmt::format(fmt::runtime(why), size), device, join(options.subgroup_sizes));
  }
  if (log.empty()) return {};
  return build_failure(log);
}

void hide_internals(llvm::Module &module, const spirv::Linkage &spirv, bool keep_functions) {
  llvm::StringSet<> exported = as_set(spirv.exports);
  auto hide = [&](llvm::GlobalValue &value, bool keep_exported) {
    if (value.isDeclaration() || value.hasLocalLinkage()) return;
    if (value.getName().startswith("zeal.wg.")) return;
    if (keep_exported && exported.contains(value.getName())) return;
    value.setLinkage(llvm::GlobalValue::InternalLinkage);
  };
  // Variables stay visible for zeModuleGetGlobalPointer; functions only for a library or a module made for
  // function pointers, where other code may call them (the optimiser then keeps a copy).
  for (llvm::Function &function : module) hide(function, keep_functions);
  for (llvm::GlobalVariable &global : module.globals()) hide(global, true);
}

Linkage final_linkage(const llvm::Module &module, const spirv::Linkage &spirv, std::vector<std::string> imports) {
  Linkage linkage;
  // An import the lowering defined (a built-in such as IGC's bfloat16
  // conversions, which modules import by name) needs no provider.
  std::erase_if(imports, [&](const std::string &name) {
    const llvm::GlobalValue *value = module.getNamedValue(name);
    return value == nullptr || !value->isDeclaration();
  });
  linkage.imports = std::move(imports);
  const llvm::DataLayout &layout = module.getDataLayout();
  for (const std::string &name : spirv.exports) {
    const llvm::GlobalValue *value = module.getNamedValue(name);
    if (value == nullptr || value->isDeclaration() || value->hasLocalLinkage()) continue;
    if (auto *global = llvm::dyn_cast<llvm::GlobalVariable>(value)) {
      linkage.exported_globals.push_back({name, layout.getTypeAllocSize(global->getValueType()).getFixedSize(), {}});
    } else if (llvm::isa<llvm::Function>(value)) {
      linkage.exported_functions.push_back(name);
    }
  }
  for (const auto &[host, exported] : spirv.host_aliases) {
    auto *global = module.getNamedGlobal(exported);
    if (global == nullptr || global->isDeclaration()) continue;
    linkage.exported_globals.push_back(
        {host, layout.getTypeAllocSize(global->getValueType()).getFixedSize(), exported});
  }
  return linkage;
}

} // namespace zeal::cpu::detail
