// kernel_bundle: images in input, object or executable state, and compile, link and build between them.
#include "kernel_bundle/detail.hpp"
#include "kernel_bundle/program_builder.hpp"

#include <zeal/kernel_bundle.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace zeal {
namespace detail {

// A bundle's programs are built for each of its devices: object bundles hold every
// image's object for each device, executable bundles one linked program per device.
struct BundleImpl {
  std::shared_ptr<ContextImpl> context;
  std::vector<DeviceImpl *> devices;              // some of the context's, at least one
  bundle_state state = bundle_state::input;
  std::vector<ImageRef> images;                   // input, executable: the images asked for
  SpecConstants spec_constants;                   // input: applied at compile or build
  // object: objects[d] holds devices[d]'s objects, one per image, in the same order for each device
  std::vector<std::vector<std::shared_ptr<ProgramImpl>>> objects;
  std::vector<std::shared_ptr<ProgramImpl>> executables; // executable: one per device, in order
};

namespace {

std::vector<DeviceImpl *> bundle_devices_of(const context &ctx, const std::vector<device> &devices) {
  if (devices.empty()) throw exception(errc::invalid, "a kernel bundle needs at least one device");
  std::vector<DeviceImpl *> out;
  for (const device &dev : devices) {
    ctx.impl()->expect(dev.impl(), "the kernel bundle");
    if (std::find(out.begin(), out.end(), dev.impl()) == out.end()) out.push_back(dev.impl());
  }
  return out;
}

std::vector<ImageRef> images_for(const std::vector<kernel_id> *ids) {
  const ImageRegistry &registry = ImageRegistry::instance();
  std::vector<ImageRef> images;
  auto add = [&](const ImageRef &image) {
    if (std::find(images.begin(), images.end(), image) == images.end()) images.push_back(image);
  };
  if (ids == nullptr) {
    for (const std::string &name : registry.kernel_names()) add(registry.find_kernel(name));
    return images;
  }
  for (const kernel_id &id : *ids) {
    ImageRef image = registry.find_kernel(id.get_name());
    if (!image)
      throw exception(errc::invalid, fmt::format("no registered device image has a kernel named '{}' ({})",
                                                 id.get_name(), registry.describe()));
    add(image);
  }
  return images;
}

std::shared_ptr<BundleImpl> make_input(const context &ctx, std::vector<DeviceImpl *> devices,
                                       std::vector<ImageRef> images) {
  auto b = std::make_shared<BundleImpl>();
  b->context = ctx.impl();
  b->devices = std::move(devices);
  b->images = std::move(images);
  return b;
}

void expect_state(const BundleImpl &b, bundle_state state, const char *operation) {
  static constexpr const char *names[] = {"input", "object", "executable"};
  if (b.state != state)
    throw exception(errc::invalid, fmt::format("{} needs a bundle in {} state, not {}", operation,
                                               names[static_cast<int>(state)], names[static_cast<int>(b.state)]));
}

// Every image an object bundle's programs came from (each device has the same).
std::vector<ImageRef> object_images(const BundleImpl &b) {
  std::vector<ImageRef> out;
  for (const auto &o : b.objects.front()) out.push_back(o->image);
  return out;
}


} // namespace

std::shared_ptr<BundleImpl> get_bundle(const context &ctx, const std::vector<device> &devices,
                                       const std::vector<kernel_id> *ids, bundle_state state) {
  auto input = make_input(ctx, bundle_devices_of(ctx, devices), images_for(ids));
  if (state == bundle_state::input) return input;
  if (state == bundle_state::object) return compile_bundle(input, {});
  return build_bundle(input, {});
}

bool has_bundle(const context &ctx, const std::vector<device> &devices, const std::vector<kernel_id> *ids,
                bundle_state) {
  (void)bundle_devices_of(ctx, devices);
  const ImageRegistry &registry = ImageRegistry::instance();
  if (ids == nullptr) return !registry.kernel_names().empty();
  return std::all_of(ids->begin(), ids->end(), [&](const kernel_id &id) { return registry.find_kernel(id.get_name()) != nullptr; });
}

std::shared_ptr<BundleImpl> compile_bundle(const std::shared_ptr<BundleImpl> &input, const std::string &options) {
  expect_state(*input, bundle_state::input, "compile");
  auto b = std::make_shared<BundleImpl>();
  b->context = input->context;
  b->devices = input->devices;
  b->state = bundle_state::object;
  for (DeviceImpl *device : input->devices) {
    auto &objects = b->objects.emplace_back();
    for (const ImageRef &image : input->images)
      objects.push_back(get_object(input->context, device, image, options, input->spec_constants));
  }
  return b;
}

std::shared_ptr<BundleImpl> link_bundles(const std::vector<std::shared_ptr<BundleImpl>> &objects,
                                         const std::string &options) {
  if (objects.empty()) throw exception(errc::invalid, "link needs at least one object bundle");
  const std::vector<DeviceImpl *> &devices = objects.front()->devices;
  for (const auto &o : objects) {
    expect_state(*o, bundle_state::object, "link");
    if (o->context != objects.front()->context)
      throw exception(errc::invalid, "link needs object bundles of one context");
    // Each device's executable links every bundle's objects for that device.
    if (o->devices.size() != devices.size() ||
        !std::is_permutation(o->devices.begin(), o->devices.end(), devices.begin()))
      throw exception(errc::invalid, fmt::format("link needs object bundles of the same devices: one was compiled "
                                                 "for {}, another for {}",
                                                 describe_devices(devices), describe_devices(o->devices)));
  }
  auto ctx = objects.front()->context;
  auto b = std::make_shared<BundleImpl>();
  b->context = ctx;
  b->devices = devices;
  b->state = bundle_state::executable;
  for (DeviceImpl *device : devices) {
    std::vector<ImageRef> roots;
    std::vector<std::shared_ptr<ProgramImpl>> programs;
    for (const auto &o : objects) {
      size_t d = std::find(o->devices.begin(), o->devices.end(), device) - o->devices.begin();
      for (const auto &p : o->objects[d])
        if (std::find(programs.begin(), programs.end(), p) == programs.end()) {
          programs.push_back(p);
          roots.push_back(p->image);
        }
    }
    // Imports the bundles do not provide come from the registered images, compiled on demand.
    auto closure = resolve_imports(roots, {}, ImageRegistry::instance());
    if (!closure) throw exception(errc::build, closure.error().message, closure.error().code);
    for (const ImageRef &image : closure.value().images)
      if (std::find(roots.begin(), roots.end(), image) == roots.end())
        programs.push_back(get_object(ctx, device, image, {}, {}));
    b->images = roots;
    b->executables.push_back(get_executable(ctx, programs, options));
  }
  return b;
}

std::shared_ptr<BundleImpl> build_bundle(const std::shared_ptr<BundleImpl> &input, const std::string &options) {
  auto objects = compile_bundle(input, options);
  auto exe = link_bundles({objects}, {});
  exe->images = input->images;
  return exe;
}

bool bundle_has_kernel(const BundleImpl &b, const kernel_id &id) {
  auto images = b.state == bundle_state::object ? object_images(b) : b.images;
  return std::any_of(images.begin(), images.end(), [&](const ImageRef &image) {
    return std::find(image->kernels.begin(), image->kernels.end(), id.get_name()) != image->kernels.end();
  });
}

std::vector<kernel_id> bundle_kernel_ids(const BundleImpl &b) {
  std::vector<kernel_id> out;
  for (const ImageRef &image : b.state == bundle_state::object ? object_images(b) : b.images)
    for (const std::string &k : image->kernels) out.emplace_back(k);
  return out;
}

context bundle_context(const BundleImpl &b) { return context(b.context); }
std::vector<device> bundle_devices(const BundleImpl &b) { return to_devices(b.devices); }

kernel bundle_get_kernel(const BundleImpl &b, const kernel_id &id) {
  if (!bundle_has_kernel(b, id))
    throw exception(errc::invalid, fmt::format("the kernel bundle has no kernel '{}'", id.get_name()),
                    ZEAL_RESULT_ERROR_INVALID_KERNEL_NAME);
  return kernel(kernel_of(b.context, b.executables, id.get_name()));
}

void bundle_set_spec_constant(BundleImpl &b, uint32_t id, const void *value, size_t size) {
  const auto *bytes = static_cast<const uint8_t *>(value);
  b.spec_constants[id].assign(bytes, bytes + size);
}

size_t bundle_num_images(const BundleImpl &b) {
  return b.state == bundle_state::object ? b.objects.front().size() : b.images.size();
}

std::vector<std::shared_ptr<const RegisteredImage>> bundle_images(const BundleImpl &b) {
  return b.state == bundle_state::object ? object_images(b) : b.images;
}

} // namespace detail

std::string device_image::name() const { return image_->image->name; }
std::string device_image::origin() const { return image_->origin; }
image_format device_image::format() const {
  return image_->image->format == ZEAL_PROGRAM_FORMAT_NATIVE ? image_format::native : image_format::spirv;
}
std::vector<kernel_id> device_image::kernel_ids() const {
  std::vector<kernel_id> out;
  for (const std::string &k : image_->kernels) out.emplace_back(k);
  return out;
}
bool device_image::has_kernel(const kernel_id &id) const {
  return std::find(image_->kernels.begin(), image_->kernels.end(), id.get_name()) != image_->kernels.end();
}

bool is_compatible(const std::vector<kernel_id> &ids, const device &dev) {
  // A kernel is compatible when the device supports its required sub-group size;
  // the adapter answers that from the image's SPIR-V once the program is built.
  context ctx(dev);
  try {
    for (const kernel_id &id : ids) {
      auto k = detail::get_kernel(ctx.impl(), dev.impl(), id.get_name());
      const zeal_adapter_dispatch_t &d = dev.dispatch();
      uint32_t required = 0;
      detail::check(d, d.kernelGetSubGroupInfo(k->builds.front().handle, dev.native_handle(),
                                               ZEAL_KERNEL_SUB_GROUP_INFO_COMPILE_SUB_GROUP_SIZE, nullptr,
                                               sizeof(required), &required, nullptr));
      auto sizes = dev.sub_group_sizes();
      if (required != 0 && std::find(sizes.begin(), sizes.end(), required) == sizes.end()) return false;
    }
  } catch (const exception &e) {
    if (e.code() == errc::invalid) throw;
    return false;
  }
  return true;
}

} // namespace zeal
