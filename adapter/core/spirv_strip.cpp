// Stripping kernels from SPIR-V before zeModuleCreate, with module_linker's transformation.
#include "adapter/core/spirv_strip.hpp"

#include "module_linker/module_info.hpp"
#include "module_linker/spirv_transform.hpp"

#include <algorithm>
#include <cstring>

namespace zeal::adapter {

Result<std::vector<uint8_t>> strip_kernels(std::span<const uint8_t> spirv, const std::vector<std::string> &kernels) {
  namespace ml = zeal::module_linker;
  auto words = ml::to_words(spirv);
  if (!words)
    return make_error(ZEAL_RESULT_ERROR_INVALID_BINARY, "SPIR-V to strip is not a whole number of words");
  auto info = ml::inspect_spirv(std::span<const uint32_t>(*words), ml::InspectOptions{ml::Validation::Off});
  if (!info) return std::move(info).error();
  std::vector<std::string> keep;
  for (const auto &ep : info->entry_points)
    if (std::find(kernels.begin(), kernels.end(), ep.name) == kernels.end()) keep.push_back(ep.name);
  // Exports stay: a stripped kernel's body may still be called, or exported, by name.
  auto kept = ml::retain_kernels(*words, keep, /*keep_exports=*/true);
  if (!kept) return std::move(kept).error();
  std::vector<uint8_t> out(kept->size() * 4);
  std::memcpy(out.data(), kept->data(), out.size());
  return out;
}

} // namespace zeal::adapter
