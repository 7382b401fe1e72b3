// Device addresses of exported device functions, for kernels to call through across libraries.
#include "kernel_bundle/detail.hpp"
#include "kernel_bundle/image_registry.hpp"
#include "kernel_bundle/program_builder.hpp"
#include "kernel_bundle/resolver.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace zeal {
namespace detail {
namespace {

bool is_kernel_of(const RegisteredImage &image, std::string_view name) {
  return std::find(image.kernels.begin(), image.kernels.end(), name) != image.kernels.end();
}

// The first registered image exporting `name` as a function: with no importer to
// prefer, this is the resolver's last rule, so every caller gets the same image.
ImageRef function_provider(std::string_view name) {
  const ImageRegistry &registry = ImageRegistry::instance();
  std::vector<ImageRef> exporters = registry.find_exporters(name);
  auto function = std::find_if(exporters.begin(), exporters.end(),
                               [&](const ImageRef &image) { return !is_kernel_of(*image, name); });
  if (function != exporters.end()) return *function;
  std::string searched = fmt::format("{}", fmt::join(registry.origins(), ", "));
  if (!exporters.empty())
    throw exception(errc::invalid,
                    fmt::format("'{}' is a kernel of image {}, not a device function: kernels cannot be called "
                                "through a pointer (libraries searched: {})",
                                name, exporters.front()->describe(), searched),
                    ZEAL_RESULT_ERROR_INVALID_FUNCTION_NAME);
  throw exception(errc::invalid,
                  fmt::format("no registered device image exports a device function named '{}' (libraries "
                              "searched: {})",
                              name, searched.empty() ? std::string("none") : searched),
                  ZEAL_RESULT_ERROR_INVALID_FUNCTION_NAME);
}

} // namespace
} // namespace detail

device_function_ptr get_device_function_pointer(const context &ctx, const device &dev, std::string_view name) {
  const auto &impl = ctx.impl();
  impl->expect(dev.impl(), "the device function pointer");
  auto image = detail::function_provider(name);
  // The context's executable cache holds the program until the context goes, which
  // is what keeps the address valid for every kernel of that context.
  auto program = detail::executable_for_image(impl, dev.impl(), image);
  const zeal_adapter_dispatch_t &d = impl->dispatch();
  void *address = nullptr;
  detail::check(d, d.programGetFunctionPointer(program->handle, std::string(name).c_str(), &address));
  return reinterpret_cast<device_function_ptr>(address);
}

device_function_ptr get_device_function_pointer(const queue &q, std::string_view name) {
  return get_device_function_pointer(q.get_context(), q.get_device(), name);
}

} // namespace zeal
