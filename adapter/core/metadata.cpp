// The C ABI's metadata entries as views for module_linker's reader.
#include "adapter/core/metadata.hpp"

#include <vector>

namespace zeal::adapter {

Result<ImageMetadata> read_metadata(std::span<const zeal_metadata_entry_t> entries,
                                    const module_linker::ModuleInfo *spirv, uint32_t primary_sub_group_size) {
  std::vector<module_linker::MetadataEntry> views;
  views.reserve(entries.size());
  for (const zeal_metadata_entry_t &e : entries)
    views.push_back({e.key, std::string_view(static_cast<const char *>(e.value), e.value == nullptr ? 0 : e.size)});
  return module_linker::read_image_metadata(views, spirv, primary_sub_group_size);
}

} // namespace zeal::adapter
