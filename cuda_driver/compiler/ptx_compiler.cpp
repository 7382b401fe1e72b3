// compile_ptx: the CUDA back end's pipeline, SPIR-V → LLVM IR (the shared front end) → NVPTX's conventions →
// built-ins (the back end's own, then libclc's) → optimisation → PTX. Each phase is a function of internal.hpp.
#include "cuda_driver/compiler/internal.hpp"

#include "spirv/host_access.hpp"
#include "spirv/linkage_scan.hpp"
#include "spirv_frontend/legalize.hpp"
#include "spirv_frontend/reader.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/DebugInfo.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/Target/TargetMachine.h>

#include <fmt/format.h>

namespace zeal::cuda {

namespace {

// LLVM's errors and warnings (the linker's, the back end's) go to the build log, not to stderr; nothing else does:
// remarks (code generation's instruction counts, the inliner's decisions), which LLVM makes where something in the
// process asked for them (-pass-remarks-analysis), and notes are LLVM's, not the module's.
void note_diagnostic(const llvm::DiagnosticInfo &info, void *log) {
  if (info.getSeverity() != llvm::DS_Error && info.getSeverity() != llvm::DS_Warning) return;
  std::string text;
  llvm::raw_string_ostream out(text);
  llvm::DiagnosticPrinterRawOStream printer(out);
  info.print(printer);
  *static_cast<std::string *>(log) += fmt::format("{}: {}\n", llvm::LLVMContext::getDiagnosticMessagePrefix(info.getSeverity()), out.str());
}

Error with_log(Error error, const std::string &log) {
  error.log = log + error.message;
  return error;
}

// LLVMSPIRVLib 15 reads into typed pointers; libclc's bitcode has opaque ones. The module moves to a context with
// opaque pointers through bitcode, which LLVM 15 reads upgraded.
Result<std::unique_ptr<llvm::Module>> with_opaque_pointers(const llvm::Module &typed, llvm::LLVMContext &context) {
  llvm::SmallVector<char, 0> bitcode;
  llvm::raw_svector_ostream out(bitcode);
  llvm::WriteBitcodeToFile(typed, out);
  llvm::Expected<std::unique_ptr<llvm::Module>> module =
      llvm::parseBitcodeFile(llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()), "spirv"), context);
  if (!module) {
    return build_failure(fmt::format("the CUDA back end could not move the module to opaque pointers: {}",
                                     llvm::toString(module.takeError())));
  }
  return std::move(*module);
}

// The phases after reading: each may refuse the module with a sentence.
Result<std::string> lower(llvm::Module &module, const std::vector<PtxKernel> &kernels, const PtxOptions &options,
                          const spirv::Linkage &linkage) {
  std::set<std::string> imports(linkage.imports.begin(), linkage.imports.end());
  std::set<std::string> exports(linkage.exports.begin(), linkage.exports.end());
  Result<std::unique_ptr<llvm::TargetMachine>> machine = nvptx_target_machine(options.sm, options.opt_level);
  if (!machine) return std::move(machine).error();
  remap_address_spaces(module);
  adopt_nvptx_conventions(module, (*machine)->createDataLayout(), (*machine)->getTargetTriple().str(), imports);
  define_work_item_builtins(module);
  define_subgroup_builtins(module);
  define_workgroup_collectives(module);
  define_subgroup_ballots(module);
  define_subgroup_blocks(module);
  define_sync_builtins(module);
  define_native_math(module);
  define_bfloat16_conversions(module);
  define_device_library(module);
  if (Status printed = lower_printf(module); !printed) return std::move(printed).error();
  make_entries(module, kernels);
  hoist_allocas(module);
  if (Status linked = link_image_library(module); !linked) return std::move(linked).error();
  if (Status linked = link_libclc(module); !linked) return std::move(linked).error();
  bool keep_exported_functions = options.library_compilation || linkage.function_pointers;
  Status visible = internalize_and_check(module, kernels, imports, exports, keep_exported_functions);
  if (!visible) return std::move(visible).error();
  if (keep_exported_functions) publish_function_addresses(module, kernels, exports);
  route_indirect_calls(module);
  resolve_subgroup_sizes(module, kernels);
  if (Status valid = check_before_codegen(module); !valid) return std::move(valid).error();
  optimize(module, **machine, options.opt_level);
  drop_unread_hidden_values(module);
  if (Status legal = legalize_memory_order(module); !legal) return std::move(legal).error();
  if (Status valid = check_before_codegen(module); !valid) return std::move(valid).error();
  return emit_ptx(module, **machine);
}

} // namespace

Result<PtxProgram> compile_ptx(std::span<const uint8_t> input, const PtxOptions &options) {
  PtxProgram program;
  llvm::LLVMContext typed_context;
  typed_context.setOpaquePointers(false);
  typed_context.setDiagnosticHandlerCallBack(note_diagnostic, &program.log);
  // The front end's rewrites, as every zeal driver runs them before the translator.
  spirv::HostAccessRewrite host_access = spirv::rewrite_host_access(input);
  frontend::Legalized legal = frontend::legalize_for_translator(host_access.module_or(input));
  std::span<const uint8_t> spirv = legal.module_or(host_access.module_or(input));
  for (const std::string &note : legal.notes) program.log += note + "\n";
  std::vector<uint8_t> marked = mark_subgroup_barriers(spirv);
  if (!marked.empty()) spirv = marked;
  Result<std::unique_ptr<llvm::Module>> read =
      frontend::read_spirv(spirv, typed_context, options.spec_constants, program.log);
  if (!read) return with_log(std::move(read).error(), program.log);
  llvm::StripDebugInfo(**read);
  Result<std::vector<PtxKernel>> kernels = describe_kernels(**read, options);
  if (!kernels) return with_log(std::move(kernels).error(), program.log);
  define_image_builtins(**read);
  const spirv::Linkage linkage = spirv::scan_linkage(spirv);
  std::vector<PtxKernel> runnable =
      refuse_kernels(**read, *kernels, std::set<std::string>(linkage.exports.begin(), linkage.exports.end()));
  for (const PtxKernel &k : *kernels)
    if (!k.refusal.empty()) program.log += k.refusal + "\n";
  if (Status refused = refuse_unsupported(**read, runnable); !refused) return with_log(std::move(refused).error(), program.log);
  llvm::LLVMContext context;
  context.setOpaquePointers(true);
  context.setDiagnosticHandlerCallBack(note_diagnostic, &program.log);
  Result<std::unique_ptr<llvm::Module>> module = with_opaque_pointers(**read, context);
  if (!module) return with_log(std::move(module).error(), program.log);
  read->reset();
  if (options.sm > kNewestSm) {
    program.log += fmt::format("note: LLVM 15 knows architectures up to sm_{}: PTX for sm_{}, which the CUDA driver "
                               "compiles for the sm_{} device\n", kNewestSm, kNewestSm, options.sm);
  }
  Result<std::string> ptx = lower(**module, runnable, options, linkage);
  if (!ptx) return with_log(std::move(ptx).error(), program.log);
  program.ptx = std::move(*ptx);
  program.aliases = host_access.aliases;
  program.kernels = std::move(*kernels);
  return program;
}

} // namespace zeal::cuda
