// Kernels refused one by one: those reaching an image built-in or a function nothing provides, cut off from the rest.
#include "cpu_driver/compiler/host_runtime.hpp"
#include "cpu_driver/compiler/linking.hpp"

#include "common/log.hpp"

#include <fmt/format.h>
#include <llvm/ADT/MapVector.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>

#include <algorithm>
#include <vector>

namespace zeal::cpu::detail {
namespace {

// Why calling a declaration nothing provides cannot work: the clause saying so, and
// its rank in a refusal (images first: they say most about a kernel's purpose).
struct Why {
  unsigned rank;
  std::string clause;
};
using Unsupported = llvm::MapVector<llvm::Function *, Why>;
// Functions a root reaches, each with the function that referenced it first (the root: itself), breadth first.
using Reached = llvm::MapVector<llvm::Function *, llvm::Function *>;

// Images and samplers reach the IR as OpenCL built-ins taking the translator's opaque types
// (read_imagef(ocl_image2d_ro, ocl_sampler, ...)), or as the sampler's constructor; those left undefined here are
// the ones builtins/images.cpp does not provide (sub-group block reads of images, mip-maps, multisampling).
Why why_unsupported(const llvm::Function &function) {
  llvm::StringRef name = function.getName();
  if (name.contains("ocl_image") || name.startswith("__spirv_Image") || name.startswith("__spirv_SampledImage")) {
    if (name.contains("intel_sub_group_block_"))
      return {0, "which reads or writes an image in sub-group blocks: this driver does so on global memory only"};
    return {0, "which takes an image: this driver does not provide that image built-in"};
  }
  if (name.contains("ocl_sampler") || name == "__translate_sampler_initializer") {
    return {1, "which makes or takes a sampler: this driver does not provide that built-in"};
  }
  return {2, "which is neither defined in the module nor provided by this driver"};
}

std::string readable(const llvm::Function &function) { return llvm::demangle(function.getName().str()); }

// 'read_imagef(ocl_image2d_ro, ...)' (_Z11read_imagef...): the mangled name too when it differs.
std::string called_name(const llvm::Function &function) {
  std::string name = function.getName().str(), shown = readable(function);
  return fmt::format("'{}'{}", shown, shown == name ? "" : fmt::format(" ({})", name));
}

// Declarations that calls reach and that nothing resolves: not intrinsics, not
// host functions the JIT binds, not imports zeModuleDynamicLink will bind.
Unsupported unsupported_functions(llvm::Module &module, const llvm::StringSet<> &imported) {
  Unsupported found;
  for (llvm::Function &function : module) {
    if (!function.isDeclaration() || function.isIntrinsic() || function.use_empty()) continue;
    if (is_host_symbol(function.getName()) || imported.contains(function.getName())) continue;
    found.insert({&function, why_unsupported(function)});
  }
  return found;
}

// Through calls, function pointers and the initialisers of the variables code
// refers to: whatever the root may end up running, not only its direct callees.
Reached reached_functions(llvm::Function &root) {
  Reached reached;
  reached.insert({&root, &root});
  llvm::SmallPtrSet<const llvm::Value *, 32> seen;
  for (size_t next = 0; next < reached.size(); ++next) {
    llvm::Function *function = (reached.begin() + next)->first;
    // Instruction by instruction, so that calls are named in the order the code makes them.
    for (const llvm::Instruction &inst : llvm::instructions(*function)) {
      std::vector<const llvm::Value *> pending(inst.op_begin(), inst.op_end());
      while (!pending.empty()) {
        const llvm::Value *value = pending.back();
        pending.pop_back();
        if (auto *callee = llvm::dyn_cast<llvm::Function>(value)) {
          reached.insert({const_cast<llvm::Function *>(callee), function});
        } else if (auto *variable = llvm::dyn_cast<llvm::GlobalVariable>(value)) {
          if (variable->hasInitializer() && seen.insert(variable).second) pending.push_back(variable->getInitializer());
        } else if (auto *constant = llvm::dyn_cast<llvm::Constant>(value); constant && seen.insert(constant).second) {
          pending.insert(pending.end(), constant->op_begin(), constant->op_end());
        }
      }
    }
  }
  return reached;
}

// "kernel 'k' calls 'f' through 'helper(int)', which ...; it also calls ...": empty when `root` reaches none.
// Images first, then samplers, then the rest, each in the order the code reaches them.
std::string unsupported_calls(llvm::Function &root, const std::string &subject, const Unsupported &unsupported) {
  struct Call {
    const Why *why;
    std::string text;
  };
  std::vector<Call> calls;
  for (auto [function, caller] : reached_functions(root)) {
    auto found = unsupported.find(function);
    if (found == unsupported.end()) continue;
    std::string via = caller == &root ? "" : fmt::format(" through '{}'", readable(*caller));
    calls.push_back({&found->second, fmt::format("{}{}, {}", called_name(*function), via, found->second.clause)});
  }
  std::stable_sort(calls.begin(), calls.end(), [](const Call &a, const Call &b) { return a.why->rank < b.why->rank; });
  std::string sentence;
  for (const Call &call : calls) {
    sentence += fmt::format("{} {}", sentence.empty() ? subject + " calls" : "; it also calls", call.text);
  }
  return sentence;
}

// A refused kernel is never run, so its code need not be compiled: a trap
// takes its place (in case it ever were), and what only it called is dropped.
void replace_body_with_trap(llvm::Function &kernel) {
  for (llvm::BasicBlock &block : kernel) block.dropAllReferences();
  while (!kernel.empty()) kernel.begin()->eraseFromParent();
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(kernel.getContext(), "refused", &kernel));
  b.CreateIntrinsic(llvm::Intrinsic::trap, {}, {});
  b.CreateRetVoid();
}

// The calls left are in functions no runnable kernel reaches (exported ones
// of a library, dead ones): each becomes a trap, so the module has no
// reference the JIT could not resolve.
void trap_calls_to(llvm::Function &function) {
  for (llvm::User *user : llvm::make_early_inc_range(function.users())) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(user);
    if (call == nullptr || call->getCalledOperand() != &function) continue;
    llvm::IRBuilder<> b(call);
    b.CreateIntrinsic(llvm::Intrinsic::trap, {}, {});
    if (!call->getType()->isVoidTy()) call->replaceAllUsesWith(llvm::PoisonValue::get(call->getType()));
    call->eraseFromParent();
  }
  if (!function.use_empty()) function.replaceAllUsesWith(llvm::Constant::getNullValue(function.getType()));
  function.eraseFromParent();
}

// The imports `root` may call, in the order its code reaches them.
std::vector<std::string> imports_reached(llvm::Function &root, const llvm::StringSet<> &imported) {
  std::vector<std::string> names;
  for (auto [function, caller] : reached_functions(root))
    if (function->isDeclaration() && imported.contains(function->getName())) names.push_back(function->getName().str());
  return names;
}

} // namespace

std::string refuse_unsupported_kernels(llvm::Module &module, std::span<KernelInfo> kernels,
                                       std::span<const std::string> imports, std::span<const std::string> exported,
                                       std::map<std::string, ExportReach, std::less<>> &reach) {
  llvm::StringSet<> imported;
  for (const std::string &name : imports) imported.insert(name);
  Unsupported unsupported = unsupported_functions(module, imported);
  std::vector<llvm::Function *> refused;
  for (KernelInfo &kernel : kernels) {
    llvm::Function *function = module.getFunction(kernel.name);
    assert(function != nullptr && "described kernels are in the module");
    kernel.refusal = unsupported_calls(*function, fmt::format("kernel '{}'", kernel.name), unsupported);
    if (kernel.refusal.empty()) {
      if (!imported.empty()) kernel.imports_reached = imports_reached(*function, imported);
      continue;
    }
    kernel.uses_barriers = false; // its body is now a trap
    refused.push_back(function);
  }
  std::string notes;
  for (const std::string &name : exported) {
    llvm::Function *function = module.getFunction(name);
    if (function == nullptr || function->isDeclaration()) continue;
    ExportReach r;
    r.unsupported = unsupported_calls(*function, fmt::format("exported function '{}'", readable(*function)),
                                      unsupported);
    if (!imported.empty()) r.imports = imports_reached(*function, imported);
    if (!r.unsupported.empty())
      notes += fmt::format("info: {}; such a call is compiled as a trap, and a link refuses the kernels of other "
                           "modules that reach it\n",
                           r.unsupported);
    if (!r.unsupported.empty() || !r.imports.empty()) reach.emplace(name, std::move(r));
  }
  for (llvm::Function *kernel : refused) replace_body_with_trap(*kernel);
  for (auto &[function, why] : unsupported) trap_calls_to(*function);
  return notes;
}

std::string refusal_notes(std::span<const KernelInfo> kernels) {
  std::string notes;
  for (const KernelInfo &kernel : kernels) {
    if (!kernel.refusal.empty()) notes += fmt::format("info: kernel refused: {}\n", kernel.refusal);
  }
  return notes;
}

} // namespace zeal::cpu::detail
