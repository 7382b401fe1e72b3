// Object and executable programs from registered images, with the per-context in-memory caches.
#include "kernel_bundle/program_builder.hpp"

#include "common/log.hpp"

#include <fmt/format.h>

#include <future>

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

// Finds or makes the cache entry for `key`; the one caller that made it runs `build`.
template <class Build>
std::shared_ptr<ProgramImpl> cached(ContextImpl &ctx, std::map<std::string, ProgramFuture> &cache,
                                    const std::string &key, Build build) {
  std::promise<std::shared_ptr<ProgramImpl>> promise;
  ProgramFuture future;
  bool mine = false;
  {
    std::lock_guard lock(ctx.programs_mutex);
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

std::shared_ptr<ProgramImpl> compile_object(const std::shared_ptr<ContextImpl> &ctx, const ImageRef &image,
                                            const std::string &options, const SpecConstants &spec) {
  const zeal_adapter_dispatch_t &d = ctx->dispatch();
  const zeal_device_image_t &img = *image->image;
  zeal_program_desc_t desc{img.format, img.bytes, img.size, img.num_metadata, img.metadata};
  auto program = std::make_shared<ProgramImpl>();
  program->context = ctx.get();
  program->image = image;
  zeal_result_t r = d.programCreate(ctx->handle, ctx->device->handle, &desc, &program->handle);
  if (r != ZEAL_RESULT_SUCCESS) fail(d, r, fmt::format("device image {}", image->describe()), nullptr);
  for (const auto &[id, bytes] : spec) {
    r = d.programSetSpecConstant(program->handle, id, bytes.size(), bytes.data());
    if (r != ZEAL_RESULT_SUCCESS)
      fail(d, r, fmt::format("specialization constant {} of device image {}", id, image->describe()), nullptr);
  }
  r = d.programCompile(program->handle, options.empty() ? nullptr : options.c_str());
  if (r != ZEAL_RESULT_SUCCESS)
    fail(d, r,
         fmt::format("compiling device image {} for device '{}' failed", image->describe(), ctx->device->name),
         program->handle);
  logger("zeal").debug("compiled device image {} for '{}'", image->describe(), ctx->device->name);
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
  auto program = std::make_shared<ProgramImpl>();
  program->context = ctx.get();
  program->parts = objects;
  zeal_result_t r = d.programLink(ctx->handle, ctx->device->handle, static_cast<uint32_t>(handles.size()),
                                  handles.data(), options.empty() ? nullptr : options.c_str(), &program->handle);
  if (r != ZEAL_RESULT_SUCCESS)
    fail(d, r, fmt::format("linking device images {} for device '{}' failed", names, ctx->device->name),
         program->handle);
  return program;
}

} // namespace

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

std::shared_ptr<ProgramImpl> get_object(const std::shared_ptr<ContextImpl> &ctx, const ImageRef &image,
                                        const std::string &options, const SpecConstants &spec) {
  std::string key = fmt::format("image {}|options {}|spec {}", image->id, options, spec_key(spec));
  auto object = cached(*ctx, ctx->objects, key, [&] { return compile_object(ctx, image, options, spec); });
  return object;
}

std::shared_ptr<ProgramImpl> get_executable(const std::shared_ptr<ContextImpl> &ctx,
                                            const std::vector<std::shared_ptr<ProgramImpl>> &objects,
                                            const std::string &options) {
  std::string key = "options " + options + "|objects";
  for (const auto &o : objects) key += fmt::format(" {}", static_cast<const void *>(o.get()));
  return cached(*ctx, ctx->executables, key, [&] { return link_objects(ctx, objects, options); });
}

std::shared_ptr<ProgramImpl> executable_for_kernel(const std::shared_ptr<ContextImpl> &ctx, std::string_view name) {
  const ImageRegistry &registry = ImageRegistry::instance();
  ImageRef image = registry.find_kernel(name);
  if (!image)
    throw exception(errc::invalid, fmt::format("no registered device image has a kernel named '{}' ({})", name,
                                               registry.describe()),
                    ZEAL_RESULT_ERROR_INVALID_KERNEL_NAME);
  auto closure = resolve_imports({image}, {}, registry);
  if (!closure) throw exception(errc::build, closure.error().message, closure.error().code);
  std::vector<std::shared_ptr<ProgramImpl>> objects;
  for (const ImageRef &member : closure.value().images) objects.push_back(get_object(ctx, member, {}, {}));
  return get_executable(ctx, objects, {});
}

} // namespace zeal::detail
