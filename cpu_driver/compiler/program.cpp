// compile_spirv: runs the phases, optimises with the new pass manager and JITs the result with ORC LLJIT.
#include "cpu_driver/compiler/internal.hpp"

#include "common/log.hpp"

#include <fmt/format.h>
#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>

#include <mutex>

namespace zeal::cpu {

const KernelInfo *Program::find_kernel(std::string_view name) const {
  for (const KernelInfo &kernel : kernels()) {
    if (kernel.name == name) return &kernel;
  }
  return nullptr;
}

namespace detail {
namespace {

class JitProgram final : public Program {
public:
  JitProgram(std::unique_ptr<llvm::orc::LLJIT> jit, std::vector<KernelInfo> kernels, std::string log)
      : jit_(std::move(jit)), kernels_(std::move(kernels)), log_(std::move(log)) {}
  std::span<const KernelInfo> kernels() const override { return kernels_; }
  const std::string &build_log() const override { return log_; }

private:
  std::unique_ptr<llvm::orc::LLJIT> jit_; // owns the code every KernelInfo::run points into
  std::vector<KernelInfo> kernels_;
  std::string log_;
};

void initialise_native_target() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

Error llvm_failure(const char *what, llvm::Error error) {
  return build_failure(fmt::format("{}: {}", what, llvm::toString(std::move(error))));
}

llvm::OptimizationLevel optimization_level(unsigned level) {
  switch (level) {
  case 0: return llvm::OptimizationLevel::O0;
  case 1: return llvm::OptimizationLevel::O1;
  case 2: return llvm::OptimizationLevel::O2;
  default: return llvm::OptimizationLevel::O3;
  }
}

void optimise(llvm::Module &module, llvm::TargetMachine &machine, unsigned level) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = level >= 2;
  tuning.SLPVectorization = level >= 2;
  llvm::PassBuilder builder(&machine, tuning);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  llvm::ModulePassManager passes = level == 0 ? builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0)
                                              : builder.buildPerModuleDefaultPipeline(optimization_level(level));
  passes.run(module, modules);
}

// Only the work-group functions (and, for a library, its exported functions)
// stay visible, so the optimiser may inline and drop everything else.
void hide_internals(llvm::Module &module, const CompileOptions &options) {
  auto hide = [&](llvm::GlobalValue &value) {
    if (value.isDeclaration() || value.hasLocalLinkage()) return;
    if (value.getName().startswith("zeal.wg.")) return;
    if (options.library_compilation && value.hasExternalLinkage()) return;
    value.setLinkage(llvm::GlobalValue::InternalLinkage);
  };
  for (llvm::Function &function : module) hide(function);
  for (llvm::GlobalVariable &global : module.globals()) hide(global);
}

Status verify(const llvm::Module &module, const char *stage) {
  std::string problems;
  llvm::raw_string_ostream out(problems);
  if (!llvm::verifyModule(module, &out)) return {};
  return build_failure(fmt::format("internal compiler error: the module is invalid {}: {}", stage, out.str()));
}

Status rewrite_for_host(llvm::Module &module, const CompileOptions &options, std::span<const KernelInfo> kernels) {
  use_c_calling_convention(module);
  lower_math_builtins(module);
  add_work_item_parameter(module);
  if (Status calls = check_external_calls(module, options); !calls) return calls;
  build_work_group_functions(module, kernels);
  hide_internals(module, options);
  return verify(module, "after lowering for the host");
}

Status define_runtime_symbols(llvm::orc::LLJIT &jit) {
  llvm::orc::SymbolMap symbols;
  for (const RuntimeSymbol &symbol : runtime_symbols()) {
    symbols[jit.mangleAndIntern(symbol.name)] =
        llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(symbol.address), llvm::JITSymbolFlags::Exported);
  }
  if (llvm::Error error = jit.getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(symbols)))) {
    return llvm_failure("the JIT could not define the C library symbols", std::move(error));
  }
  return {};
}

Result<std::unique_ptr<llvm::orc::LLJIT>> create_jit(llvm::orc::JITTargetMachineBuilder machine) {
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(machine)).create();
  if (!jit) return llvm_failure("the JIT could not be created", jit.takeError());
  // Failures also come back from lookup(); the default reporter would print to stderr.
  (*jit)->getExecutionSession().setErrorReporter([](llvm::Error error) {
    logger("zeal-cpu").debug("JIT session error: {}", llvm::toString(std::move(error)));
  });
  if (Status symbols = define_runtime_symbols(**jit); !symbols) return std::move(symbols).error();
  return std::move(*jit);
}

Status link_kernels(llvm::orc::LLJIT &jit, std::vector<KernelInfo> &kernels) {
  for (KernelInfo &kernel : kernels) {
    auto address = jit.lookup(work_group_function_name(kernel.name));
    if (!address) {
      return llvm_failure(fmt::format("kernel '{}' could not be linked", kernel.name).c_str(), address.takeError());
    }
    kernel.run = address->toPtr<WorkGroupFn>();
  }
  return {};
}

// ZEAL_LOG_LEVEL=trace shows what the JIT is given, to debug the lowering.
void trace_module(const llvm::Module &module) {
  spdlog::logger &log = logger("zeal-cpu");
  if (!log.should_log(spdlog::level::trace)) return;
  std::string text;
  llvm::raw_string_ostream out(text);
  module.print(out, nullptr);
  log.trace("optimised module:\n{}", out.str());
}

struct HostTarget {
  llvm::orc::JITTargetMachineBuilder builder;
  std::unique_ptr<llvm::TargetMachine> machine;
};

Result<HostTarget> host_target(unsigned opt_level) {
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) return llvm_failure("the host CPU could not be detected", builder.takeError());
  builder->setCodeGenOptLevel(opt_level == 0 ? llvm::CodeGenOpt::None : llvm::CodeGenOpt::Default);
  auto machine = builder->createTargetMachine();
  if (!machine) return llvm_failure("no target machine for the host", machine.takeError());
  return HostTarget{std::move(*builder), std::move(*machine)};
}

Result<std::unique_ptr<Program>> compile(std::span<const uint8_t> spirv, const CompileOptions &options) {
  initialise_native_target();
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = read_spirv(spirv, *context);
  if (!module) return std::move(module).error();
  auto target = host_target(options.opt_level);
  if (!target) return std::move(target).error();
  llvm::Module &ir = **module;
  ir.setTargetTriple(target->machine->getTargetTriple().str());
  ir.setDataLayout(target->machine->createDataLayout());

  auto kernels = describe_kernels(ir);
  if (!kernels) return std::move(kernels).error();
  if (Status rewritten = rewrite_for_host(ir, options, *kernels); !rewritten) return std::move(rewritten).error();
  optimise(ir, *target->machine, options.opt_level);
  trace_module(ir);
  for (KernelInfo &kernel : *kernels) kernel.private_bytes = private_bytes(ir, kernel.name);

  auto jit = create_jit(std::move(target->builder));
  if (!jit) return std::move(jit).error();
  llvm::orc::ThreadSafeModule owned(std::move(*module), std::move(context));
  if (llvm::Error error = (*jit)->addIRModule(std::move(owned))) {
    return llvm_failure("the JIT refused the module", std::move(error));
  }
  if (Status linked = link_kernels(**jit, *kernels); !linked) return std::move(linked).error();
  return std::unique_ptr<Program>(std::make_unique<JitProgram>(std::move(*jit), std::move(*kernels), std::string()));
}

} // namespace
} // namespace detail

Result<std::unique_ptr<Program>> compile_spirv(std::span<const uint8_t> spirv, const CompileOptions &options) {
  auto program = detail::compile(spirv, options);
  if (!program) logger("zeal-cpu").info("SPIR-V build failed: {}", program.error().log);
  return program;
}

} // namespace zeal::cpu
