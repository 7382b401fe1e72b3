// compile_spirv: runs the phases, optimises with the new pass manager and compiles to an object for the JIT.
#include "cpu_driver/compiler/linking.hpp"

#include "common/log.hpp"
#include "spirv_frontend/legalize.hpp"
#include "spirv/host_access.hpp"
#include "spirv/imports.hpp"

#include <fmt/format.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Target/TargetMachine.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

namespace zeal::cpu {

const KernelInfo *Program::find_kernel(std::string_view name) const {
  for (const KernelInfo &kernel : kernels()) {
    if (kernel.name == name) return &kernel;
  }
  return nullptr;
}

namespace detail {
namespace {

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

} // namespace

void optimise(llvm::Module &module, llvm::TargetMachine &machine, unsigned level) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = level >= 2;
  tuning.SLPVectorization = level >= 2;
  llvm::PassBuilder builder(&machine, tuning);
  // The loop vectoriser may call libmvec's vector forms of sin, cos, exp, log
  // and pow; the AVX2 ones only where the target has AVX2 (their arguments are
  // in ymm registers).
  auto vector_forms = [](bool avx2) {
    std::vector<llvm::VecDesc> forms;
    for (const VectorMathFunction &f : vector_math_functions()) {
      if (!f.avx2 || avx2) forms.push_back({f.scalar, f.vector, llvm::ElementCount::getFixed(f.lanes)});
    }
    return forms;
  };
  static const std::vector<llvm::VecDesc> sse_forms = vector_forms(false), avx2_forms = vector_forms(true);
  llvm::TargetLibraryInfoImpl library(machine.getTargetTriple());
  library.addVectorizableFunctions(has_feature(machine, "avx2") ? avx2_forms : sse_forms);
  functions.registerPass([&] { return llvm::TargetLibraryAnalysis(library); });
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  llvm::ModulePassManager passes = level == 0 ? builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0)
                                              : builder.buildPerModuleDefaultPipeline(optimization_level(level));
  passes.run(module, modules);
  widen_half_vector_min_max(module);
  scalarise_constant_mask_accesses(module);
  if (level >= 2) {
    add_streaming_stores(module, machine); // the loops it versions are the vectorised ones
    add_stream_prefetches(module);         // in both versions of those loops
  }
}

namespace {
// The errors LLVM reported through log_llvm_diagnostics' handler on this thread (passes and code generation
// report synchronously, on the thread that runs them), for compile_object to fail with.
thread_local std::string llvm_errors;
} // namespace

Result<std::string> compile_object(llvm::Module &module, llvm::TargetMachine &machine, unsigned level) {
  llvm_errors.clear();
  optimise(module, machine, level);
  auto object = llvm::orc::SimpleCompiler(machine)(module);
  if (!object) return llvm_failure("code generation for the native binary failed", object.takeError());
  if (!llvm_errors.empty()) {
    return build_failure(fmt::format("code generation for the native binary failed: {}", std::exchange(llvm_errors, {})));
  }
  return (*object)->getBuffer().str();
}

void log_llvm_diagnostics(llvm::LLVMContext &context) {
  struct ToLog final : llvm::DiagnosticHandler {
    bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
      std::string text;
      llvm::raw_string_ostream out(text);
      llvm::DiagnosticPrinterRawOStream printer(out);
      info.print(printer);
      spdlog::logger &log = logger("zeal-cpu");
      if (info.getSeverity() == llvm::DS_Error) {
        log.warn("LLVM reported an error while compiling: {}", out.str());
        llvm_errors += out.str() + "\n";
      } else {
        log.debug("LLVM: {}", out.str());
      }
      return true;
    }
  };
  context.setDiagnosticHandler(std::make_unique<ToLog>());
}

namespace {

struct HostLayout {
  std::string triple, data_layout;
  explicit HostLayout(const llvm::TargetMachine &machine)
      : triple(machine.getTargetTriple().str()), data_layout(machine.createDataLayout().getStringRepresentation()) {}
};

// What the lowering needs of the host, from one target machine made on first
// use: a module build no longer generates code, so it need not make its own.
const Result<HostLayout> &host_layout() {
  static const Result<HostLayout> layout = []() -> Result<HostLayout> {
    auto machine = host_machine(2);
    if (!machine) return std::move(machine).error();
    return HostLayout(**machine);
  }();
  return layout;
}

Status verify(const llvm::Module &module, const char *stage) {
  std::string problems;
  llvm::raw_string_ostream out(problems);
  if (!llvm::verifyModule(module, &out)) return {};
  return build_failure(fmt::format("internal compiler error: the module is invalid {}: {}", stage, out.str()));
}

// Imports are allowed in any module. A kernel reaching a call nothing
// provides is refused on its own (its reason in its KernelInfo), as on Intel's
// driver, where such a module builds and only those kernels fail; notes about
// exported functions reaching one go to `log`.
Status rewrite_for_host(llvm::Module &module, const CompileOptions &options, std::span<KernelInfo> kernels,
                        const spirv::Linkage &spirv, std::span<const std::string> imports, std::string &log,
                        std::map<std::string, ExportReach, std::less<>> &reach) {
  use_c_calling_convention(module);
  lower_math_builtins(module);
  add_work_item_parameter(module);
  retype_indirect_calls(module);
  // Only the exported functions of a library, or of a module made for function pointers, can be called from
  // elsewhere; the others are internalised.
  const bool keep_functions = options.library_compilation || spirv.function_pointers;
  std::span<const std::string> exported;
  if (keep_functions) exported = spirv.exports;
  log += refuse_unsupported_kernels(module, kernels, imports, exported, reach);
  build_work_group_functions(module, kernels, options);
  hide_internals(module, spirv, keep_functions);
  return verify(module, "after lowering for the host");
}

// ZEAL_LOG_LEVEL=trace shows the lowered module the JIT is given, to debug the lowering.
void trace_module(const llvm::Module &module) {
  spdlog::logger &log = logger("zeal-cpu");
  if (!log.should_log(spdlog::level::trace)) return;
  std::string text;
  llvm::raw_string_ostream out(text);
  module.print(out, nullptr);
  log.trace("lowered module:\n{}", out.str());
}

struct ReadInputs {
  std::unique_ptr<llvm::Module> module;
  spirv::Linkage spirv; // the union of the inputs'
};

Result<ReadInputs> read_inputs(std::span<const CompileInput> inputs, llvm::LLVMContext &context, std::string &log) {
  std::vector<std::unique_ptr<llvm::Module>> modules;
  ReadInputs read;
  for (const CompileInput &input : inputs) {
    spirv::HostAccessRewrite host_access = spirv::rewrite_host_access(input.spirv);
    frontend::Legalized legal = frontend::legalize_for_translator(host_access.module_or(input.spirv));
    std::span<const uint8_t> spirv = legal.module_or(host_access.module_or(input.spirv));
    for (const std::string &note : legal.notes) log += note + "\n";
    auto module = read_spirv(spirv, context, input.options.spec_constants, log);
    if (!module) return std::move(module).error();
    spirv::Linkage linkage = spirv::scan_linkage(spirv);
    read.spirv.imports.insert(read.spirv.imports.end(), linkage.imports.begin(), linkage.imports.end());
    read.spirv.exports.insert(read.spirv.exports.end(), linkage.exports.begin(), linkage.exports.end());
    read.spirv.host_aliases.insert(read.spirv.host_aliases.end(), host_access.aliases.begin(),
                                   host_access.aliases.end());
    read.spirv.function_pointers = read.spirv.function_pointers || linkage.function_pointers;
    modules.push_back(std::move(*module));
  }
  if (modules.size() == 1) {
    read.module = std::move(modules.front());
    return read;
  }
  auto linked = link_statically(std::move(modules));
  if (!linked) return std::move(linked).error();
  read.module = std::move(*linked);
  return read;
}

// The inputs' options merged: the lowest optimisation level (a -ze-opt-disable
// meant for debugging one input holds for the code it is linked with), a
// library if any input is one, the device checks of the first.
CompileOptions merged_options(std::span<const CompileInput> inputs) {
  CompileOptions options = inputs.front().options;
  for (const CompileInput &input : inputs) {
    options.opt_level = std::min(options.opt_level, input.options.opt_level);
    options.library_compilation = options.library_compilation || input.options.library_compilation;
  }
  return options;
}

// Milliseconds per build phase, logged at debug level to show where build time goes.
class PhaseClock {
public:
  void mark(const char *phase) {
    auto now = std::chrono::steady_clock::now();
    text_ += fmt::format(" {} {:.2f}", phase, std::chrono::duration<double, std::milli>(now - last_).count());
    last_ = now;
  }
  ~PhaseClock() { logger("zeal-cpu").debug("build phases (ms):{}", text_); }

private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  std::string text_;
};

// A module read, lowered for the host's work-group ABI and described, not yet optimised.
struct Lowered {
  NativeContents contents; // without object code
  LoweredModule module;
  std::string log;
};

// Lowered for the triple and data layout of `layout` (every x86-64 CPU has the same).
Result<Lowered> lower(std::span<const CompileInput> inputs, const HostLayout &layout, PhaseClock &clock) {
  auto context = std::make_unique<llvm::LLVMContext>();
  // LLVMSPIRVLib 15 still reads element types of pointers (atomics, vstore_half_rt*):
  // with LLVM 15's default opaque pointers it asserts and aborts the process.
  context->setOpaquePointers(false);
  log_llvm_diagnostics(*context);
  std::string log;
  auto read = read_inputs(inputs, *context, log);
  if (!read) return std::move(read).error();
  clock.mark("read");
  const CompileOptions options = merged_options(inputs);
  llvm::Module &ir = *read->module;
  ir.setTargetTriple(layout.triple);
  ir.setDataLayout(layout.data_layout);

  auto kernels = describe_kernels(ir);
  if (!kernels) return std::move(kernels).error();
  for (KernelInfo &kernel : *kernels)
    kernel.subgroup_size = kernel.required_subgroup_size != 0 ? kernel.required_subgroup_size
                                                              : options.primary_subgroup_size;
  if (Status sizes = check_subgroup_sizes(*kernels, options); !sizes) return std::move(sizes).error();
  std::vector<std::string> imports = remaining_imports(ir, read->spirv);
  log += spirv::producer_library_note(imports);
  std::map<std::string, ExportReach, std::less<>> reach;
  if (Status rewritten = rewrite_for_host(ir, options, *kernels, read->spirv, imports, log, reach); !rewritten) {
    return std::move(rewritten).error();
  }
  log += refusal_notes(*kernels);
  clock.mark("lower");
  trace_module(ir);
  for (KernelInfo &kernel : *kernels) kernel.private_bytes = private_bytes(ir, kernel.name);

  Lowered lowered;
  lowered.contents.kernels = std::move(*kernels);
  lowered.contents.linkage = final_linkage(ir, read->spirv, std::move(imports));
  lowered.contents.linkage.reach = std::move(reach);
  lowered.contents.build_options = build_options_record(options);
  lowered.module = LoweredModule{std::move(context), std::move(read->module), options.opt_level};
  lowered.log = std::move(log);
  return lowered;
}

Result<std::unique_ptr<Program>> compile(std::span<const CompileInput> inputs) {
  PhaseClock clock;
  if (Status jit = prepare_jit(); !jit) return std::move(jit).error();
  clock.mark("jit");
  const Result<HostLayout> &host = host_layout();
  if (!host) return host.error();
  auto lowered = lower(inputs, *host, clock);
  if (!lowered) return std::move(lowered).error();
  auto program = make_lazy_program(std::move(lowered->contents), std::move(lowered->module), std::move(lowered->log));
  clock.mark("load");
  return program;
}

Result<std::vector<uint8_t>> compile_for(std::span<const CompileInput> inputs, const CpuTarget &target) {
  // No JIT: nothing is loaded, and the process's own target need not be valid.
  PhaseClock clock;
  auto machine = target_machine(target, merged_options(inputs).opt_level);
  if (!machine) return std::move(machine).error();
  auto lowered = lower(inputs, HostLayout(**machine), clock);
  if (!lowered) return std::move(lowered).error();
  auto object = compile_object(*lowered->module.module, **machine, lowered->module.opt_level);
  if (!object) return std::move(object).error();
  clock.mark("codegen");
  lowered->contents.object = std::move(*object);
  return write_native_binary(lowered->contents, target.id());
}

} // namespace
} // namespace detail

Result<std::unique_ptr<Program>> compile_spirv(std::span<const uint8_t> spirv, const CompileOptions &options) {
  CompileInput input{spirv, options};
  return compile_spirv_program({&input, 1});
}

Result<std::unique_ptr<Program>> compile_spirv_program(std::span<const CompileInput> inputs) {
  assert(!inputs.empty());
  auto program = detail::compile(inputs);
  if (!program) {
    logger("zeal-cpu").info("SPIR-V build failed: {}", program.error().log);
    return program;
  }
  for (const KernelInfo &kernel : program.value()->kernels()) {
    if (!kernel.refusal.empty()) logger("zeal-cpu").info("kernel refused: {}", kernel.refusal);
  }
  return program;
}

Result<std::vector<uint8_t>> compile_native_binary(std::span<const CompileInput> inputs, const CpuTarget &target) {
  assert(!inputs.empty());
  auto blob = detail::compile_for(inputs, target);
  if (!blob) logger("zeal-cpu").info("SPIR-V build for {} failed: {}", target.name, blob.error().log);
  return blob;
}

Result<std::unique_ptr<Program>> load_native_binary(std::span<const uint8_t> blob, const CompileOptions &options) {
  auto contents = detail::read_native_binary(blob);
  if (!contents) return std::move(contents).error();
  if (Status sizes = detail::check_subgroup_sizes(contents->kernels, options); !sizes) return std::move(sizes).error();
  std::string notes = detail::refusal_notes(contents->kernels); // the kernels refused when it was compiled
  return detail::make_program(std::move(*contents), std::move(notes));
}

} // namespace zeal::cpu
