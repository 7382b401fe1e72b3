// The CPU driver's compiler: SPIR-V in, JIT-compiled work-group functions out.
#pragma once

#include "common/result.hpp"
#include "cpu_driver/kernel_abi.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace zeal::cpu {

enum class ArgKind : uint8_t {
  Value,          // passed by value (scalars, vectors, structs by value)
  GlobalPointer,  // a pointer to global or constant memory (a USM pointer)
  LocalPointer,   // a pointer to local memory; set with a size and a null value
};

struct ArgInfo {
  ArgKind kind = ArgKind::Value;
  uint32_t size = 0;    // bytes of the argument value (8 for pointers)
  std::string type_name; // from kernel_arg_type metadata when present, else empty
};

struct KernelInfo {
  std::string name;
  std::vector<ArgInfo> args;
  uint32_t required_group_size[3] = {0, 0, 0}; // reqd_work_group_size, zeros when none
  uint32_t required_subgroup_size = 0;          // intel_reqd_sub_group_size, 0 when none
  uint64_t static_local_bytes = 0;              // kernel-scope `local` variables
  uint64_t private_bytes = 0;                   // estimate of private memory per work-item
  bool uses_barriers = false;
  WorkGroupFn run = nullptr;                    // valid while the Program lives
};

struct CompileOptions {
  unsigned opt_level = 2;            // -ze-opt-level=N; 0 with -ze-opt-disable
  bool library_compilation = false;  // -library-compilation: keep exported functions, allow imports
};

// Parses Level Zero build flags; flags it does not know are reported in `log`.
CompileOptions parse_build_flags(const char *flags, std::string &log);

// One compiled module. Owns its JIT and the code of its kernels.
class Program {
public:
  virtual ~Program() = default;
  virtual std::span<const KernelInfo> kernels() const = 0;
  const KernelInfo *find_kernel(std::string_view name) const;
  // Warnings and notes of a successful build (may be empty).
  virtual const std::string &build_log() const = 0;
};

// Compiles SPIR-V. On failure the Error's code is ZEAL_RESULT_ERROR_BUILD_FAILURE
// (or INVALID_BINARY for input that is not SPIR-V) and its `log` holds the
// build log: the translator's or LLVM's message, in a sentence that names
// what was wrong.
Result<std::unique_ptr<Program>> compile_spirv(std::span<const uint8_t> spirv, const CompileOptions &options);

} // namespace zeal::cpu
