// Compiles registered images to object programs and links them to executables, caching both per context.
#pragma once

#include "kernel_bundle/detail.hpp"
#include "kernel_bundle/resolver.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace zeal::detail {

using SpecConstants = std::map<uint32_t, std::vector<uint8_t>>;

// The object program of `image` for `device` of the context, compiled once per
// (device, image, options, specialization constants); concurrent requests wait for the one build.
std::shared_ptr<ProgramImpl> get_object(const std::shared_ptr<ContextImpl> &ctx, DeviceImpl *device,
                                        const ImageRef &image, const std::string &options,
                                        const SpecConstants &spec_constants);

// The executable linked from `objects` (all for one device), once per (objects, options).
std::shared_ptr<ProgramImpl> get_executable(const std::shared_ptr<ContextImpl> &ctx,
                                            const std::vector<std::shared_ptr<ProgramImpl>> &objects,
                                            const std::string &options);

// The executable holding kernel `name` for `device`, its image's imports resolved across the registry.
std::shared_ptr<ProgramImpl> executable_for_kernel(const std::shared_ptr<ContextImpl> &ctx, DeviceImpl *device,
                                                   std::string_view name);
// The executable of `image` for `device`, its imports resolved across the registry: what a kernel of the image
// runs in (executable_for_kernel), so a device function pointer taken from it (function_pointer.cpp) is one its
// kernels can call.
std::shared_ptr<ProgramImpl> executable_for_image(const std::shared_ptr<ContextImpl> &ctx, DeviceImpl *device,
                                                  const ImageRef &image);

// What the persistent cache did in this process, for tests and logs.
struct PersistentCacheStats {
  uint64_t hits = 0;      // objects created from a cached native binary
  uint64_t misses = 0;    // objects compiled from SPIR-V with the cache on
  uint64_t stores = 0;    // native binaries written
  uint64_t rejected = 0;  // cached binaries the driver refused (then rebuilt)
};
PersistentCacheStats persistent_cache_stats();

// The text of a program's build or link log, or empty.
std::string program_log(const zeal_adapter_dispatch_t &d, zeal_program_handle_t program);

} // namespace zeal::detail
