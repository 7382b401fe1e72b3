// The CPU driver's compiler: SPIR-V in, JIT-compiled work-group functions out.
#pragma once

#include "cpu_driver/compiler/errors.hpp"
#include "spirv_frontend/spec_constant.hpp"
#include "cpu_driver/kernel_abi.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace zeal::cpu {

enum class ArgKind : uint8_t {
  Value,          // passed by value (scalars, vectors, structs by value)
  GlobalPointer,  // a pointer to global or constant memory (a USM pointer)
  LocalPointer,   // a pointer to local memory; set with a size and a null value
  Image,          // an image (ze_image_handle_t); the kernel gets its ImageDescriptor (kernel_abi.hpp)
  Sampler,        // a sampler (ze_sampler_handle_t); the kernel gets its SamplerBits in the pointer's place
};

struct ArgInfo {
  ArgKind kind = ArgKind::Value;
  uint32_t size = 0;    // bytes of the argument value (8 for pointers)
  std::string type_name; // from kernel_arg_type metadata when present, else empty
};

// Every field is stored in native binaries (backend/native_binary.cpp): a new
// field must be written and read there too, and the format version raised.
struct KernelInfo {
  std::string name;
  std::vector<ArgInfo> args;
  uint32_t required_group_size[3] = {0, 0, 0}; // reqd_work_group_size, zeros when none
  uint32_t required_subgroup_size = 0;          // intel_reqd_sub_group_size, 0 when none
  uint32_t group_size_hint[3] = {0, 0, 0};      // work_group_size_hint, zeros when none
  std::string vec_type_hint;                    // vec_type_hint's OpenCL C type ("float4"), empty when none
  // The size the compiled code runs with: the required one, else the primary size
  // it was compiled with. A native binary keeps it, so a blob compiled elsewhere
  // (ahead of time) reports the size baked into its code, not this device's primary.
  uint32_t subgroup_size = 0;
  uint64_t static_local_bytes = 0;              // kernel-scope `local` variables
  uint64_t private_bytes = 0;                   // estimate of private memory per work-item
  bool uses_barriers = false;                   // barriers or sub-group collectives: work-items wait for others
  bool barrier_regions = false;                 // those waits compiled into region loops, not fibers (both kinds)
  // Why this driver cannot run the kernel, a sentence naming it and what it
  // calls (an image built-in, a built-in the driver lacks); empty when it can.
  // zeKernelCreate refuses such a kernel, while the module's others run.
  std::string refusal;
  // The imports its code may call (through calls, function pointers and
  // initialisers): a link refuses the kernel when one is bound to an exported
  // function that reaches a call this driver cannot make.
  std::vector<std::string> imports_reached;
};

// A specialization constant's new value (the front end's: spirv_frontend/reader.hpp).
using SpecConstant = frontend::SpecConstant;

struct CompileOptions {
  unsigned opt_level = 2;            // -ze-opt-level=N; 0 with -ze-opt-disable
  bool library_compilation = false;  // -library-compilation: keep exported functions visible to other modules
  std::vector<SpecConstant> spec_constants;
  // Sub-group sizes the device supports; a kernel requiring another fails the
  // build. Empty: no check (the compiler's own tests).
  std::vector<uint32_t> subgroup_sizes;
  // The sub-group size of kernels without intel_reqd_sub_group_size (the
  // profile's primary size); 16 is every profile's, and the compiler tests'.
  uint32_t primary_subgroup_size = 16;
  std::string device_name;           // names the device in that failure
  // -zeal-barriers=fibers: kernels with barriers or sub-group collectives run
  // their work-items as fibers instead of as loops over the regions between
  // them (to compare the two).
  bool fiber_barriers = false;
};

// What a module shares with others (SPIR-V LinkageAttributes), built-ins excluded.
struct GlobalSymbol {
  std::string name;
  uint64_t size = 0;  // bytes of an exported variable
  std::string symbol; // a HostAccessINTEL name's exported variable; empty: `name` itself
  const std::string &object_name() const { return symbol.empty() ? name : symbol; }
};
// What an exported function's code may reach that the module itself does not define.
struct ExportReach {
  std::string unsupported;          // why it reaches a call this driver cannot make (a trap); empty: none
  std::vector<std::string> imports; // the imports it may call
};

struct Linkage {
  std::vector<std::string> imports;           // functions and variables other modules must provide
  std::vector<std::string> exported_functions; // kernels are not listed: they are reached as kernels
  std::vector<GlobalSymbol> exported_globals;
  // The exported functions reaching an unsupported call or an import; the others are not listed.
  std::map<std::string, ExportReach, std::less<>> reach;
};

// One input of a statically linked program (ze_module_program_exp_desc_t).
struct CompileInput {
  std::span<const uint8_t> spirv;
  CompileOptions options;
};

// The x86-64 CPU code is generated for. ZEAL_CPU_TARGET chooses the process's
// (backend/target.cpp); zeal-aot may compile for any, to load where that target runs.
struct CpuTarget {
  std::string name;     // as chosen: native, x86-64-v3, znver3, ...
  std::string triple;   // the process's
  std::string cpu;      // LLVM's CPU name; for native the host's (LLVM 15 calls a Zen 4 znver3)
  std::string features; // native: every host feature, "+avx2,-avx512fp16,..."; a named CPU: empty (implied)
  std::vector<std::string> missing; // instruction sets the target's code may use that this host lacks
  // Written into native binaries, which load only where the process's target has the same id.
  std::string id() const;
};

// A ZEAL_CPU_TARGET value: native, or a 64-bit x86 CPU LLVM 15 knows (x86-64,
// x86-64-v2, x86-64-v3, x86-64-v4, znver3, skylake-avx512, ...). Any other name
// fails with ZE_RESULT_ERROR_INVALID_ARGUMENT and a sentence listing the valid ones.
Result<CpuTarget> find_cpu_target(std::string_view name);
// Fails (INVALID_ARGUMENT) when the host lacks an instruction set the target's code may use.
Status check_runnable(const CpuTarget &target);
// The process's target: ZEAL_CPU_TARGET (default native), found and checked runnable once.
const Result<CpuTarget> &process_cpu_target();

// The build flags of zeModuleCreate as CompileOptions (ze_driver/build_flags.hpp reads them; flags it does not
// know are reported in `log`).
CompileOptions compile_options_of(const char *flags, std::string &log);
// The options a module's code is compiled with, as Intel's compiler records them in its binaries
// ("-ze-opt-level=O2 -library-compilation"): kept in native binaries.
std::string build_options_record(const CompileOptions &options);

// One compiled module: its object code in the process-wide JIT (one JITDylib
// per Program), its kernels and what it imports and exports.
class Program {
public:
  virtual ~Program() = default;
  virtual std::span<const KernelInfo> kernels() const = 0;
  const KernelInfo *find_kernel(std::string_view name) const;
  // Warnings and notes of a successful build (may be empty).
  virtual const std::string &build_log() const = 0;
  virtual const Linkage &linkage() const = 0;

  // False until every import is bound (always true without imports); only
  // then can kernels run and symbols be looked up.
  virtual bool linked() const = 0;
  // The work-group function of one of kernels(), valid while the Program
  // lives. A kernel built from SPIR-V is optimised and compiled on its first
  // call (the module build only translates and lowers, as PoCL defers code
  // generation to the first launch); later calls return at once. Thread-safe.
  virtual Result<WorkGroupFn> entry(const KernelInfo &kernel) const = 0;
  // Dynamic linking, in two phases so that programs importing from each
  // other can be linked in one call: first every importer makes its
  // providers' exports visible to its imports (each import must be exported
  // by exactly one provider, which the caller has checked), then each one
  // resolves its kernels, which binds the imports. The caller serialises both.
  virtual void bind_imports(std::vector<std::shared_ptr<const Program>> providers) = 0;
  // Between the two: a kernel whose imports were bound to an exported function reaching a call this
  // driver cannot make is refused, with the sentence saying so.
  virtual void refuse_at_link(const KernelInfo &kernel, std::string why) = 0;
  virtual Status finish_link() = 0;
  // The refusal of a kernel its link made (empty: none); read once linked().
  virtual std::string_view link_refusal(const KernelInfo &kernel) const = 0;
  // Likewise for exported functions: one whose code is supported but which reaches, through an import the
  // link bound, an export that traps, keeps the sentence, so that a later link of a module importing it
  // refuses that module's kernels as this one did (the imports are bound once and never followed again).
  using LinkTraps = std::map<std::string, std::string, std::less<>>;
  virtual void trap_at_link(std::string exported_function, std::string why) = 0;
  virtual const LinkTraps &link_traps() const = 0;

  // Address of an exported function or variable of a linked program.
  virtual Result<void *> symbol_address(std::string_view name) const = 0;
  // The self-describing native binary load_native_binary() accepts. The first
  // call on a program built from SPIR-V compiles the whole module. Thread-safe.
  virtual Result<std::vector<uint8_t>> native_binary() const = 0;
};

// Compiles SPIR-V. On failure the Error's code is ZE_RESULT_ERROR_MODULE_BUILD_FAILURE
// (or ZE_RESULT_ERROR_INVALID_ARGUMENT for input that is not SPIR-V) and its `log` holds the
// build log: the translator's or LLVM's message, in a sentence that names
// what was wrong.
Result<std::unique_ptr<Program>> compile_spirv(std::span<const uint8_t> spirv, const CompileOptions &options);

// Several SPIR-V modules, each read with its own options, linked into one
// (llvm::Linker) and compiled as one; the first input's flags decide for the
// whole (see program.cpp). Imports left unresolved stay imports.
Result<std::unique_ptr<Program>> compile_spirv_program(std::span<const CompileInput> inputs);

// Compiles SPIR-V ahead of time into the native binary of `target`, which need
// not be runnable here (nothing is loaded): zeal-aot --target, and tests of
// other CPUs' code generation. The binary loads in a process whose target is the same.
Result<std::vector<uint8_t>> compile_native_binary(std::span<const CompileInput> inputs, const CpuTarget &target);

// Loads what Program::native_binary() produced, without compiling. Anything
// else (another driver version or CPU, truncated, corrupted) fails with
// ZE_RESULT_ERROR_INVALID_NATIVE_BINARY and a log saying why. `options` supplies
// the device checks only: every kernel's sub-group size (required or baked in)
// must be one the device supports, else the build fails.
Result<std::unique_ptr<Program>> load_native_binary(std::span<const uint8_t> blob, const CompileOptions &options);

// Streaming stores: a launch storing at least this many bytes through vector
// stores that fill contiguous global memory writes them non-temporally, past
// the caches (backend/streaming_stores.cpp). Read by compiled code at each loop entry,
// so it applies to kernels already compiled. UINT64_MAX, the default: never.
void set_streaming_store_threshold(uint64_t bytes);
uint64_t streaming_store_threshold();

// After kernel code faulted on this thread and the runtime jumped back out of it (runtime/fault.hpp): forgets
// the work-items of the work-group it was running, so that the next work-group starts clean.
void abandon_work_items_after_fault();

// The version written into native binaries; a blob of another version is refused.
std::string driver_build_id();

// The kernel code cache (backend/code_cache.hpp): each kernel's object code,
// kept on disk after its first compilation, found again by later processes.
struct CodeCacheStats {
  uint64_t hits = 0;          // kernels loaded from the cache instead of compiled
  uint64_t misses = 0;        // kernels compiled (the cache had no entry, or a stale or corrupt one)
  uint64_t stores = 0;        // entries written
  uint64_t failed_stores = 0; // entries that could not be written (logged once)
};
// This process's counts; all zero when the cache is off.
CodeCacheStats code_cache_stats();
// Waits until every entry queued so far is written (tests; the process does it at exit).
void flush_code_cache();
// The folder of the entries; empty when the cache is off (ZEAL_CACHE_PERSISTENT=0, ZEAL_CPU_KERNEL_CACHE=off).
std::filesystem::path code_cache_directory();

} // namespace zeal::cpu
