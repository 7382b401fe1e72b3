// What module_linker reads from a SPIR-V module: header, models, capabilities, entry points, linkage, types.
#pragma once

#include "common/result.hpp"

#include <spirv/unified1/spirv.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace zeal::module_linker {

// The SPIR-V enumerant values module_linker looks at (SPIR-V spec, section 3).
namespace spv {
inline constexpr uint32_t kMagic = ::spv::MagicNumber;
enum class ExecutionModel : uint32_t {
  GLCompute = ::spv::ExecutionModelGLCompute, Kernel = ::spv::ExecutionModelKernel
};
enum class ExecutionMode : uint32_t {
  LocalSize = ::spv::ExecutionModeLocalSize, LocalSizeHint = ::spv::ExecutionModeLocalSizeHint,
  SubgroupSize = ::spv::ExecutionModeSubgroupSize, SubgroupsPerWorkgroup = ::spv::ExecutionModeSubgroupsPerWorkgroup
};
enum class Capability : uint32_t {
  Float16 = ::spv::CapabilityFloat16, Float64 = ::spv::CapabilityFloat64, Int64Atomics = ::spv::CapabilityInt64Atomics,
  SubgroupShuffleINTEL = ::spv::CapabilitySubgroupShuffleINTEL
};
enum class AddressingModel : uint32_t {
  Logical = ::spv::AddressingModelLogical, Physical32 = ::spv::AddressingModelPhysical32,
  Physical64 = ::spv::AddressingModelPhysical64
};
enum class MemoryModel : uint32_t {
  Simple = ::spv::MemoryModelSimple, GLSL450 = ::spv::MemoryModelGLSL450, OpenCL = ::spv::MemoryModelOpenCL,
  Vulkan = ::spv::MemoryModelVulkan
};
} // namespace spv

struct ExecutionModeInfo {
  uint32_t mode = 0;               // spv::ExecutionMode value
  std::vector<uint32_t> operands;  // its literal (or id) operands
};

// What a function (and everything it calls inside its module) needs of a device; a bit set.
enum Feature : uint32_t {
  kFeatureFp64 = 1u << 0,            // a double value or operation (needs fp64)
  kFeatureInt64Atomics = 1u << 1,    // an atomic on a 64-bit integer
  kFeatureSubgroupShuffle = 1u << 2, // OpSubgroupShuffle*INTEL or OpGroupNonUniformShuffle*
  kFeatureFp16 = 1u << 3,            // a half value or operation
};

struct EntryPoint {
  std::string name;
  uint32_t execution_model = 0;    // spv::ExecutionModel value
  uint32_t function_id = 0;
  std::vector<ExecutionModeInfo> modes;
  // Shortcuts to the modes a launch must honour; nullopt / zeros when absent.
  std::optional<uint32_t> required_sub_group_size;
  std::array<uint32_t, 3> required_work_group_size{0, 0, 0};
  std::array<uint32_t, 3> local_size_hint{0, 0, 0};
  std::optional<uint32_t> sub_groups_per_work_group;  // SubgroupsPerWorkgroup
  uint32_t features = 0;                   // Feature bits of the kernel and what it calls in this module
  std::vector<std::string> reached_imports; // imports the kernel calls, directly or not (sorted)
};

enum class SymbolKind : uint8_t { Function, Variable };

// One side of a LinkageAttributes decoration, with its type for link checks.
struct Symbol {
  std::string name;
  SymbolKind kind = SymbolKind::Function;
  // A printable LLVM-like signature: "float(float, i32 addrspace(1)*)" for a function,
  // "i32 addrspace(1)" (pointee and address space) for a variable.
  std::string type;
  uint32_t id = 0;
  bool link_once_odr = false;              // LinkOnceODR rather than Export
  // Exports: a fingerprint of the definition (instructions with ids renumbered, types and
  // constants by value); equal fingerprints and types mean the same definition. 0 for imports.
  uint64_t definition_hash = 0;
  uint32_t features = 0;                   // exported functions: Feature bits of what it runs
  std::vector<std::string> reached_imports; // exported functions: imports it calls, directly or not
};

struct SpecConstant {
  uint32_t spec_id = 0;
  uint32_t id = 0;
  std::string type;                        // "i32", "float", "i1", ...
  std::string default_value;               // "42", "1.5", "true", "composite"
};

struct ModuleInfo {
  uint32_t version_major = 0;
  uint32_t version_minor = 0;
  uint32_t generator = 0;
  uint32_t id_bound = 0;
  uint32_t addressing_model = 0;   // spv::AddressingModel value
  uint32_t memory_model = 0;       // spv::MemoryModel value
  std::vector<uint32_t> capabilities;
  std::vector<std::string> extensions;
  std::vector<EntryPoint> entry_points;
  std::vector<std::string> exports;  // LinkageAttributes Export (and LinkOnceODR)
  // LinkageAttributes Import, minus built-in variables and what drivers provide (spirv/imports.hpp).
  std::vector<std::string> imports;
  std::vector<Symbol> exported_symbols; // the exports with their types, sorted by name
  std::vector<Symbol> imported_symbols; // the imports (same filter) with their types, sorted by name
  std::vector<SpecConstant> spec_constants; // sorted by spec id
  std::vector<std::string> builtins;   // BuiltIn decorations used, by name ("GlobalInvocationId"), sorted
  std::vector<std::string> validation_findings; // spirv-val messages when validated and not clean

  const EntryPoint *find_entry_point(std::string_view name) const;
  bool has_capability(uint32_t capability) const;
  const Symbol *find_export(std::string_view name) const;
  const Symbol *find_import(std::string_view name) const;
};

// What to do with spirv-val findings. FromSettings reads ZEAL_VALIDATE_SPIRV:
// warn logs them (and keeps them in validation_findings), strict makes them an error.
enum class Validation : uint8_t { Off, Collect, FromSettings, Strict };

struct InspectOptions {
  Validation validation = Validation::FromSettings;
};

// Parses a SPIR-V binary with SPIRV-Tools. A size that is not a multiple of 4,
// a bad magic number or a parse error give ZEAL_RESULT_ERROR_INVALID_BINARY
// with a message saying what and, for parse errors, at which word.
Result<ModuleInfo> inspect_spirv(std::span<const uint32_t> words);
Result<ModuleInfo> inspect_spirv(std::span<const uint8_t> bytes);
// The same, with a choice of validation; strict findings give ZEAL_RESULT_ERROR_INVALID_BINARY
// with every finding in the message.
Result<ModuleInfo> inspect_spirv(std::span<const uint32_t> words, const InspectOptions &options);
Result<ModuleInfo> inspect_spirv(std::span<const uint8_t> bytes, const InspectOptions &options);

// Runs spirv-val (universal environment of the module's version, which covers OpenCL
// kernels); returns its findings as "word N: message" lines, empty when clean.
std::vector<std::string> validate_spirv(std::span<const uint32_t> words);

// Bytes to words (the input need not be aligned); nullopt when the size is not a multiple of 4.
std::optional<std::vector<uint32_t>> to_words(std::span<const uint8_t> bytes);

// True when the bytes start with the SPIR-V magic number (either endianness).
bool looks_like_spirv(std::span<const uint8_t> bytes);

// Names for diagnostics and tools: "Kernel", "Physical64", "OpenCL", "Addresses", "SubgroupSize";
// numbers without a name come out as e.g. "Capability(4427)".
std::string capability_name(uint32_t capability);
std::string execution_model_name(uint32_t model);
std::string execution_mode_name(uint32_t mode);
std::string addressing_model_name(uint32_t model);
std::string memory_model_name(uint32_t model);
std::string builtin_name(uint32_t builtin);          // "GlobalInvocationId"
std::string feature_names(uint32_t features);        // "fp64, sub-group shuffles"

} // namespace zeal::module_linker
