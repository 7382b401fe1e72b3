// Kernel bundles as in SYCL 2020: device images in input, object or executable state, and their transitions.
#pragma once

#include <zeal/core.hpp>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace zeal {

enum class bundle_state { input, object, executable };

// What a device image holds: SPIR-V the driver compiles, or a native binary
// compiled ahead of time (zeal_add_device_code AOT) that the driver loads as it is.
enum class image_format { spirv, native };

namespace detail {
struct BundleImpl;
struct RegisteredImage;

std::shared_ptr<BundleImpl> get_bundle(const context &ctx, const std::vector<device> &devices,
                                       const std::vector<kernel_id> *ids, bundle_state state);
bool has_bundle(const context &ctx, const std::vector<device> &devices, const std::vector<kernel_id> *ids,
                bundle_state state);
std::shared_ptr<BundleImpl> compile_bundle(const std::shared_ptr<BundleImpl> &input, const std::string &options);
std::shared_ptr<BundleImpl> link_bundles(const std::vector<std::shared_ptr<BundleImpl>> &objects,
                                         const std::string &options);
std::shared_ptr<BundleImpl> build_bundle(const std::shared_ptr<BundleImpl> &input, const std::string &options);

bool bundle_has_kernel(const BundleImpl &b, const kernel_id &id);
std::vector<kernel_id> bundle_kernel_ids(const BundleImpl &b);
context bundle_context(const BundleImpl &b);
std::vector<device> bundle_devices(const BundleImpl &b);
kernel bundle_get_kernel(const BundleImpl &b, const kernel_id &id);
void bundle_set_spec_constant(BundleImpl &b, uint32_t id, const void *value, size_t size);
size_t bundle_num_images(const BundleImpl &b);
std::vector<std::shared_ptr<const RegisteredImage>> bundle_images(const BundleImpl &b);
} // namespace detail

// One device image of a bundle: its name, where it came from, its kernels.
class device_image {
public:
  std::string name() const;
  std::string origin() const; // the executable or shared library that registered it
  image_format format() const;
  std::vector<kernel_id> kernel_ids() const;
  bool has_kernel(const kernel_id &id) const;

  explicit device_image(std::shared_ptr<const detail::RegisteredImage> image) : image_(std::move(image)) {}

private:
  std::shared_ptr<const detail::RegisteredImage> image_;
};

template <bundle_state State>
class kernel_bundle {
public:
  bool empty() const { return detail::bundle_num_images(*impl_) == 0; }
  context get_context() const { return detail::bundle_context(*impl_); }
  std::vector<device> get_devices() const { return detail::bundle_devices(*impl_); }
  bool has_kernel(const kernel_id &id) const { return detail::bundle_has_kernel(*impl_, id); }
  std::vector<kernel_id> get_kernel_ids() const { return detail::bundle_kernel_ids(*impl_); }
  std::vector<device_image> images() const {
    std::vector<device_image> out;
    for (auto &image : detail::bundle_images(*impl_)) out.emplace_back(image);
    return out;
  }

  kernel get_kernel(const kernel_id &id) const
    requires(State == bundle_state::executable)
  {
    return detail::bundle_get_kernel(*impl_, id);
  }

  // A SPIR-V specialization constant by its SpecId, applied when the bundle is compiled or built.
  template <class T>
    requires(State == bundle_state::input && std::is_trivially_copyable_v<T>)
  void set_specialization_constant(uint32_t spec_id, const T &value) {
    detail::bundle_set_spec_constant(*impl_, spec_id, &value, sizeof(T));
  }

  explicit kernel_bundle(std::shared_ptr<detail::BundleImpl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<detail::BundleImpl> &impl() const { return impl_; }

private:
  std::shared_ptr<detail::BundleImpl> impl_;
};

// The images holding every kernel (or the given kernels) for the context's devices, in State.
// For executable, each image's imports are followed to the images exporting them.
template <bundle_state State>
kernel_bundle<State> get_kernel_bundle(const context &ctx, const std::vector<device> &devices) {
  return kernel_bundle<State>(detail::get_bundle(ctx, devices, nullptr, State));
}
template <bundle_state State>
kernel_bundle<State> get_kernel_bundle(const context &ctx, const std::vector<device> &devices,
                                       const std::vector<kernel_id> &ids) {
  return kernel_bundle<State>(detail::get_bundle(ctx, devices, &ids, State));
}
template <bundle_state State>
kernel_bundle<State> get_kernel_bundle(const context &ctx) {
  return get_kernel_bundle<State>(ctx, ctx.get_devices());
}

template <bundle_state State>
bool has_kernel_bundle(const context &ctx, const std::vector<device> &devices) {
  return detail::has_bundle(ctx, devices, nullptr, State);
}
template <bundle_state State>
bool has_kernel_bundle(const context &ctx, const std::vector<device> &devices, const std::vector<kernel_id> &ids) {
  return detail::has_bundle(ctx, devices, &ids, State);
}

// Whether every kernel can run on the device (required sub-group sizes, capabilities).
bool is_compatible(const std::vector<kernel_id> &ids, const device &dev);

inline kernel_bundle<bundle_state::object> compile(const kernel_bundle<bundle_state::input> &input,
                                                   const std::string &options = {}) {
  return kernel_bundle<bundle_state::object>(detail::compile_bundle(input.impl(), options));
}

inline kernel_bundle<bundle_state::executable> link(const std::vector<kernel_bundle<bundle_state::object>> &objects,
                                                    const std::string &options = {}) {
  std::vector<std::shared_ptr<detail::BundleImpl>> impls;
  for (const auto &o : objects) impls.push_back(o.impl());
  return kernel_bundle<bundle_state::executable>(detail::link_bundles(impls, options));
}
inline kernel_bundle<bundle_state::executable> link(const kernel_bundle<bundle_state::object> &object,
                                                    const std::string &options = {}) {
  return link(std::vector<kernel_bundle<bundle_state::object>>{object}, options);
}

inline kernel_bundle<bundle_state::executable> build(const kernel_bundle<bundle_state::input> &input,
                                                     const std::string &options = {}) {
  return kernel_bundle<bundle_state::executable>(detail::build_bundle(input.impl(), options));
}

} // namespace zeal
