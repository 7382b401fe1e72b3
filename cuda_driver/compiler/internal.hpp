// What the CUDA back end's phases share inside cuda_driver/compiler/: each phase is a free function over one module.
#pragma once

#include "cuda_driver/compiler/ptx_compiler.hpp"

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBufferRef.h>
#include <llvm/Target/TargetMachine.h>

#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace zeal::cuda {

using frontend::build_failure;
using frontend::malformed_spirv;

// NVPTX's address spaces (SPIR's are the front end's: 0 private, 1 global, 2 constant, 3 local, 4 generic).
inline constexpr unsigned kNvptxGeneric = 0;
inline constexpr unsigned kNvptxGlobal = 1;
inline constexpr unsigned kNvptxShared = 3;

// The name an OpenCL built-in is mangled from (`_Z13get_global_idj` → `get_global_id`); other names unchanged.
llvm::StringRef opencl_base_name(llvm::StringRef mangled);
// The parameter part of a mangled name (`_Z10atomic_minPU3AS1Vjj` → `PU3AS1Vjj`); empty for other names.
llvm::StringRef mangled_parameters(llvm::StringRef mangled);
// True when a mangled OpenCL name's last parameter is an unsigned integer (h, t, j, m) or a vector of them.
bool last_parameter_unsigned(llvm::StringRef mangled);
// The same for the first parameter (a sub-group collective's value).
bool first_parameter_unsigned(llvm::StringRef mangled);

// SPIR-V with its sub-group barriers marked so that they survive the translator (subgroup_barriers.cpp); empty when
// the module has none, or cannot take the mark.
std::vector<uint8_t> mark_subgroup_barriers(std::span<const uint8_t> spirv);
// The sub-group size of the calling function (i32): a call that resolve_subgroup_sizes makes the constant of the
// kernels that reach it, or a read of the hidden value where they differ or are unknown (subgroup_sizes.cpp).
llvm::Value *subgroup_size(llvm::IRBuilder<> &b);
// After internalize_and_check: built-ins inlined, each function's sub-group size resolved.
void resolve_subgroup_sizes(llvm::Module &module, const std::vector<PtxKernel> &kernels);
// The member mask of the calling work-item's sub-group: its warp's lanes that the sub-group has.
llvm::Value *subgroup_member_mask(llvm::IRBuilder<> &b);

// Sub-group collectives (subgroups.cpp), which the work-group ones (workgroup_collectives.cpp) are built of.
enum class GroupArith { Add, Mul, Min, Max, And, Or, Xor };
enum class GroupCollective { Reduce, ScanInclusive, ScanExclusive, ClusteredReduce };
std::optional<GroupArith> group_arith(llvm::StringRef name); // "add", "min", ...
llvm::Value *group_combine(llvm::IRBuilder<> &b, GroupArith arith, bool is_unsigned, llvm::Value *x, llvm::Value *y);
llvm::Constant *group_identity(llvm::Type *type, GroupArith arith, bool is_unsigned);
// The calling work-item's place among sub-groups of `width` lanes (8, 16 or 32: the kernel's size, or 32 for the
// warps that the work-group collectives combine), each value an i32.
struct SubGroupPlace {
  llvm::Value *lane, *id, *size, *group_size; // lane, sub-group id, its size, the work-group's size
  llvm::Value *max_size;                      // the largest sub-group's size
  llvm::Value *lanes;                         // the sub-group's lanes, its lane 0 at bit 0
};
SubGroupPlace subgroup_place(llvm::IRBuilder<> &b, llvm::Value *width);
// A uniform reduction or scan over the calling work-item's sub-group of `width` lanes.
llvm::Value *subgroup_collective(llvm::IRBuilder<> &b, llvm::Value *width, GroupCollective kind, GroupArith arith,
                                 bool is_unsigned, llvm::Value *value);

// Kernels' facts from the module the front end read (names, arguments, metadata, static local memory); a kernel
// requiring a sub-group size the options do not list fails the build.
Result<std::vector<PtxKernel>> describe_kernels(llvm::Module &module, const PtxOptions &options);

// What the back end refuses before any rewrite: images and samplers (arguments and built-ins), Intel's 2-D
// block I/O, matrix products and image block reads, inline assembly, aliases.
Status refuse_unsupported(llvm::Module &module, const std::vector<PtxKernel> &kernels);
// Kernels this back end cannot run (an image or sampler argument; a call, direct or through the module's functions,
// of what it does not support) get their refusal and leave the module, with the functions only they reached; the
// kernels that stay are returned.
std::vector<PtxKernel> refuse_kernels(llvm::Module &module, std::vector<PtxKernel> &kernels,
                                      const std::set<std::string> &exports);

// SPIR's address spaces become NVPTX's in every type, global, function, call and intrinsic of the module.
void remap_address_spaces(llvm::Module &module);

// Mangled built-in names with SPIR's address-space numbers take libclc's NVPTX numbers; calling conventions
// become C; the module takes NVPTX's triple and data layout. Imports keep their names.
void adopt_nvptx_conventions(llvm::Module &module, const llvm::DataLayout &layout, llvm::StringRef triple,
                             const std::set<std::string> &imports);

// The hidden launch values, kept in the first ptx_reserved_shared_bytes of the launch's dynamic shared memory (the
// `extern .shared` array __zeal_dynamic_shared, which every module linked into the kernel's program shares): the
// global offset x, y, z (u64 at bytes 0, 8, 16), the work dimensions (u32 at 24) and the sub-group size the kernel
// was compiled with (u32 at 28, which functions that kernels of different sizes share read). The entry stores them.
inline constexpr unsigned kHiddenGlobalOffset = 0;
inline constexpr unsigned kHiddenWorkDim = 24;
inline constexpr unsigned kHiddenSubGroupSize = 28;
static_assert(kHiddenSubGroupSize + 4 <= ptx_reserved_shared_bytes);
llvm::GlobalVariable *dynamic_shared(llvm::Module &module);
// The address of the hidden value at `byte` of the dynamic shared array.
llvm::Value *hidden_value(llvm::IRBuilder<> &b, unsigned byte);

// Built-ins the back end defines itself (work-items, sub-groups, atomics, barriers and fences, native math): each
// declaration it knows gets a body, internal and always inlined.
void define_work_item_builtins(llvm::Module &module);
void define_subgroup_builtins(llvm::Module &module);
void define_workgroup_collectives(llvm::Module &module);
void define_subgroup_ballots(llvm::Module &module);
void define_subgroup_blocks(llvm::Module &module);
void define_sync_builtins(llvm::Module &module);
void define_native_math(llvm::Module &module);
void define_bfloat16_conversions(llvm::Module &module);
void define_device_library(llvm::Module &module);
// OpenCL printf calls as calls of CUDA's vprintf with a C format (printf.cpp); a format that is not a constant
// string fails the build.
Status lower_printf(llvm::Module &module);
inline constexpr const char *kPtxVprintf = "vprintf"; // a PTX system call, which CUDA's JIT resolves

// Turns a declaration into an internal, always-inlined definition and returns a builder at its entry.
llvm::IRBuilder<> begin_definition(llvm::Function &function);
// A call of an NVVM intrinsic that takes no overloaded type.
llvm::Value *call_intrinsic(llvm::IRBuilder<> &b, llvm::Intrinsic::ID id, llvm::ArrayRef<llvm::Value *> args = {});

// Each kernel becomes a PTX entry: local pointers as u32 offsets into dynamic shared memory, the hidden parameters
// appended, nvvm.annotations written. The kernels' SPIR-V bodies become internal functions the entries inline.
void make_entries(llvm::Module &module, const std::vector<PtxKernel> &kernels);
// After optimisation: an entry's stores of the hidden values go when nothing it reaches may read them (no access
// to the dynamic shared array below ptx_reserved_shared_bytes or at a run-time offset is left, no import that
// another module defines and no function pointer is called).
void drop_unread_hidden_values(llvm::Module &module);

// Links what libclc defines of the module's remaining built-ins.
// Links what `module` calls of the bitcode (read lazily, given the module's triple and data layout); `what` names it
// in a failure's sentence.
Status link_bitcode(llvm::Module &module, llvm::MemoryBufferRef bitcode, const std::string &what);
Status link_libclc(llvm::Module &module);
// The front end's image built-ins over the image library (images.cpp), on the module as read (typed pointers name
// images and samplers); then, after the move to opaque pointers, the library itself, compiled for NVPTX at build
// time, linked where the module calls it.
void define_image_builtins(llvm::Module &module);
Status link_image_library(llvm::Module &module);

// Internalizes all but kernels and exported variables (and exported functions when `keep_exported_functions`: library
// compilation, or a module made for function pointers), then refuses unresolved calls: what stays declared must be
// an import of the SPIR-V module or an intrinsic.
Status internalize_and_check(llvm::Module &module, const std::vector<PtxKernel> &kernels,
                             const std::set<std::string> &imports, const std::set<std::string> &exports,
                             bool keep_exported_functions);

// For each exported function the module defines (not a kernel), the global ptx_function_address_prefix + name that
// holds its address, for zeModuleGetFunctionPointer.
void publish_function_addresses(llvm::Module &module, const std::vector<PtxKernel> &kernels,
                                const std::set<std::string> &exports);

// Every call through a function pointer first maps an id zeModuleGetFunctionPointer handed out to its address in
// the device's joint module, through ptx_function_table (declared here when the module has such a call).
void route_indirect_calls(llvm::Module &module);

// The NVPTX target: initialised once per process (with the fatal-error handler emit_ptx relies on), a target
// machine per call, for the newest architecture LLVM 15 knows at or below sm_<sm> (kNewestSm at most); one before
// sm_30 is an invalid argument.
inline constexpr unsigned kNewestSm = 86;
Result<std::unique_ptr<llvm::TargetMachine>> nvptx_target_machine(unsigned sm, unsigned opt_level);
void optimize(llvm::Module &module, llvm::TargetMachine &machine, unsigned opt_level);
// Inlines the functions marked always-inline (the built-ins, the kernels' bodies), as optimisation would later.
void inline_always_inlined(llvm::Module &module);
// Fences and atomic orders as NVPTX 15 can select them (memory_order.cpp); atomics on 16-bit floats refused.
Status legalize_memory_order(llvm::Module &module);
// Allocas of a constant size outside their function's entry block move into it: NVPTX can only make frame slots,
// and one elsewhere would be a dynamic allocation. (SPIR-V declares Function variables in the first block; the
// others are the translator's temporaries.)
void hoist_allocas(llvm::Module &module);
// What NVPTX cannot generate is refused before code generation, by function: intrinsics it would lower to library
// calls PTX lacks, integer division wider than 64 bits, allocas of a run-time size.
Status check_before_codegen(llvm::Module &module);
// PTX, one module at a time in the process; a fatal error of LLVM's code generation is returned as a build failure.
Result<std::string> emit_ptx(llvm::Module &module, llvm::TargetMachine &machine);

// The kernels (by name) whose call graph reaches `function`, for sentences.
std::vector<std::string> kernels_reaching(const llvm::Function &function, const std::vector<PtxKernel> &kernels);
// "kernel 'k' calls 'f'" (or "function 'g' calls 'f'" when no kernel reaches the caller), for refusals.
std::string who_calls(const llvm::Function &callee, const std::vector<PtxKernel> &kernels);

} // namespace zeal::cuda
