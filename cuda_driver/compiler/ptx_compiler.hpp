// The CUDA driver's back end: SPIR-V in (through the shared front end, spirv_frontend/), PTX out, with what the
// runtime needs to know of each kernel to launch it. The CUDA driver JIT-compiles the PTX for the device.
#pragma once

#include "spirv_frontend/errors.hpp"
#include "spirv_frontend/spec_constant.hpp"

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace zeal::cuda {

using frontend::Error;
template <class T>
using Result = frontend::Result<T>;
using frontend::Status;

// How the runtime passes a kernel argument (zeKernelSetArgumentValue) to cuLaunchKernel.
enum class PtxArgKind : uint8_t {
  Value,         // bytes as given (scalars, vectors, structs by value): one PTX parameter of `size` bytes
  GlobalPointer, // a device pointer (USM, global or constant memory): 8 bytes
  LocalPointer,  // local memory of the size given at zeKernelSetArgumentValue (value null): the PTX parameter is
                 // a 32-bit byte offset into the launch's dynamic shared memory, which the runtime lays out
                 // (the dynamic shared array is 16-byte aligned; offsets that are multiples of 16 suit every type)
  Image,         // a ze_image_handle_t: the PTX parameter is the device address of the image's ImageDescriptor
                 // (ze_driver/image_abi.hpp)
  Sampler,       // a ze_sampler_handle_t: the PTX parameter is its SamplerBits, as a 64-bit value
};

struct PtxArg {
  PtxArgKind kind = PtxArgKind::Value;
  uint32_t size = 0; // bytes the caller passes to zeKernelSetArgumentValue (8 for a global pointer)
};

struct PtxKernel {
  std::string name;                              // the SPIR-V entry point's name, also the PTX .entry's
  std::vector<PtxArg> args;                      // the SPIR-V kernel's arguments, in order
  uint32_t required_group_size[3] = {0, 0, 0};   // reqd_work_group_size, zeros when none
  uint32_t required_subgroup_size = 0;           // intel_reqd_sub_group_size, 0 when none
  uint32_t group_size_hint[3] = {0, 0, 0};       // work_group_size_hint, zeros when none
  uint32_t subgroup_size = 32;                   // what the code runs with: the required size, else 32 (a warp;
                                                 // 8 and 16 are segments of one)
  // Why this driver cannot run the kernel (an image argument, a call of an image built-in...), a sentence naming it;
  // empty when it can. The module builds without it, and zeKernelCreate refuses it with this sentence, as the CPU driver
  // does, while the module's other kernels run.
  std::string refusal;
  uint64_t static_local_bytes = 0;               // kernel-scope `local` variables (static shared memory); the PTX
                                                 // adds up to 264 bytes of its own (the work-group collectives'
                                                 // scratch); CUDA's CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES counts both.
                                                 // The hidden values are in dynamic shared memory instead
                                                 // (ptx_reserved_shared_bytes)
};

// The PTX entry's parameters are the kernel's arguments in order (LocalPointer as a u32 offset) followed by four
// hidden parameters: the global offset in x, y, z as u64 each (zeKernelSetGlobalOffsetExp; zeros normally), then
// the launch's work dimensions as a u32 (1, 2 or 3: the highest dimension with more than one work-item, at least 1).
inline constexpr unsigned ptx_hidden_params = 4;

// The first bytes of every launch's dynamic shared memory are the hidden values' (the entry stores them there, with
// the kernel's sub-group size, and work-item and sub-group built-ins read them there, also in functions of other
// modules linked in: every `extern .shared` array of a CUDA kernel starts at the same address). The runtime adds
// these bytes to each launch of a compiled kernel and lays local-memory arguments out after them.
inline constexpr unsigned ptx_reserved_shared_bytes = 32;

// A module whose functions are handed out by zeModuleGetFunctionPointer (library compilation, or SPIR-V made for
// function pointers) has, for each exported function F, a visible global `<prefix>F` that holds F's device address
// (PTX lets a global's initializer name a function; the host has no other way to learn the address).
inline constexpr const char *ptx_function_address_prefix = "__zeal_fp_";

// CUDA's function addresses are offsets into the code of the CUDA module that holds the function, meaningful only to
// kernels of that module. So zeModuleGetFunctionPointer hands out an id (ptx_function_id_tag | n, n ≥ 1) instead,
// and every call through a pointer is compiled to look an id up in the table `ptx_function_table` (ids are
// indexes; a pointer without the tag is an address of the caller's own code, called as it is). A module that calls
// through pointers declares the table; the runtime loads it into the device's joint module
// (cuda_driver/runtime/joint_module.hpp), which defines the table and fills it with the addresses each id has
// there.
inline constexpr const char *ptx_function_table = "__zeal_function_table";
inline constexpr uint64_t ptx_function_id_tag = uint64_t(0x5A1) << 52;
inline constexpr unsigned ptx_function_id_shift = 52;
inline constexpr uint32_t ptx_function_table_entries = 16384; // ids 1 to 16383

struct PtxProgram {
  std::string ptx;                 // the module's PTX text (the native binary)
  std::vector<PtxKernel> kernels;  // every kernel, in module order
  std::string log;                 // the build log: notes of the front end (ignored specialisation constants, ...)
  // Variables DPC++ names to the host by another name than they export (SPV_INTEL_global_variable_host_access):
  // host name, exported name, for zeModuleGetGlobalPointer.
  std::vector<std::pair<std::string, std::string>> aliases;
};

struct PtxOptions {
  unsigned sm = 80;                  // the PTX target, sm_XX (LLVM 15 knows up to sm_86; the driver JITs upward;
                                     // a newer one gets sm_86 PTX and a note in the log)
  unsigned opt_level = 2;            // -ze-opt-level=N; 0 with -ze-opt-disable
  bool library_compilation = false;  // keep exported functions (for zeModuleDynamicLink)
  std::vector<frontend::SpecConstant> spec_constants;
  std::vector<uint32_t> subgroup_sizes{8, 16, 32}; // sizes the device honours; a kernel requiring another fails
                                                   // the build, as one requiring a size but 8, 16 or 32 does
                                                   // (sub-groups are warps or segments of one)
};

// Symbols of a PTX text renamed as `names` says (ptx_rename.cpp): whole identifiers only, never a register (%r1), a
// directive or type (.global), a number, or text in a comment or string.
std::string rename_ptx_symbols(const std::string &ptx, const std::map<std::string, std::string> &names);

// SPIR-V → PTX. Malformed SPIR-V: ZE_RESULT_ERROR_INVALID_ARGUMENT; a module that cannot be compiled for the GPU (a
// built-in it lacks, an unsupported sub-group size, a capability): ZE_RESULT_ERROR_MODULE_BUILD_FAILURE; each with
// a sentence that names the kernel or function and what was wrong, also in the log.
Result<PtxProgram> compile_ptx(std::span<const uint8_t> spirv, const PtxOptions &options);

} // namespace zeal::cuda
