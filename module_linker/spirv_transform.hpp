// Module transformations: strip kernels a device cannot run, split per kernel, merge (static link).
#pragma once

#include "module_linker/device_profile.hpp"
#include "module_linker/module_info.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace zeal::module_linker {

struct ModulePart {
  std::string name;               // a kernel name, kExportsPart, or the source's name
  std::vector<uint32_t> words;
};

// The part of a per-kernel split that holds the module's exported symbols (and no kernel).
inline constexpr std::string_view kExportsPart = "_exports";

// Keeps the named entry points and, when keep_exports, the exported symbols; removes every
// other entry point with its execution modes, the functions only they reached, and their names
// and decorations (EliminateDeadFunctions). Without keep_exports, Export/LinkOnceODR
// decorations are dropped, so the module exports nothing. Unknown names are ignored.
Result<std::vector<uint32_t>> retain_kernels(std::span<const uint32_t> words, std::span<const std::string> kernels,
                                             bool keep_exports);

struct StripResult {
  std::vector<uint32_t> words;    // empty when neither a kernel nor an export is left
  std::vector<std::string> removed;  // "kernel: reason" for each kernel removed
};

// Removes the kernels `device` cannot run (a required sub-group size it lacks, or fp64, 64-bit
// atomics or sub-group shuffles it does not support in what the kernel calls in this module).
Result<StripResult> strip_unsupported_kernels(std::span<const uint32_t> words, const DeviceProfile &device);

// One part per kernel (the kernel and the functions it calls, exporting nothing), plus a
// kExportsPart when the module exports symbols, so that what others import stays available.
Result<std::vector<ModulePart>> split_per_kernel(std::span<const uint32_t> words);

// Static link through SPIRV-Tools' linker; the result keeps its exports and may keep imports
// no input provides (partial linkage). Errors carry the linker's messages.
Result<std::vector<uint32_t>> merge_modules(std::span<const std::vector<uint32_t>> modules);

// The device-code split modes: per_kernel (merge, then one part per kernel), per_source (each
// source as it is), off (everything merged into one part named "merged").
enum class SplitMode { PerKernel, PerSource, Off };
std::optional<SplitMode> parse_split_mode(std::string_view text);
Result<std::vector<ModulePart>> apply_split_mode(std::span<const ModulePart> sources, SplitMode mode);

} // namespace zeal::module_linker
