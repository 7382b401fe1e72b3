// The lowerings that give kernels barriers, local memory, atomics, built-ins and printf, and the host functions they call.
#pragma once

#include "cpu_driver/compiler/internal.hpp"

#include <llvm/IR/Function.h>

#include <cstdint>
#include <span>

namespace zeal::cpu::detail {

// --- Host functions JIT'd code calls (bound as absolute symbols) -----------
// The C++ mirror of the hidden WorkItem (work_item_type() in builtins.cpp).
struct HostWorkItem {
  uint64_t local_id[3], group_id[3], local_size[3], num_groups[3], global_offset[3];
  uint64_t work_dim;
  const GroupContext *group;
};
// The function a fiber runs: one work-item of a kernel with barriers.
using WorkItemFn = void (*)(const void *const *args, HostWorkItem *work_item);

inline constexpr const char *run_fibers_symbol = "zeal_cpu_run_fibers"; // (WorkItemFn, args, const HostWorkItem *)
inline constexpr const char *barrier_symbol = "zeal_cpu_barrier";       // (HostWorkItem *)
inline constexpr const char *printf_symbol = "zeal_cpu_printf";         // (format, packed args, type codes)
std::span<const RuntimeSymbol> fiber_symbols();
std::span<const RuntimeSymbol> printf_symbols();
std::span<const RuntimeSymbol> math_helper_symbols();
// True for functions JIT'd code reaches on the host: they take no WorkItem.
bool is_host_symbol(llvm::StringRef name);

// --- Kernel-scope `local` variables (local_memory.cpp) ---------------------
// Gives every addrspace(3) global an offset in GroupContext::local_memory
// (recorded on the global as !zeal.local_offset) and returns, per kernel, the
// bytes its variables need.
void assign_local_offsets(llvm::Module &module);
uint64_t static_local_bytes(llvm::Function &kernel);
// After add_work_item_parameter: each use becomes work_item->group->local_memory + offset.
void lower_local_variables(llvm::Module &module);

// --- Barriers and fences (work_group.cpp) ----------------------------------
// After add_work_item_parameter: barrier(...) -> zeal_cpu_barrier(work_item), mem_fence -> fence.
void lower_barriers_and_fences(llvm::Module &module);

// --- Built-in bodies generated from mangled names --------------------------
void define_atomic_builtins(llvm::Module &module);   // atomics.cpp
void define_integer_builtins(llvm::Module &module);  // integer_builtins.cpp
void define_vector_builtins(llvm::Module &module);   // vector_builtins.cpp: common, geometric, relational, vload/vstore
void define_libm_builtins(llvm::Module &module);     // math_builtins.cpp: the math library beyond intrinsics
void lower_printf(llvm::Module &module);             // printf.cpp

// --- Helpers shared by the generators (builtin_support.cpp) ----------------
// The element letter of a mangled parameter ("i", "j", "f", "Dh", ...), for
// parameter `index` (0 or 1); pointers give their pointee's letter.
llvm::StringRef mangled_param_letter(llvm::StringRef mangled, unsigned index = 0);
bool is_signed_letter(llvm::StringRef letter);
// Turns a declaration into an internal, always-inlined definition and
// returns a builder at its entry.
llvm::IRBuilder<> start_body(llvm::Function &function);
// `value` (scalar) broadcast to `like`'s vector shape, or `value` itself.
llvm::Value *splat_like(llvm::IRBuilder<> &b, llvm::Value *value, llvm::Type *like);
// Declarations named _Z<base>... that are still undefined: the candidates for a body.
llvm::SmallVector<llvm::Function *, 16> undefined_builtins(llvm::Module &module);

} // namespace zeal::cpu::detail
