// What module_linker reads from a SPIR-V module: header, models, capabilities, entry points, linkage.
#pragma once

#include "common/result.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace zeal::module_linker {

// The SPIR-V enumerant values module_linker looks at (SPIR-V spec, section 3).
namespace spv {
inline constexpr uint32_t kMagic = 0x07230203;
enum class ExecutionModel : uint32_t { GLCompute = 5, Kernel = 6 };
enum class ExecutionMode : uint32_t { LocalSize = 17, LocalSizeHint = 18, SubgroupSize = 35 };
enum class AddressingModel : uint32_t { Logical = 0, Physical32 = 1, Physical64 = 2 };
enum class MemoryModel : uint32_t { Simple = 0, GLSL450 = 1, OpenCL = 2, Vulkan = 3 };
} // namespace spv

struct ExecutionModeInfo {
  uint32_t mode = 0;               // spv::ExecutionMode value
  std::vector<uint32_t> operands;  // its literal (or id) operands
};

struct EntryPoint {
  std::string name;
  uint32_t execution_model = 0;    // spv::ExecutionModel value
  uint32_t function_id = 0;
  std::vector<ExecutionModeInfo> modes;
  // Shortcuts to the modes a launch must honour; nullopt / zeros when absent.
  std::optional<uint32_t> required_sub_group_size;
  std::array<uint32_t, 3> required_work_group_size{0, 0, 0};
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
  std::vector<std::string> imports;  // LinkageAttributes Import, minus built-ins and __spirv_* names

  const EntryPoint *find_entry_point(std::string_view name) const;
  bool has_capability(uint32_t capability) const;
};

// Parses a SPIR-V binary with SPIRV-Tools. A size that is not a multiple of 4,
// a bad magic number or a parse error give ZEAL_RESULT_ERROR_INVALID_BINARY
// with a message saying what and, for parse errors, at which word.
Result<ModuleInfo> inspect_spirv(std::span<const uint32_t> words);
Result<ModuleInfo> inspect_spirv(std::span<const uint8_t> bytes);

// True when the bytes start with the SPIR-V magic number (either endianness).
bool looks_like_spirv(std::span<const uint8_t> bytes);

// Names for diagnostics and tools: "Kernel", "Physical64", "OpenCL", "Addresses", "SubgroupSize";
// numbers without a name come out as e.g. "Capability(4427)".
std::string capability_name(uint32_t capability);
std::string execution_model_name(uint32_t model);
std::string execution_mode_name(uint32_t mode);
std::string addressing_model_name(uint32_t model);
std::string memory_model_name(uint32_t model);

} // namespace zeal::module_linker
