// The compiler's module-level phases: specialisation, static and dynamic linking, native binaries (compiler/ only).
#pragma once

#include "cpu_driver/compiler/internal.hpp"

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/Target/TargetMachine.h>

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace zeal::cpu::detail {

using frontend::read_spirv; // with specialisation constants (spirv_frontend/reader.hpp)

// Links `modules` into the first one; a symbol defined twice fails with the linker's message.
Result<std::unique_ptr<llvm::Module>> link_statically(std::vector<std::unique_ptr<llvm::Module>> modules);

// The SPIR-V imports still declared (not defined by static linking, not a
// built-in the lowering replaced): what dynamic linking must provide.
std::vector<std::string> remaining_imports(const llvm::Module &module, const spirv::Linkage &spirv);

// Refuses kernels one by one, as Intel's driver does, instead of the module:
// a kernel reaching (through calls, callees of callees, function pointers) a
// function neither defined, imported nor provided by this driver (an image
// built-in, a built-in it lacks) gets its KernelInfo::refusal and a trap for a
// body. Calls to such functions left elsewhere (exported functions of a
// library, dead code) become traps too, so the rest of the module compiles.
// Returns build-log notes naming the `exported` functions that reach one. Records, for the link, the
// imports each kernel that runs may call (KernelInfo::imports_reached) and, in `reach`, the exported
// functions reaching an unsupported call or an import.
std::string refuse_unsupported_kernels(llvm::Module &module, std::span<KernelInfo> kernels,
                                       std::span<const std::string> imports, std::span<const std::string> exported,
                                       std::map<std::string, ExportReach, std::less<>> &reach);
// One build-log line per refused kernel, saying why.
std::string refusal_notes(std::span<const KernelInfo> kernels);

// With typed pointers, an indirect call given the hidden WorkItem argument
// still calls through a pointer to the old function type; casts it to the new
// one (the verifier insists). Runs after add_work_item_parameter.
void retype_indirect_calls(llvm::Module &module);

// Kernels requiring a sub-group size the device lacks fail the build, each named in the log.
Status check_subgroup_sizes(std::span<const KernelInfo> kernels, const CompileOptions &options);

// Internalises all but work-group functions, exported variables and (with
// keep_functions: a library, or a module made for function pointers) exported
// functions, so the optimiser may drop the rest.
void hide_internals(llvm::Module &module, const spirv::Linkage &spirv, bool keep_functions);

// What the optimised module exports, with variable sizes.
Linkage final_linkage(const llvm::Module &module, const spirv::Linkage &spirv, std::vector<std::string> imports);

// What a native binary holds besides its format fields.
struct NativeContents {
  std::string object;  // an ELF relocatable object for the host
  std::vector<KernelInfo> kernels;
  Linkage linkage;
  // The options the code was compiled with, written as Intel's compiler records them in its binaries
  // ("-ze-opt-level=O2"), so that a binary says how it was made (build_options_record in compiler.hpp).
  std::string build_options;
};

// A lowered module cut so that each kernel compiles on its own: kernels[i]
// defines the work-group function of the i-th kernel and private copies of
// what it calls; `shared` (may be null) defines, once, the variables kernels
// write and the functions other modules import.
struct SplitModule {
  std::vector<std::unique_ptr<llvm::Module>> kernels;
  std::unique_ptr<llvm::Module> shared;
};
// Gives the module's internal mutable variables hidden external linkage (the
// kernel modules declare them), then extracts the parts.
SplitModule split_by_kernel(llvm::Module &module, std::span<const KernelInfo> kernels);

// The optimisation pipeline of -ze-opt-level `level` for the machine's CPU.
void optimise(llvm::Module &module, llvm::TargetMachine &machine, unsigned level);
// optimise(), then code generation: the object code of a native binary.
Result<std::string> compile_object(llvm::Module &module, llvm::TargetMachine &machine, unsigned level);
// Target machines for `target` (backend/target.cpp); position-independent code, so that
// imported variables are reached through the GOT wherever the JIT put their module.
llvm::orc::JITTargetMachineBuilder target_machine_builder(const CpuTarget &target, unsigned opt_level);
Result<std::unique_ptr<llvm::TargetMachine>> target_machine(const CpuTarget &target, unsigned opt_level);
// The same for the process's target (ZEAL_CPU_TARGET).
Result<std::unique_ptr<llvm::TargetMachine>> host_machine(unsigned opt_level);
// Whether code for the machine may use `feature` (LLVM's name: "avx2").
bool has_feature(const llvm::TargetMachine &machine, const char *feature);

// process_cpu_target().id(); a native binary carries its target's id and is
// refused by a process with another (its code could use missing instructions).
const std::string &host_target_id();

std::vector<uint8_t> write_native_binary(const NativeContents &contents, const std::string &target_id = host_target_id());
// Checks magic, format, size, checksum, driver version and target before parsing.
Result<NativeContents> read_native_binary(std::span<const uint8_t> blob);

// Creates the process-wide JIT on first use, initialising LLVM's native target.
Status prepare_jit();

// A Program over an object: a new JITDylib in the process-wide JIT holding it.
Result<std::unique_ptr<Program>> make_program(NativeContents contents, std::string log);

// A Program over a lowered module: the JIT optimises and compiles each kernel
// at its first Program::entry(); native_binary() compiles the whole module.
// `contents` has no object yet. The context owns `module`.
struct LoweredModule {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  unsigned opt_level = 2;
};
Result<std::unique_ptr<Program>> make_lazy_program(NativeContents contents, LoweredModule lowered, std::string log);

} // namespace zeal::cpu::detail
