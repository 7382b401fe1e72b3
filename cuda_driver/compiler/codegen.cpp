// LLVM 15's NVPTX target: initialised once per process, a target machine, an optimisation pipeline and a PTX
// emission per call, so that several threads compile at once (each with its own LLVMContext).
#include "cuda_driver/compiler/internal.hpp"

#include <llvm/ADT/SmallString.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <iterator>
#include <cstdio>
#include <mutex>
#include <optional>

extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTarget();
extern "C" void LLVMInitializeNVPTXTargetMC();
extern "C" void LLVMInitializeNVPTXAsmPrinter();

namespace zeal::cuda {

namespace {

constexpr const char *kTriple = "nvptx64-nvidia-cuda";

llvm::CodeGenOpt::Level codegen_level(unsigned opt_level) {
  switch (opt_level) {
  case 0: return llvm::CodeGenOpt::None;
  case 1: return llvm::CodeGenOpt::Less;
  case 2: return llvm::CodeGenOpt::Default;
  default: return llvm::CodeGenOpt::Aggressive;
  }
}

// Intrinsics NVPTX lowers to calls of libm functions, which PTX has no definition of.
bool becomes_library_call(llvm::Intrinsic::ID id) {
  switch (id) {
  case llvm::Intrinsic::sin: case llvm::Intrinsic::cos: case llvm::Intrinsic::pow: case llvm::Intrinsic::powi:
  case llvm::Intrinsic::exp: case llvm::Intrinsic::exp2: case llvm::Intrinsic::log: case llvm::Intrinsic::log2:
  case llvm::Intrinsic::log10:
    return true;
  default: return false;
  }
}

// LLVM's fatal errors (report_fatal_error: "Cannot select" and the like) end the process after the handler returns.
// On a thread inside this back end's code generation the handler throws instead, so that the error becomes the
// module's build failure; elsewhere (the CPU driver's LLVM in the same process, say) it says what LLVM says and
// returns, and LLVM ends the process as it would have.
thread_local bool in_code_generation = false;

struct CodeGenerationFailure {
  std::string reason;
};

void on_fatal_error(void *, const char *reason, bool) {
  if (in_code_generation) throw CodeGenerationFailure{reason};
  std::fprintf(stderr, "LLVM ERROR: %s\n", reason);
}

} // namespace

Result<std::unique_ptr<llvm::TargetMachine>> nvptx_target_machine(unsigned sm, unsigned opt_level) {
  static std::once_flag initialised;
  std::call_once(initialised, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    llvm::install_fatal_error_handler(on_fatal_error);
  });
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(kTriple, error);
  if (target == nullptr) return build_failure(fmt::format("LLVM has no NVPTX target: {}", error));
  // The newest architecture LLVM 15 knows that the device runs (the driver JIT-compiles PTX for newer devices).
  constexpr unsigned known[] = {30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86};
  if (sm < known[0]) {
    return build_failure(fmt::format("sm_{} is older than the CUDA back end supports (sm_30, the first with "
                                     "warp shuffles)", sm), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  }
  unsigned chosen = *std::prev(std::upper_bound(std::begin(known), std::end(known), sm));
  // PTX 7.0 is the first with sm_80, 7.1 the first with sm_86.
  std::string features = chosen >= 86 ? "+ptx71" : "+ptx70";
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      kTriple, fmt::format("sm_{}", chosen), features, options, llvm::None, llvm::None, codegen_level(opt_level)));
  if (machine == nullptr) return build_failure(fmt::format("LLVM cannot make an NVPTX target for sm_{}", chosen));
  return machine;
}

namespace {

// Runs the module pipeline that `make` builds from `builder`, with the analyses `builder` registers.
void run_pipeline(llvm::Module &module, llvm::PassBuilder &builder,
                  const std::function<llvm::ModulePassManager(llvm::PassBuilder &)> &make) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::ModulePassManager passes = make(builder);
  passes.run(module, modules);
}

} // namespace

void optimize(llvm::Module &module, llvm::TargetMachine &machine, unsigned opt_level) {
  // The constructor registers the target's callbacks (NVVMReflect, NVPTX's own passes) and its TTI.
  llvm::PassBuilder builder(&machine);
  run_pipeline(module, builder, [&](llvm::PassBuilder &pipelines) {
    if (opt_level == 0) return pipelines.buildO0DefaultPipeline(llvm::OptimizationLevel::O0);
    llvm::OptimizationLevel level = opt_level == 1   ? llvm::OptimizationLevel::O1
                                    : opt_level == 2 ? llvm::OptimizationLevel::O2
                                                     : llvm::OptimizationLevel::O3;
    return pipelines.buildPerModuleDefaultPipeline(level);
  });
}

void inline_always_inlined(llvm::Module &module) {
  llvm::PassBuilder builder;
  run_pipeline(module, builder, [](llvm::PassBuilder &) {
    llvm::ModulePassManager passes;
    passes.addPass(llvm::AlwaysInlinerPass(false));
    return passes;
  });
}

// Why NVPTX cannot generate an instruction, or nothing.
std::optional<std::string> unsupported_instruction(const llvm::Instruction &instruction) {
  const auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction);
  if (alloca != nullptr && !llvm::isa<llvm::ConstantInt>(alloca->getArraySize())) {
    return std::string("allocates private memory of a run-time size");
  }
  if (const auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(&instruction)) {
    bool division = binary->getOpcode() == llvm::Instruction::UDiv || binary->getOpcode() == llvm::Instruction::SDiv ||
                    binary->getOpcode() == llvm::Instruction::URem || binary->getOpcode() == llvm::Instruction::SRem;
    if (division && binary->getType()->getScalarSizeInBits() > 64) {
      return fmt::format("divides {}-bit integers", binary->getType()->getScalarSizeInBits());
    }
  }
  return std::nullopt;
}

void hoist_allocas(llvm::Module &module) {
  for (llvm::Function &function : module) {
    if (function.isDeclaration()) continue;
    llvm::BasicBlock &entry = function.getEntryBlock();
    std::vector<llvm::AllocaInst *> moved;
    for (llvm::BasicBlock &block : function) {
      if (&block == &entry) continue;
      for (llvm::Instruction &instruction : block) {
        auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction);
        if (alloca != nullptr && llvm::isa<llvm::ConstantInt>(alloca->getArraySize())) moved.push_back(alloca);
      }
    }
    for (llvm::AllocaInst *alloca : moved) alloca->moveBefore(&*entry.getFirstInsertionPt());
  }
}

// Module-level constructs NVPTX's printer stops on with a fatal error.
Status check_module_level(llvm::Module &module) {
  for (const char *name : {"llvm.global_ctors", "llvm.global_dtors"}) {
    const llvm::GlobalVariable *list = module.getNamedGlobal(name);
    if (list != nullptr && list->hasInitializer() && !list->getInitializer()->isNullValue()) {
      return build_failure("the module has global constructors or destructors, which the CUDA back end does not support");
    }
  }
  for (const llvm::GlobalVariable &global : module.globals()) {
    if (global.getAddressSpace() != kNvptxShared || !global.hasInitializer()) continue;
    const llvm::Constant *initial = global.getInitializer();
    if (!initial->isNullValue() && !llvm::isa<llvm::UndefValue>(initial)) {
      return build_failure(fmt::format("local variable '{}' has an initial value, which local memory cannot have",
                                       global.getName().str()));
    }
  }
  return {};
}

Status check_before_codegen(llvm::Module &module) {
  std::string problems;
  llvm::raw_string_ostream out(problems);
  if (llvm::verifyModule(module, &out)) {
    return build_failure(fmt::format("the CUDA back end made invalid LLVM IR (a defect of zeal): {}", out.str()));
  }
  if (Status module_level = check_module_level(module); !module_level) return module_level;
  for (llvm::Function &function : module) {
    if (!function.isIntrinsic() || !becomes_library_call(function.getIntrinsicID()) || function.use_empty()) continue;
    auto *call = llvm::dyn_cast<llvm::CallBase>(function.user_back());
    std::string caller = call != nullptr ? call->getFunction()->getName().str() : std::string("?");
    return build_failure(fmt::format("function '{}' calls '{}', which NVPTX would turn into a library call PTX does "
                                     "not have", caller, function.getName().str()));
  }
  for (llvm::Function &function : module) {
    for (llvm::BasicBlock &block : function) {
      for (llvm::Instruction &instruction : block) {
        if (auto why = unsupported_instruction(instruction)) {
          return build_failure(fmt::format("function '{}' {}, which the CUDA back end does not support",
                                           function.getName().str(), *why));
        }
      }
    }
  }
  return {};
}

Result<std::string> emit_ptx(llvm::Module &module, llvm::TargetMachine &machine) {
  // LLVM 15's NVPTX numbers call sites (and so indirect calls' `prototype_N` labels) with one unguarded counter of
  // the process: two modules' code generation at once could give one module a label twice. Code generation is
  // therefore one at a time; reading, linking and optimisation, the larger part, stay parallel.
  static std::mutex one_at_a_time;
  std::lock_guard<std::mutex> lock(one_at_a_time);
  llvm::SmallString<0> text;
  llvm::raw_svector_ostream out(text);
  auto passes = std::make_unique<llvm::legacy::PassManager>();
  if (machine.addPassesToEmitFile(*passes, out, nullptr, llvm::CGFT_AssemblyFile)) {
    return build_failure("LLVM's NVPTX target cannot emit PTX");
  }
  in_code_generation = true;
  try {
    passes->run(module);
  } catch (const CodeGenerationFailure &failure) {
    in_code_generation = false;
    // The passes stopped half-way; their state is not destroyed, but left (a leak on this path only).
    static_cast<void>(passes.release());
    std::string functions;
    for (const llvm::Function &function : module) {
      if (!function.isDeclaration()) functions += (functions.empty() ? "'" : ", '") + function.getName().str() + "'";
    }
    return build_failure(fmt::format("LLVM's NVPTX back end stopped generating code for the module (functions {}): {}",
                                     functions, failure.reason));
  }
  in_code_generation = false;
  return std::string(text.str());
}

} // namespace zeal::cuda
