// The phases of compile_spirv and the hidden work-item state they share (LLVM types; compiler/ only).
#pragma once

#include "cpu_driver/compiler/compiler.hpp"
#include "spirv/linkage_scan.hpp"
#include "spirv_frontend/builtin_bodies.hpp"
#include "spirv_frontend/reader.hpp"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <memory>
#include <span>
#include <string>

namespace llvm {
class TargetMachine;
}

namespace zeal::cpu::detail {

// --- The hidden work-item state -------------------------------------------
// Every device function (kernels included, until they are inlined into their
// work-group function) takes a pointer to one WorkItem as its LAST parameter,
// defined or declared, so ids flow without thread_local and functions of
// different modules agree on the signature. The work-group function owns one
// on its stack, copies the GroupContext into it once and updates local_id in
// its loops; after inlining SROA turns it into registers, so the copy is free
// and the loads do not alias kernel stores to global memory.
//   struct WorkItem {
//     uint64_t local_id[3], group_id[3], local_size[3], num_groups[3], global_offset[3];
//     uint64_t work_dim;
//     const GroupContext *group;   // for what is not copied (local memory)
//     uint64_t subgroup_size;      // S, the kernel's sub-group size (a constant after inlining)
//     uint64_t subgroup_id, subgroup_local_id; // linear local id / S and % S, kept by whoever sets local_id
//   };
// The sub-group ids are fields rather than computed from the local ids where
// they are read so that a loop over a sub-group's lanes can give them as its
// own induction variables, which the vectoriser understands (a remainder by S
// it does not).
enum WorkItemField : unsigned {
  LocalId, GroupId, LocalSize, NumGroups, GlobalOffset, WorkDim, Group, SubgroupSize, SubgroupId, SubgroupLocalId
};
llvm::StructType *work_item_type(llvm::LLVMContext &context);
llvm::PointerType *work_item_pointer_type(llvm::LLVMContext &context);
// Where field[dim] (or the scalar field) of a WorkItem is.
llvm::Value *work_item_field(llvm::IRBuilder<> &builder, llvm::Value *work_item, WorkItemField field, unsigned dim = 0);
// Loads field[dim] (or the scalar field) of a WorkItem as an i64.
llvm::Value *load_work_item(llvm::IRBuilder<> &builder, llvm::Value *work_item, WorkItemField field, unsigned dim = 0);

// "_Z13get_global_idj" -> "get_global_id" (the front end's, spirv_frontend/builtin_bodies.hpp).
using frontend::opencl_base_name;
bool is_barrier_builtin(llvm::StringRef name);

// LLVM's passes report through their context (a loop its hints asked to
// vectorise that stayed scalar, say); the default handler would print on the
// process's stderr, which is not the driver's to write to. Every diagnostic
// goes to the zeal-cpu log instead: errors as warnings (and compile_object
// fails with them), the rest at debug level.
void log_llvm_diagnostics(llvm::LLVMContext &context);

// --- Phases, in the order compile_spirv runs them ---------------------------
// Validates the SPIR-V header and instruction stream, then translates it (the front end's, spirv_frontend/reader.hpp).
using frontend::read_spirv;

// spir_kernel/spir_func -> C, on functions and call sites.
void use_c_calling_convention(llvm::Module &module);

// Functions reachable from `root` through direct calls, `root` included.
llvm::SmallPtrSet<llvm::Function *, 16> reachable_functions(llvm::Function &root);

// Kernel descriptions (without `run`), read before the module is rewritten.
// Fails for kernels this driver cannot run yet (barriers, kernel-scope locals).
Result<std::vector<KernelInfo>> describe_kernels(llvm::Module &module);

// OpenCL math built-ins that map onto LLVM intrinsics.
void lower_math_builtins(llvm::Module &module);

// The C library functions the back end may call for those intrinsics (expf,
// memcpy, ...): the only host symbols JIT'd code can reach.
struct RuntimeSymbol {
  const char *name;
  void *address;
};
std::span<const RuntimeSymbol> runtime_symbols();

// A vector form of a math function the loop vectoriser may call instead of
// `lanes` scalar calls: glibc's libmvec, under the names LLVM's LIBMVEC_X86
// library uses. Only the forms this host can run (the 8-float and 4-double
// ones need AVX2) and libmvec provides; their addresses are in runtime_symbols().
struct VectorMathFunction {
  const char *scalar; // a C library name or an LLVM intrinsic's
  const char *vector;
  unsigned lanes;
  bool avx2; // takes ymm registers: only code for a target with AVX2 may call it
};
std::span<const VectorMathFunction> vector_math_functions();

// Streaming stores (backend/streaming_stores.cpp): after optimisation, versions the
// loops of work-group functions whose vector stores write contiguous global
// memory, so that launches storing at least streaming_store_threshold() bytes
// write with non-temporal stores (logged at debug level, per function).
void add_streaming_stores(llvm::Module &module, llvm::TargetMachine &machine);
// An i64 variable holding the threshold, which compiled code reads at each loop entry.
inline constexpr const char *streaming_threshold_symbol = "zeal_cpu_streaming_threshold";
std::span<const RuntimeSymbol> streaming_store_symbols();

// After optimisation: min and max of half vectors, which LLVM 15's x86 back end
// cannot select, computed in float (backend/half_vectors.cpp).
void widen_half_vector_min_max(llvm::Module &module);

// After optimisation: gathers and scatters with a constant mask that enables
// few lanes become scalar loads and stores (backend/constant_masks.cpp).
void scalarise_constant_mask_accesses(llvm::Module &module);

// After optimisation and streaming stores: vector loads that read streams of
// global memory in loops get software prefetches ahead of them (backend/stream_prefetch.cpp).
void add_stream_prefetches(llvm::Module &module);

// Adds the hidden WorkItem parameter to every device function and call, then
// replaces the work-item built-ins with loads from it.
void add_work_item_parameter(llvm::Module &module);

// Adds `zeal.wg.<kernel>` with the WorkGroupFn signature for each kernel, whose
// sub-groups have KernelInfo::subgroup_size work-items. Sets each kernel's barrier_regions.
void build_work_group_functions(llvm::Module &module, std::span<KernelInfo> kernels, const CompileOptions &options);
std::string work_group_function_name(llvm::StringRef kernel);

// Private memory per work-item, estimated from the lowered module's static allocas (see workgroup/work_group.cpp).
uint64_t private_bytes(llvm::Module &module, llvm::StringRef kernel);

} // namespace zeal::cpu::detail
