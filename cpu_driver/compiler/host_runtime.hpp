// The lowerings that give kernels barriers, local memory, atomics, built-ins and printf, and the host functions they call.
#pragma once

#include "cpu_driver/compiler/internal.hpp"
#include "spirv_frontend/image_builtins.hpp"

#include <llvm/IR/Function.h>

#include <cstdint>
#include <span>

namespace zeal::cpu::detail {

// --- Host functions JIT'd code calls (bound as absolute symbols) -----------
// The address a host function is bound at; the template argument picks one overload of a C library name.
template <class F>
void *address(F *function) {
  return reinterpret_cast<void *>(function);
}
// The signatures of the math library's functions of one, two and three arguments.
using F1 = float(float);
using D1 = double(double);
using F2 = float(float, float);
using D2 = double(double, double);
using F3 = float(float, float, float);
using D3 = double(double, double, double);

// The C++ mirror of the hidden WorkItem (work_item_type() in builtins/builtins.cpp).
struct HostWorkItem {
  uint64_t local_id[3], group_id[3], local_size[3], num_groups[3], global_offset[3];
  uint64_t work_dim;
  const GroupContext *group;
  uint64_t subgroup_size;
  uint64_t subgroup_id, subgroup_local_id;
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

// --- Barriers and collectives as regions (workgroup/region_*.cpp) ---------
// From the work-item function `zeal.wi.<kernel>(args, work_item)`, a function
// `zeal.regions.<kernel>(args, work_item)` that runs the whole work-group: each
// stretch between barriers and collectives loops over the work-items, which
// find their ids in `work_item`. Null when the kernel needs fibers (recursion
// or indirect calls reaching them, run-time-sized private memory).
// `slot_bytes`: what each work-item keeps across them in the thread's scratch buffer.
// `subgroup_size`: the size the kernel runs with.
llvm::Function *build_region_function(llvm::Function &item, uint32_t subgroup_size, uint64_t &slot_bytes);
// The info-level line saying that `kernel` runs on fibers, and why (work_group.cpp).
void log_fiber_path(llvm::StringRef kernel, const std::string &why);
inline constexpr const char *region_scratch_symbol = "zeal_cpu_region_scratch"; // void *(uint64_t bytes)
// (uint32_t *next, const RegionSite *sites, const uint32_t *args, uint64_t total, uint64_t subgroup_size)
inline constexpr const char *region_collectives_symbol = "zeal_cpu_region_collectives";
// Set in a work-item's `next` region while it waits at that region's collective.
inline constexpr uint32_t region_waits = 0x80000000u;
std::span<const RuntimeSymbol> region_symbols();

// --- Kernel-scope `local` variables (workgroup/local_memory.cpp) ---------------------
// Gives every addrspace(3) global an offset in GroupContext::local_memory
// (recorded on the global as !zeal.local_offset) and returns, per kernel, the
// bytes its variables need.
void assign_local_offsets(llvm::Module &module);
uint64_t static_local_bytes(llvm::Function &kernel);
// After add_work_item_parameter: each use becomes work_item->group->local_memory + offset.
void lower_local_variables(llvm::Module &module);

// --- Sub-groups (workgroup/subgroups.cpp builds the IR, workgroup/subgroup_ops.cpp combines lanes) ---
// True for built-ins whose lanes exchange values (or wait for each other):
// kernels reaching one run as regions (or fibers), like barrier kernels.
bool is_subgroup_collective(llvm::StringRef name);
// A barrier or a sub-group collective: the work-item may have to wait for
// others (as regions, or as fibers when regions cannot be formed).
bool needs_fibers(llvm::StringRef name);
// get_local_linear_id() of the work-item (builtins/builtins.cpp).
llvm::Value *local_linear_id(llvm::IRBuilder<> &b, llvm::Value *work_item);
// Stores the sub-group id and lane of the work-item whose linear local id is
// `linear` (linear / S and linear % S) in its WorkItem (workgroup/subgroups.cpp).
void store_subgroup_ids(llvm::IRBuilder<> &b, llvm::Value *work_item, llvm::Value *linear);
// Loop metadata for a loop over a sub-group's lanes (workgroup/subgroups.cpp):
// vectorise at width `lanes`, one vector iteration per sub-group, rather than
// unroll it first; the accesses of group `accesses` carry no dependence from
// lane to lane.
llvm::MDNode *lane_loop_hints(llvm::LLVMContext &context, uint32_t lanes, llvm::MDNode *accesses);
// After the WorkItem parameter is added: sub-group queries, collectives, ballot queries and block I/O get bodies.
void define_subgroup_builtins(llvm::Module &module);

// A collective, packed into the `code` argument of zeal_cpu_subgroup: op | arith << 8 | element << 16 | count << 24.
enum class SgOp : uint8_t {
  Shuffle, ShuffleDown, ShuffleUp, ShuffleXor,   // cl_intel_subgroups (down: current, next; up: previous, current)
  ShuffleUpKhr, ShuffleDownKhr, Broadcast, BroadcastFirst,
  All, Any, AllEqual, Ballot, Elect, Reduce, ScanInclusive, ScanExclusive, ClusteredReduce, Barrier,
  MatrixMad, // cl_intel_subgroup_matrix_multiply_accumulate (and _tf32): see SgMatrix
};
enum class SgArith : uint8_t { Add, Mul, Min, Max, And, Or, Xor, LogicalAnd, LogicalOr, LogicalXor };
enum class SgElement : uint8_t { I8, U8, I16, U16, I32, U32, I64, U64, F16, F32, F64 };
inline constexpr uint32_t sg_code(SgOp op, SgArith arith, SgElement element, uint32_t count) {
  return uint32_t(op) | uint32_t(arith) << 8 | uint32_t(element) << 16 | count << 24;
}
// The operand types of a sub-group matrix product, SgOp::MatrixMad: its code is MatrixMad | SgMatrix << 8 |
// (bits of each component of `a`: 16 or 32) << 16 | M << 24. Each lane posts its `a` (M rows' parts, or ceil(M/2)
// rows for tf32) at 0, its column of `b` (256 bits) at sg_matrix_b_at and its column of `acc` at sg_matrix_acc_at;
// it receives its column of the result.
enum class SgMatrix : uint8_t { I8I8, I8U8, U8I8, U8U8, I4I4, I4U4, U4I4, U4U4, F16, BF16, F16AccF16, BF16AccBF16, TF32 };
inline constexpr uint32_t sg_matrix_b_at = 32, sg_matrix_acc_at = 64, sg_matrix_post_bytes = 96;
inline constexpr uint32_t sg_matrix_code(SgMatrix kind, uint32_t a_bits, uint32_t m) {
  return uint32_t(SgOp::MatrixMad) | uint32_t(kind) << 8 | a_bits << 16 | m << 24;
}
// Bytes one lane posts: two values for the Intel shuffles up and down.
inline constexpr uint32_t sg_max_post_bytes = 128;
// The bytes of a post that collective `code` reads (at most sg_max_post_bytes).
uint32_t sg_post_bytes(uint32_t code);
inline constexpr uint32_t sg_max_lanes = 64; // a sub-group's active lanes fit in one uint64_t mask

// What a lane sees once every lane of its sub-group that takes part has posted.
struct CollectiveView {
  const unsigned char *const *posts; // posts[j]: lane j's bytes, valid when bit j of `active` is set
  uint64_t active;
  uint32_t lane, size, max_size;
};
// Writes the lane's result of collective `code` (its own argument `arg`) to `out`.
void combine_collective(uint32_t code, const CollectiveView &view, uint32_t arg, void *out);
// One work-item's call of a collective (the arguments of zeal_cpu_subgroup),
// as the host's region combine gathers them from a RegionSite.
struct CollectiveRecord {
  const void *in;
  void *out; // null for a collective without a result
  uint32_t code, arg;
};
// One collective call site of a region kernel, as the dispatcher describes it
// to the host when the host combines: work-item i posts at post + i *
// post_stride and receives at out + i * out_stride (out null: no result); its
// argument is `arg`, or args[i] when arg_per_lane.
struct RegionSite {
  const unsigned char *post;
  uint64_t post_stride;
  unsigned char *out;
  uint64_t out_stride;
  uint32_t code, arg, arg_per_lane, reserved;
};
static_assert(sizeof(RegionSite) == 48, "region_emit.cpp lays sites out as {ptr, i64, ptr, i64, i32, i32, i32, i32}");
// The results of every lane taking part in one collective (view.lane is
// unused), written to lanes[j].out: what combine_collective gives each lane,
// with reductions and scans computed once for the sub-group.
void combine_sub_group(const CollectiveView &view, const CollectiveRecord *lanes);
// The host functions of workgroup/subgroup_ops.cpp (ballot queries); fiber_symbols() includes them.
std::span<const RuntimeSymbol> subgroup_op_symbols();

// SPV_INTEL_2d_block_io's calls (spirv/instruction_calls.hpp), defined as calls of the host's
// zeal_cpu_block_2d(HostWorkItem *, op, element bytes, block width, height, count, memory, width, height, pitch,
// x, y, lane's data) (workgroup/block_2d.cpp).
inline constexpr const char *block_2d_symbol = "zeal_cpu_block_2d";
void define_block_2d_calls(llvm::Module &module);
RuntimeSymbol block_2d_runtime_symbol();
inline constexpr const char *subgroup_symbol = "zeal_cpu_subgroup"; // (HostWorkItem *, code, const void *in, arg, void *out)
// Ballot bit queries, pure functions of the ballot, the lane and the sub-group size: no exchange.
inline constexpr const char *ballot_query_symbol = "zeal_cpu_ballot_query"; // (HostWorkItem *, kind, const uint32_t *, arg)

// --- Barriers and fences (workgroup/work_group.cpp) ----------------------------------
// After add_work_item_parameter: barrier(...) -> zeal_cpu_barrier(work_item), mem_fence -> fence.
void lower_barriers_and_fences(llvm::Module &module);

// --- Built-in bodies generated from mangled names --------------------------
void define_atomic_builtins(llvm::Module &module);   // builtins/atomics.cpp
void define_integer_builtins(llvm::Module &module);  // builtins/integer_builtins.cpp
void define_vector_builtins(llvm::Module &module);   // builtins/vector_builtins.cpp: common, geometric, relational, vload/vstore
void define_libm_builtins(llvm::Module &module);     // builtins/math_builtins.cpp: the math library beyond intrinsics
void define_half_math_builtins(llvm::Module &module); // builtins/half_math.cpp: math on half through float
void define_conversion_builtins(llvm::Module &module); // builtins/conversion_builtins.cpp: convert_*, bfloat16
// True for the OpenCL math functions (the base of a mangled name) this driver provides for float.
bool is_math_builtin(llvm::StringRef name);
void lower_printf(llvm::Module &module);             // builtins/printf.cpp
// read_image*, write_image*, get_image_*, literal samplers: the front end's (spirv_frontend/image_builtins.hpp),
// calling the host's image functions (builtins/image_sampling.hpp). opaque_pointee: the translator's opaque struct
// a pointer type points to, which argument kinds read too.
using frontend::opaque_pointee;

// --- Helpers shared by the generators (builtins/builtin_support.cpp) ----------------
// The element letter of a mangled parameter ("i", "j", "f", "Dh", ...), for
// parameter `index` (0 or 1); pointers give their pointee's letter.
llvm::StringRef mangled_param_letter(llvm::StringRef mangled, unsigned index = 0);
bool is_signed_letter(llvm::StringRef letter);
// Turns a declaration into an internal, always-inlined definition and returns a builder at its entry (the front
// end's, spirv_frontend/builtin_bodies.hpp).
using frontend::begin_builtin_body;
// `value` (scalar) broadcast to `like`'s vector shape, or `value` itself.
llvm::Value *splat_like(llvm::IRBuilder<> &b, llvm::Value *value, llvm::Type *like);
// `nearest`, the value nearest to an exact one, moved one unit in the last place
// where rounding mode `mode` (_rtz, _rtp, _rtn; others leave it) goes the other
// way; `above` and `below` (i1, per lane) say whether nearest lies above or below the exact value.
llvm::Value *round_directed(llvm::IRBuilder<> &b, llvm::Value *nearest, llvm::Value *above, llvm::Value *below,
                            llvm::StringRef mode);
// Floating-point `x` narrowed to `type` in rounding mode `mode` (empty: to nearest even).
llvm::Value *fp_truncate(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Type *type, llvm::StringRef mode);
// Declarations named _Z<base>... that are still undefined: the candidates for a body.
llvm::SmallVector<llvm::Function *, 16> undefined_builtins(llvm::Module &module);

} // namespace zeal::cpu::detail
