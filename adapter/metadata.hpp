// Device-image metadata (the key/value entries of zeal_adapter.h) parsed and merged with what the SPIR-V says.
#pragma once

#include "common/result.hpp"
#include "module_linker/module_info.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace zeal::adapter {

struct KernelRequirements {
  std::string name;
  uint32_t sub_group_size = 0;                 // 0: none required
  std::array<uint32_t, 3> work_group_size{};   // zeros: none required
  uint64_t range_limit = 0;                    // most work-items per launch; 0: no limit declared
};

struct FunctionProperties {
  std::string name;
  uint32_t sub_group_size = 0;                 // 0: not declared
  uint64_t range_limit = 0;                    // 0: not declared
};

// The imports a kernel or exported function calls, directly or not ("kernel.<name>.calls",
// "function.<name>.calls"): zeal-pack writes them from the SPIR-V, so that a native binary made
// from it keeps the call graph link checks follow.
struct ReachedImports {
  std::string name;
  std::vector<std::string> imports;
};

struct ImageMetadata {
  std::string image_name;                      // metadata "name": what messages call the image, or empty
  std::vector<std::string> kernels;            // empty when neither SPIR-V nor metadata names any
  std::vector<std::string> exports;
  std::vector<std::string> imports;
  std::vector<KernelRequirements> kernel_requirements;  // one per kernel that requires anything
  std::vector<FunctionProperties> functions;
  std::vector<ReachedImports> kernel_calls;
  std::vector<ReachedImports> function_calls;

  const KernelRequirements *kernel(std::string_view name) const;
  const FunctionProperties *function(std::string_view name) const;
};

// The metadata of one image. `spirv` (when the image is SPIR-V) supplies kernels,
// linkage and execution modes; entries add to them and must not contradict them.
// `primary_sub_group_size` resolves "primary". Errors are INVALID_ARGUMENT naming key and value.
Result<ImageMetadata> read_metadata(std::span<const zeal_metadata_entry_t> entries,
                                    const module_linker::ModuleInfo *spirv, uint32_t primary_sub_group_size);

// The call graph of a native binary, from its metadata: an entry point per kernel and an exported
// function per function whose calls it gives. A kernel or function without is left out, since
// what it calls is unknown.
module_linker::ModuleInfo call_graph(const ImageMetadata &meta);

// Whether `names` (kernels, exports, imports) holds `name`.
bool contains(std::span<const std::string> names, std::string_view name);

// "2147483647" or a C++ integer type name -> its max(); nullopt when neither.
std::optional<uint64_t> parse_range_type(std::string_view text);

} // namespace zeal::adapter
