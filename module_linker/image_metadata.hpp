// Device-image metadata (the key/value entries of zeal_adapter.h): read once, merged with what the SPIR-V says.
#pragma once

#include "common/result.hpp"
#include "module_linker/module_info.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace zeal::module_linker {

struct KernelRequirements {
  std::string name;
  uint32_t sub_group_size = 0;                 // 0: none required
  std::array<uint32_t, 3> work_group_size{};   // zeros: none required
  std::string range_type;                      // as declared ("int", "65536"); empty: none declared
  uint64_t range_limit = 0;                    // most work-items per launch; 0: no limit declared
};

// What an exported function (SYCL_EXTERNAL) was compiled for; on an importer, what it expects of the definition.
struct FunctionProperties {
  std::string name;
  uint32_t sub_group_size = 0;                 // 0: not declared (the device's primary size)
  std::string range_type;                      // empty: not declared (size_t)
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
  std::string library;                         // metadata "library": the shared library holding it, or empty
  std::vector<std::string> kernels;            // empty when neither SPIR-V nor metadata names any
  std::vector<std::string> exports;
  std::vector<std::string> imports;
  std::vector<KernelRequirements> kernel_requirements;  // one per kernel that requires anything
  std::vector<FunctionProperties> functions;
  std::vector<ReachedImports> kernel_calls;
  std::vector<ReachedImports> function_calls;

  const KernelRequirements *kernel(std::string_view name) const;
  const FunctionProperties *function(std::string_view name) const;
  // The entry of that name, added when there is none.
  KernelRequirements &kernel_entry(std::string_view name);
  FunctionProperties &function_entry(std::string_view name);
};

// One key/value entry, as the C ABI's zeal_metadata_entry_t or a tool's KEY=VALUE gives it.
struct MetadataEntry {
  std::string_view key;
  std::string_view value;
};

// The metadata of one image. `spirv` (when the image is SPIR-V) supplies kernels,
// linkage and execution modes; entries add to them and must not contradict them.
// `primary_sub_group_size` resolves "primary". Errors are INVALID_ARGUMENT naming key and value.
// A range_type is a work-item count or a type parse_range_type knows. With no primary size (0), "primary" is
// not a size.
Result<ImageMetadata> read_image_metadata(std::span<const MetadataEntry> entries, const ModuleInfo *spirv,
                                          uint32_t primary_sub_group_size);

// The call graph of a native binary, from its metadata: an entry point per kernel and an exported
// function per function whose calls it gives. A kernel or function without is left out, since
// what it calls is unknown.
ModuleInfo call_graph(const ImageMetadata &meta);

// Whether `names` (kernels, exports, imports) holds `name`.
bool contains(std::span<const std::string> names, std::string_view name);

} // namespace zeal::module_linker
