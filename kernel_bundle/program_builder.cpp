// Object and executable programs from registered images, with the per-context in-memory caches.
#include "kernel_bundle/program_builder.hpp"

#include "common/log.hpp"
#include "common/settings.hpp"
#include "common/persistent_cache.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <optional>

namespace zeal::detail {
namespace {

std::string spec_key(const SpecConstants &spec) {
  std::string key;
  for (const auto &[id, bytes] : spec) {
    key += fmt::format("{}=", id);
    for (uint8_t b : bytes) key += fmt::format("{:02x}", b);
    key += ',';
  }
  return key;
}

// Throws the adapter's error, adding the build or link log when the program has one.
[[noreturn]] void fail(const zeal_adapter_dispatch_t &d, zeal_result_t r, const std::string &what,
                       zeal_program_handle_t program) {
  std::string message = fmt::format("{}: {}", what, d.getLastErrorMessage());
  if (program != nullptr) {
    std::string log = program_log(d, program);
    if (!log.empty() && message.find(log) == std::string::npos) message += "\nbuild log:\n" + log;
  }
  throw exception(to_errc(r), message, r);
}

// A native (AOT) image the driver refused (another CPU model or driver version,
// a profile lacking its sub-group sizes, corruption): it holds no SPIR-V to fall
// back to, so the message says what to do instead. The adapter calls the blob
// invalid; for the user it is a build failure.
[[noreturn]] void fail_native(const zeal_adapter_dispatch_t &d, zeal_result_t r, const RegisteredImage &image,
                              zeal_program_handle_t program) {
  // The adapter's message names the image again and the device; what it adds is the driver's reason.
  std::string message = fmt::format("loading native device image {} failed: {}\nA native (AOT) image cannot be "
                                    "compiled again here: it runs only on the CPU model, zeal driver version and "
                                    "device profiles of the build; rebuild {} on this machine, or build its device "
                                    "code without AOT",
                                    image.describe(), d.getLastErrorMessage(), image.origin);
  std::string log = program_log(d, program);
  if (!log.empty() && message.find(log) == std::string::npos) message += "\nbuild log:\n" + log;
  bool memory = r == ZEAL_RESULT_ERROR_OUT_OF_HOST_MEMORY || r == ZEAL_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  throw exception(memory ? to_errc(r) : errc::build, message, r);
}

// Drops the entries built from images that are no longer registered: no request can name them again (their
// kernel ids are gone; a reloaded library registers new images), so keeping them would only grow the cache by a
// program for each load of a library. Kernels and bundles users hold keep their programs alive. Needs
// programs_mutex.
void forget_unloaded_images(ContextImpl &ctx) {
  const ImageRegistry &registry = ImageRegistry::instance();
  const uint64_t generation = registry.generation();
  if (generation == ctx.swept_generation) return;
  ctx.swept_generation = generation;
  auto unloaded = [&](const ProgramImpl &p) { return p.image != nullptr && !registry.holds(p.image->id); };
  auto stale = [&](const auto &entry) {
    const ProgramFuture &future = entry.second;
    if (future.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return false; // still building
    try {
      const std::shared_ptr<ProgramImpl> &program = future.get();
      return unloaded(*program) ||
             std::any_of(program->parts.begin(), program->parts.end(), [&](const auto &part) { return unloaded(*part); });
    } catch (...) {
      return false; // a failed build, about to be erased by its builder
    }
  };
  std::erase_if(ctx.objects, stale);
  std::erase_if(ctx.executables, stale);
}

// Finds or makes the cache entry for `key`; the one caller that made it runs `build`.
template <class Build>
std::shared_ptr<ProgramImpl> cached(ContextImpl &ctx, std::map<std::string, ProgramFuture> &cache,
                                    const std::string &key, Build build) {
  std::promise<std::shared_ptr<ProgramImpl>> promise;
  ProgramFuture future;
  bool mine = false;
  {
    std::lock_guard lock(ctx.programs_mutex);
    forget_unloaded_images(ctx);
    auto it = cache.find(key);
    if (it == cache.end()) {
      future = promise.get_future().share();
      cache.emplace(key, future);
      mine = true;
    } else {
      future = it->second;
    }
  }
  if (mine) {
    try {
      promise.set_value(build());
    } catch (...) {
      // A failed build is not kept: the next request tries again and reports again.
      {
        std::lock_guard lock(ctx.programs_mutex);
        cache.erase(key);
      }
      promise.set_exception(std::current_exception());
    }
  }
  return future.get();
}

struct StatCounters {
  std::atomic<uint64_t> hits{0}, misses{0}, stores{0}, rejected{0};
};
StatCounters &stats() {
  static StatCounters counters;
  return counters;
}

// One cache per driver: an entry written for another driver or version is stale.
PersistentCache &persistent_cache(const DeviceImpl &device) {
  static std::mutex mutex;
  static auto *caches = new std::map<std::string, std::unique_ptr<PersistentCache>>();
  const zeal_adapter_dispatch_t &d = device.adapter->dispatch;
  size_t size = 0;
  std::string version;
  if (d.deviceGetInfo(device.handle, ZEAL_DEVICE_INFO_DRIVER_VERSION, 0, nullptr, &size) == ZEAL_RESULT_SUCCESS &&
      size > 0) {
    version.resize(size);
    (void)d.deviceGetInfo(device.handle, ZEAL_DEVICE_INFO_DRIVER_VERSION, size, version.data(), nullptr);
    version.pop_back();
  }
  std::string driver = fmt::format("{} | {} | {}", device.adapter->backend, device.name, version);
  std::lock_guard lock(mutex);
  auto &slot = (*caches)[driver];
  if (!slot)
    slot = std::make_unique<PersistentCache>(PersistentCache::default_directory(), settings().cache_max_size, driver);
  return *slot;
}

// The cache key of an object: the image's bytes (by hash and size), options and constants.
std::string persistent_key(const RegisteredImage &image, const std::string &options, const SpecConstants &spec) {
  const zeal_device_image_t &img = *image.image;
  uint64_t hash = fnv1a64(std::span(img.bytes, img.size));
  std::string metadata;
  for (uint32_t i = 0; i < img.num_metadata; ++i)
    metadata += fmt::format("{}={};", img.metadata[i].key,
                            std::string_view(static_cast<const char *>(img.metadata[i].value), img.metadata[i].size));
  uint64_t meta_hash = fnv1a64(std::span(reinterpret_cast<const uint8_t *>(metadata.data()), metadata.size()));
  return fmt::format("object|image {:016x}/{}|metadata {:016x}|options {}|spec {}", hash, img.size, meta_hash, options,
                     spec_key(spec));
}

// The image's metadata plus its "name" ("'k.spv' of /path/libx.so"), so that the
// adapter's messages name what the user built rather than a program handle.
struct NamedMetadata {
  std::string name;
  std::vector<zeal_metadata_entry_t> entries;
  explicit NamedMetadata(const RegisteredImage &image) : name(image.describe()) {
    const zeal_device_image_t &img = *image.image;
    entries.assign(img.metadata, img.metadata + img.num_metadata);
    entries.push_back({"name", name.data(), name.size()});
  }
};

// The image's object from its native binary, or null when the driver refuses it.
std::shared_ptr<ProgramImpl> object_from_native(const std::shared_ptr<ContextImpl> &ctx, DeviceImpl *device,
                                                const ImageRef &image, const std::string &options,
                                                const std::vector<uint8_t> &native) {
  const zeal_adapter_dispatch_t &d = ctx->dispatch();
  NamedMetadata metadata(*image);
  zeal_program_desc_t desc{ZEAL_PROGRAM_FORMAT_NATIVE, native.data(), native.size(),
                           static_cast<uint32_t>(metadata.entries.size()), metadata.entries.data()};
  auto program = std::make_shared<ProgramImpl>();
  program->context = ctx.get();
  program->device = device;
  program->image = image;
  if (d.programCreate(ctx->handle, device->handle, &desc, &program->handle) == ZEAL_RESULT_SUCCESS &&
      d.programCompile(program->handle, options.empty() ? nullptr : options.c_str()) == ZEAL_RESULT_SUCCESS)
    return program;
  return nullptr;
}

// The object from a cached native binary, or null when the driver refuses it.
std::shared_ptr<ProgramImpl> load_cached_object(const std::shared_ptr<ContextImpl> &ctx, DeviceImpl *device,
                                                const ImageRef &image, const std::string &options,
                                                const std::vector<uint8_t> &native) {
  if (auto program = object_from_native(ctx, device, image, options, native)) return program;
  const zeal_adapter_dispatch_t &d = ctx->dispatch();
  logger("zeal").warn("the cached native binary of device image {} was refused ({}); building it from SPIR-V",
                      image->describe(), d.getLastErrorMessage());
  ++stats().rejected;
  return nullptr;
}

// Keeps the object's native binary for later processes; a failure only costs a later rebuild.
void store_object(const ProgramImpl &object, PersistentCache &cache, const std::string &key) {
  const zeal_adapter_dispatch_t &d = object.context->dispatch();
  size_t size = 0;
  if (d.programGetInfo(object.handle, ZEAL_PROGRAM_INFO_NATIVE_BINARY, 0, nullptr, &size) != ZEAL_RESULT_SUCCESS ||
      size == 0)
    return;
  std::vector<uint8_t> native(size);
  if (d.programGetInfo(object.handle, ZEAL_PROGRAM_INFO_NATIVE_BINARY, size, native.data(), nullptr) !=
      ZEAL_RESULT_SUCCESS)
    return;
  if (cache.store(key, native).ok()) ++stats().stores; // a failure is the cache's to warn about, once
}

// Whether the device's driver keeps compiled kernels across processes itself
// (ZEAL_DEVICE_INFO_DRIVER_CACHES_KERNEL_CODE); an adapter of an older ABI
// that does not know the key answers no.
bool driver_caches_kernel_code(const DeviceImpl &device) {
  uint32_t caches = 0;
  const zeal_adapter_dispatch_t &d = device.adapter->dispatch;
  return d.deviceGetInfo(device.handle, ZEAL_DEVICE_INFO_DRIVER_CACHES_KERNEL_CODE, sizeof caches, &caches,
                         nullptr) == ZEAL_RESULT_SUCCESS &&
         caches != 0;
}

std::shared_ptr<ProgramImpl> compile_object(const std::shared_ptr<ContextImpl> &ctx, DeviceImpl *device,
                                            const ImageRef &image, const std::string &options,
                                            const SpecConstants &spec) {
  const zeal_adapter_dispatch_t &d = ctx->dispatch();
  const zeal_device_image_t &img = *image->image;
  // Native images are loaded as they are: caching their native binary would only copy them.
  // A driver that keeps each kernel's code itself (zeal's CPU driver) is left to it.
  bool persistent = settings().cache_persistent && img.format == ZEAL_PROGRAM_FORMAT_SPIRV &&
                    !driver_caches_kernel_code(*device);
  PersistentCache *cache = persistent ? &persistent_cache(*device) : nullptr;
  std::string key = persistent ? persistent_key(*image, options, spec) : std::string();
  if (cache != nullptr) {
    if (auto native = cache->load(key)) {
      if (auto cached_object = load_cached_object(ctx, device, image, options, *native)) {
        ++stats().hits;
        return cached_object;
      }
    } else {
      ++stats().misses;
    }
  }
  NamedMetadata metadata(*image);
  zeal_program_desc_t desc{img.format, img.bytes, img.size, static_cast<uint32_t>(metadata.entries.size()),
                           metadata.entries.data()};
  auto program = std::make_shared<ProgramImpl>();
  program->context = ctx.get();
  program->device = device;
  program->image = image;
  zeal_result_t r = d.programCreate(ctx->handle, device->handle, &desc, &program->handle);
  if (r != ZEAL_RESULT_SUCCESS) fail(d, r, fmt::format("device image {}", image->describe()), nullptr);
  for (const auto &[id, bytes] : spec) {
    r = d.programSetSpecConstant(program->handle, id, bytes.size(), bytes.data());
    if (r != ZEAL_RESULT_SUCCESS)
      fail(d, r, fmt::format("specialization constant {} of device image {}", id, image->describe()), nullptr);
  }
  r = d.programCompile(program->handle, options.empty() ? nullptr : options.c_str());
  if (r != ZEAL_RESULT_SUCCESS && img.format == ZEAL_PROGRAM_FORMAT_NATIVE)
    fail_native(d, r, *image, program->handle);
  if (r != ZEAL_RESULT_SUCCESS)
    fail(d, r,
         fmt::format("compiling device image {} for device '{}' failed", image->describe(), device->name),
         program->handle);
  logger("zeal").debug("compiled device image {} for '{}'", image->describe(), device->name);
  // This driver compiled the image at its creation (one that compiles lazily
  // caches its kernels itself), so its native binary costs nothing more.
  if (cache != nullptr) store_object(*program, *cache, key);
  return program;
}

std::shared_ptr<ProgramImpl> link_objects(const std::shared_ptr<ContextImpl> &ctx,
                                          const std::vector<std::shared_ptr<ProgramImpl>> &objects,
                                          const std::string &options) {
  const zeal_adapter_dispatch_t &d = ctx->dispatch();
  std::vector<zeal_program_handle_t> handles;
  std::string names;
  for (const auto &o : objects) {
    handles.push_back(o->handle);
    names += fmt::format("{}{}", names.empty() ? "" : ", ", o->image ? o->image->describe() : "(program)");
  }
  DeviceImpl *device = objects.front()->device;
  auto program = std::make_shared<ProgramImpl>();
  program->context = ctx.get();
  program->device = device;
  program->parts = objects;
  zeal_result_t r = d.programLink(ctx->handle, device->handle, static_cast<uint32_t>(handles.size()),
                                  handles.data(), options.empty() ? nullptr : options.c_str(), &program->handle);
  if (r != ZEAL_RESULT_SUCCESS)
    fail(d, r, fmt::format("linking device images {} for device '{}' failed", names, device->name),
         program->handle);
  return program;
}

} // namespace

PersistentCacheStats persistent_cache_stats() {
  return {stats().hits.load(), stats().misses.load(), stats().stores.load(), stats().rejected.load()};
}

std::string program_log(const zeal_adapter_dispatch_t &d, zeal_program_handle_t program) {
  size_t size = 0;
  if (d.programGetInfo(program, ZEAL_PROGRAM_INFO_BUILD_LOG, 0, nullptr, &size) != ZEAL_RESULT_SUCCESS || size == 0)
    return {};
  std::string log(size, '\0');
  if (d.programGetInfo(program, ZEAL_PROGRAM_INFO_BUILD_LOG, size, log.data(), nullptr) != ZEAL_RESULT_SUCCESS)
    return {};
  log.pop_back();
  return log;
}

std::shared_ptr<ProgramImpl> get_object(const std::shared_ptr<ContextImpl> &ctx, DeviceImpl *device,
                                        const ImageRef &image, const std::string &options,
                                        const SpecConstants &spec) {
  std::string key = fmt::format("device {}|image {}|options {}|spec {}", static_cast<const void *>(device), image->id,
                                options, spec_key(spec));
  return cached(*ctx, ctx->objects, key, [&] { return compile_object(ctx, device, image, options, spec); });
}

std::shared_ptr<ProgramImpl> get_executable(const std::shared_ptr<ContextImpl> &ctx,
                                            const std::vector<std::shared_ptr<ProgramImpl>> &objects,
                                            const std::string &options) {
  std::string key = "options " + options + "|objects";
  for (const auto &o : objects) key += fmt::format(" {}", static_cast<const void *>(o.get()));
  return cached(*ctx, ctx->executables, key, [&] { return link_objects(ctx, objects, options); });
}

std::shared_ptr<ProgramImpl> executable_for_kernel(const std::shared_ptr<ContextImpl> &ctx, DeviceImpl *device,
                                                   std::string_view name) {
  const ImageRegistry &registry = ImageRegistry::instance();
  ImageRef image = registry.find_kernel(name);
  if (!image)
    throw exception(errc::invalid, fmt::format("no registered device image has a kernel named '{}' ({})", name,
                                               registry.describe()),
                    ZEAL_RESULT_ERROR_INVALID_KERNEL_NAME);
  return executable_for_image(ctx, device, image);
}

std::shared_ptr<ProgramImpl> executable_for_image(const std::shared_ptr<ContextImpl> &ctx, DeviceImpl *device,
                                                  const ImageRef &image) {
  auto closure = resolve_imports({image}, {}, ImageRegistry::instance());
  if (!closure) throw exception(errc::build, closure.error().message, closure.error().code);
  std::vector<std::shared_ptr<ProgramImpl>> objects;
  for (const ImageRef &member : closure.value().images) objects.push_back(get_object(ctx, device, member, {}, {}));
  return get_executable(ctx, objects, {});
}

} // namespace zeal::detail
