// Device-image metadata as the adapter receives it: the C ABI's entries handed to module_linker's one reader.
#pragma once

#include "module_linker/image_metadata.hpp"

#include <span>

namespace zeal::adapter {

using module_linker::call_graph;
using module_linker::contains;
using module_linker::FunctionProperties;
using module_linker::ImageMetadata;
using module_linker::KernelRequirements;

// The metadata of one image (module_linker::read_image_metadata); `primary_sub_group_size` is the device's,
// which resolves "primary". Errors are INVALID_ARGUMENT naming key and value.
Result<ImageMetadata> read_metadata(std::span<const zeal_metadata_entry_t> entries,
                                    const module_linker::ModuleInfo *spirv, uint32_t primary_sub_group_size);

} // namespace zeal::adapter
