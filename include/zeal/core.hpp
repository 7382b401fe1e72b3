// zeal's C++ API core, modelled on SYCL 2020: devices, contexts, queues, USM, kernels (kernel bundles build on it).
#pragma once

#include <zeal/exception.hpp>
#include <zeal/range.hpp>
#include <zeal/zeal_adapter.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace zeal {

namespace detail {
struct LoadedAdapter;
struct DeviceImpl;
struct ContextImpl;
struct QueueImpl;
struct KernelImpl;
struct EventImpl;
struct ImageImpl;
struct SamplerImpl;
} // namespace detail

enum class device_type { cpu, gpu, accelerator, fpga, all };

// Whether a list of devices honours ONEAPI_DEVICE_SELECTOR.
enum class selector_policy {
  apply,  // only the devices the selector lets through; a malformed selector is errc::invalid
  // Every device of every adapter found, as if the selector were unset, for tools that
  // show what the selector chooses from. Adapters the selector spared the process are
  // loaded now, once; the environment is neither read again nor changed, and lists that
  // apply the selector stay as they were.
  ignore,
};

// The ONEAPI_DEVICE_SELECTOR that device lists apply, as zeal read it on first use; nullopt when unset.
std::optional<std::string> active_device_selector();

// A platform: one driver of one backend, as its adapter reports it.
class platform {
public:
  std::string name() const;
  std::string vendor() const;
  std::string driver_version() const;
  std::string backend_version() const; // the backend's API version, e.g. "1.4" for Level Zero
  // Any string query of the C ABI.
  std::string info_string(zeal_platform_info_t key) const;

  zeal_platform_handle_t native_handle() const { return handle_; }

  bool operator==(const platform &other) const { return adapter_ == other.adapter_ && handle_ == other.handle_; }

  platform(const detail::LoadedAdapter *adapter, zeal_platform_handle_t handle) : adapter_(adapter), handle_(handle) {}

private:
  const detail::LoadedAdapter *adapter_;
  zeal_platform_handle_t handle_;
};

class device {
public:
  // The default device, among those the selector lets through: the first GPU if there is one, else the CPU.
  device();
  static std::vector<device> get_devices(device_type type = device_type::all,
                                         selector_policy policy = selector_policy::apply);

  std::string name() const;
  std::string vendor() const;
  std::string driver_version() const;
  std::string backend() const; // "level_zero"
  device_type type() const;
  bool is_cpu() const { return type() == device_type::cpu; }
  bool is_gpu() const { return type() == device_type::gpu; }
  std::vector<uint32_t> sub_group_sizes() const;
  size_t max_work_group_size() const;
  // Whether kernels on it take images and samplers (class image, class sampler).
  bool image_support() const;
  // Its position among the devices of its backend, as ONEAPI_DEVICE_SELECTOR counts.
  uint32_t index() const;
  platform get_platform() const;

  // Any device query of the C ABI: a fixed-size value, a string, or an array.
  template <class T>
    requires std::is_trivially_copyable_v<T>
  T info(zeal_device_info_t key) const {
    T value{};
    info_bytes(key, sizeof(T), &value);
    return value;
  }
  std::string info_string(zeal_device_info_t key) const;
  template <class T>
  std::vector<T> info_array(zeal_device_info_t key) const {
    std::vector<T> values(info_size(key) / sizeof(T));
    info_bytes(key, values.size() * sizeof(T), values.data());
    return values;
  }

  // The adapter-level handle and dispatch table, for code that talks to the C ABI.
  zeal_device_handle_t native_handle() const;
  const zeal_adapter_dispatch_t &dispatch() const;

  bool operator==(const device &other) const { return impl_ == other.impl_; }

  explicit device(detail::DeviceImpl *impl) : impl_(impl) {}
  detail::DeviceImpl *impl() const { return impl_; }

private:
  void info_bytes(zeal_device_info_t key, size_t size, void *value) const;
  size_t info_size(zeal_device_info_t key) const;

  detail::DeviceImpl *impl_;
};

// A context over one device, or over several devices of one platform: memory allocated
// in it is usable by all of them, and kernel bundles of the context build for any of
// them (a kernel of a multi-device bundle launches on a queue of each).
class context {
public:
  explicit context(const device &dev);
  // Repeats are dropped; no device, or devices of different platforms, is errc::invalid.
  explicit context(const std::vector<device> &devices);
  device get_device() const; // the first of its devices
  std::vector<device> get_devices() const;
  zeal_context_handle_t native_handle() const;

  explicit context(std::shared_ptr<detail::ContextImpl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<detail::ContextImpl> &impl() const { return impl_; }

private:
  std::shared_ptr<detail::ContextImpl> impl_;
};

class event {
public:
  event() = default;
  void wait();
  bool is_complete() const;

  explicit event(std::shared_ptr<detail::EventImpl> impl) : impl_(std::move(impl)) {}

private:
  std::shared_ptr<detail::EventImpl> impl_;
};

// An identifier of a kernel in the device images registered with zeal.
class kernel_id {
public:
  const char *get_name() const { return name_.c_str(); }
  bool operator==(const kernel_id &other) const { return name_ == other.name_; }
  explicit kernel_id(std::string name) : name_(std::move(name)) {}

private:
  std::string name_;
};

// The kernel_id of a kernel in a registered image; errc::invalid if none has it.
kernel_id get_kernel_id(std::string_view name);
// Every kernel of every registered image.
std::vector<kernel_id> get_kernel_ids();

class kernel {
public:
  std::string name() const;
  uint32_t num_args() const;
  // The sub-group size the kernel was compiled for (intel_reqd_sub_group_size), 0 if none.
  uint32_t compile_sub_group_size() const;
  explicit kernel(std::shared_ptr<detail::KernelImpl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<detail::KernelImpl> &impl() const { return impl_; }

private:
  std::shared_ptr<detail::KernelImpl> impl_;
};

// A kernel argument of local memory: `bytes` per work-group.
struct local_memory {
  size_t bytes;
};

// An image of a context, as OpenCL C kernels take it (image1d_t ... image3d_t, arrays): its pixels live on the
// context's device, written and read with queue::copy_to_image and copy_from_image. Passed to
// queue::parallel_for as a kernel argument. An unsupported format is errc::feature_not_supported; a device without
// images (device::image_support() false) too.
class image {
public:
  image(const context &ctx, const zeal_image_desc_t &desc);
  const zeal_image_desc_t &desc() const;
  zeal_image_handle_t native_handle() const;

  explicit image(std::shared_ptr<detail::ImageImpl> impl) : impl_(std::move(impl)) {}

private:
  std::shared_ptr<detail::ImageImpl> impl_;
};

// A sampler of a context (OpenCL C's sampler_t): addressing, filtering, normalized coordinates. Passed to
// queue::parallel_for as a kernel argument.
class sampler {
public:
  sampler(const context &ctx, const zeal_sampler_desc_t &desc);
  zeal_sampler_handle_t native_handle() const;

  explicit sampler(std::shared_ptr<detail::SamplerImpl> impl) : impl_(std::move(impl)) {}

private:
  std::shared_ptr<detail::SamplerImpl> impl_;
};

namespace property::queue {
struct in_order {};
} // namespace property::queue

class queue {
public:
  queue();
  explicit queue(const device &dev);
  queue(const device &dev, property::queue::in_order);
  queue(const context &ctx, const device &dev, bool in_order = false);

  device get_device() const;
  context get_context() const;

  // The kernel with this id, built for this queue's device and context.
  // (A kernel of a multi-device kernel bundle runs on a queue of any of the bundle's devices.)
  kernel get_kernel(const kernel_id &id) const;

  template <int Dims, class... Args>
  event parallel_for(const nd_range<Dims> &ndr, const kernel &k, const Args &...args) {
    return launch(Dims, ndr.get_global_range(), ndr.get_local_range(), k, args...);
  }
  template <int Dims, class... Args>
  event parallel_for(const range<Dims> &global, const kernel &k, const Args &...args) {
    return launch(Dims, global, range<Dims>{}, k, args...);
  }
  template <class Range, class... Args>
  event parallel_for(const Range &r, const kernel_id &id, const Args &...args) {
    return parallel_for(r, get_kernel(id), args...);
  }

  event memcpy(void *dst, const void *src, size_t bytes);
  event fill(void *ptr, const void *pattern, size_t pattern_size, size_t bytes);
  template <class T>
  event fill(T *ptr, const T &value, size_t count) {
    return fill(ptr, &value, sizeof(T), count * sizeof(T));
  }
  // Host pixels, packed, into the whole image, and back (the host's memory must stay until the event completes).
  event copy_to_image(const image &dst, const void *src);
  event copy_from_image(void *dst, const image &src);
  void wait();

  const std::shared_ptr<detail::QueueImpl> &impl() const { return impl_; }

private:
  template <int Dims, class... Args>
  event launch(uint32_t dims, const range<Dims> &global, const range<Dims> &local, const kernel &k,
               const Args &...args) {
    zeal_launch_desc_t desc{};
    desc.work_dim = dims;
    for (int d = 0; d < Dims; ++d) {
      desc.global_size[d] = global[d];
      desc.local_size[d] = local[d];
    }
    for (int d = Dims; d < 3; ++d) desc.global_size[d] = desc.local_size[d] = 1;
    if (local.size() == 0)
      for (size_t &l : desc.local_size) l = 0;
    std::array<zeal_kernel_arg_t, sizeof...(Args)> packed{};
    uint32_t index = 0;
    ((packed[index] = make_arg(index, args), ++index), ...);
    desc.num_args = static_cast<uint32_t>(packed.size());
    desc.args = packed.data();
    return submit(k, desc);
  }

  template <class T>
  static zeal_kernel_arg_t make_arg(uint32_t index, const T &arg) {
    if constexpr (std::is_same_v<T, local_memory>) {
      return {index, ZEAL_KERNEL_ARG_LOCAL, arg.bytes, nullptr};
    } else if constexpr (std::is_same_v<T, image>) {
      return {index, ZEAL_KERNEL_ARG_IMAGE, sizeof(void *), arg.native_handle()};
    } else if constexpr (std::is_same_v<T, sampler>) {
      return {index, ZEAL_KERNEL_ARG_SAMPLER, sizeof(void *), arg.native_handle()};
    } else if constexpr (std::is_pointer_v<T> || std::is_null_pointer_v<T>) {
      return {index, ZEAL_KERNEL_ARG_USM_POINTER, sizeof(void *), static_cast<const void *>(arg)};
    } else {
      static_assert(std::is_trivially_copyable_v<T>, "kernel arguments must be trivially copyable");
      return {index, ZEAL_KERNEL_ARG_VALUE, sizeof(T), &arg};
    }
  }

  event submit(const kernel &k, const zeal_launch_desc_t &desc);

  std::shared_ptr<detail::QueueImpl> impl_;
};

// The device address of a device function, passed by value as a kernel argument and
// called through in device code (OpenCL C function pointers, SPV_INTEL_function_pointers).
using device_function_ptr = uint64_t;

// The address of the device function `name` exported by a registered image (of the
// executable or of any loaded library), for kernels of the context that run on `dev`. The image is
// the first registered that exports `name`; it is built as its kernels are, its imports
// resolved across libraries, so a kernel of the same image calls the very program it runs
// in. The address stays valid while the context lives: the context keeps every program it
// built, even once the library that registered the image is unloaded. An unknown name, or
// the name of a kernel, is errc::invalid naming the libraries searched; an import of the
// image that no library exports is errc::build.
device_function_ptr get_device_function_pointer(const context &ctx, const device &dev, std::string_view name);
device_function_ptr get_device_function_pointer(const queue &q, std::string_view name);

// Unified shared memory, as in SYCL 2020.
void *malloc_device(size_t bytes, const queue &q, size_t alignment = 0);
void *malloc_host(size_t bytes, const queue &q, size_t alignment = 0);
void *malloc_shared(size_t bytes, const queue &q, size_t alignment = 0);
void free(void *ptr, const queue &q);

template <class T>
T *malloc_device(size_t count, const queue &q) {
  return static_cast<T *>(malloc_device(count * sizeof(T), q, alignof(T)));
}
template <class T>
T *malloc_host(size_t count, const queue &q) {
  return static_cast<T *>(malloc_host(count * sizeof(T), q, alignof(T)));
}
template <class T>
T *malloc_shared(size_t count, const queue &q) {
  return static_cast<T *>(malloc_shared(count * sizeof(T), q, alignof(T)));
}

} // namespace zeal
