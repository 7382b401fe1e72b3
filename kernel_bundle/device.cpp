// zeal::device, zeal::platform and zeal::context over the loader's devices and the adapter's contexts.
#include "kernel_bundle/detail.hpp"

#include "common/log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>

namespace zeal {
namespace detail {

void check(const zeal_adapter_dispatch_t &d, zeal_result_t r) {
  if (r == ZEAL_RESULT_SUCCESS) return;
  throw exception(to_errc(r), d.getLastErrorMessage(), r);
}

ContextImpl::~ContextImpl() {
  resolved.clear();
  executables.clear();
  objects.clear();
  if (handle != nullptr) (void)dispatch().contextRelease(handle);
}

bool ContextImpl::has(const DeviceImpl *device) const {
  return std::find(devices.begin(), devices.end(), device) != devices.end();
}

std::vector<device> to_devices(const std::vector<DeviceImpl *> &impls) {
  std::vector<device> out;
  for (DeviceImpl *d : impls) out.emplace_back(d);
  return out;
}

std::string describe_devices(const std::vector<DeviceImpl *> &devices) {
  std::string names;
  for (const DeviceImpl *d : devices) names += fmt::format("{}'{}'", names.empty() ? "" : ", ", d->name);
  return names;
}

void ContextImpl::expect(const DeviceImpl *device, std::string_view use) const {
  if (!has(device))
    throw exception(errc::invalid, fmt::format("device '{}' is not a device of the context given for {} (the "
                                               "context holds {})",
                                               device->name, use, describe_devices(devices)));
}

std::shared_ptr<ContextImpl> create_context(const std::vector<DeviceImpl *> &devices) {
  if (devices.empty()) throw exception(errc::invalid, "a context needs at least one device");
  auto ctx = std::make_shared<ContextImpl>();
  for (DeviceImpl *device : devices) {
    if (device->adapter != devices.front()->adapter || device->platform != devices.front()->platform)
      throw exception(errc::invalid, fmt::format("devices '{}' and '{}' belong to different platforms: a context "
                                                 "holds devices of one platform",
                                                 devices.front()->name, device->name));
    if (!ctx->has(device)) ctx->devices.push_back(device);
  }
  std::vector<zeal_device_handle_t> handles;
  for (const DeviceImpl *device : ctx->devices) handles.push_back(device->handle);
  check(ctx->dispatch(),
        ctx->dispatch().contextCreate(static_cast<uint32_t>(handles.size()), handles.data(), &ctx->handle));
  return ctx;
}

// The runtime's own table of default contexts (the loader's devices know nothing of contexts), kept for the
// life of the process like the devices themselves. A failed creation is not remembered: the next call tries again.
std::shared_ptr<ContextImpl> default_context(DeviceImpl *device) {
  static auto *mutex = new std::mutex();
  static auto *contexts = new std::map<const DeviceImpl *, std::shared_ptr<ContextImpl>>();
  std::lock_guard lock(*mutex);
  std::shared_ptr<ContextImpl> &context = (*contexts)[device];
  if (!context) context = create_context({device});
  return context;
}

namespace {

device_type to_device_type(zeal_device_type_t t) {
  switch (t) {
  case ZEAL_DEVICE_TYPE_CPU: return device_type::cpu;
  case ZEAL_DEVICE_TYPE_GPU: return device_type::gpu;
  case ZEAL_DEVICE_TYPE_FPGA: return device_type::fpga;
  case ZEAL_DEVICE_TYPE_ACCELERATOR: return device_type::accelerator;
  default: return device_type::all;
  }
}

std::vector<DeviceImpl *> selected_devices() {
  auto visible = visible_devices();
  if (!visible) throw exception(errc::invalid, visible.error().message, visible.error().code);
  return std::move(visible).value();
}

DeviceImpl *default_device_impl() {
  const auto all = selected_devices();
  if (all.empty() && settings().device_selector_set)
    throw exception(errc::platform,
                    fmt::format("no device matches ONEAPI_DEVICE_SELECTOR='{}' ({} device(s) found in all)",
                                settings().device_selector, devices(AdapterScope::selected).size()),
                    ZEAL_RESULT_ERROR_UNINITIALIZED);
  if (all.empty())
    throw exception(errc::platform, "no device is available: no zeal adapter loaded or no adapter found a device "
                                    "(set ZEAL_LOG_LEVEL=info to see where zeal looked)",
                    ZEAL_RESULT_ERROR_UNINITIALIZED);
  for (DeviceImpl *dev : all)
    if (dev->type == ZEAL_DEVICE_TYPE_GPU) return dev;
  for (DeviceImpl *dev : all)
    if (dev->type == ZEAL_DEVICE_TYPE_CPU) return dev;
  return all.front();
}

} // namespace
} // namespace detail

device::device() : impl_(detail::default_device_impl()) {}

std::vector<device> device::get_devices(device_type type, selector_policy policy) {
  std::vector<device> out;
  const auto candidates = policy == selector_policy::ignore ? detail::devices(detail::AdapterScope::all)
                                                            : detail::selected_devices();
  for (detail::DeviceImpl *dev : candidates)
    if (type == device_type::all || detail::to_device_type(dev->type) == type) out.emplace_back(dev);
  return out;
}

std::optional<std::string> active_device_selector() {
  if (!settings().device_selector_set) return std::nullopt;
  return settings().device_selector;
}

std::string device::name() const { return impl_->name; }
std::string device::vendor() const { return info_string(ZEAL_DEVICE_INFO_VENDOR); }
std::string device::driver_version() const { return info_string(ZEAL_DEVICE_INFO_DRIVER_VERSION); }
uint32_t device::index() const { return impl_->index; }
platform device::get_platform() const { return platform(impl_->adapter, impl_->platform); }

void device::info_bytes(zeal_device_info_t key, size_t size, void *value) const {
  detail::check(dispatch(), dispatch().deviceGetInfo(impl_->handle, key, size, value, nullptr));
}

size_t device::info_size(zeal_device_info_t key) const {
  size_t size = 0;
  detail::check(dispatch(), dispatch().deviceGetInfo(impl_->handle, key, 0, nullptr, &size));
  return size;
}

std::string device::info_string(zeal_device_info_t key) const {
  std::string value(info_size(key), '\0');
  info_bytes(key, value.size(), value.data());
  if (!value.empty()) value.pop_back(); // the NUL
  return value;
}
std::string device::backend() const { return impl_->adapter->backend; }
device_type device::type() const { return detail::to_device_type(impl_->type); }

std::vector<uint32_t> device::sub_group_sizes() const {
  return info_array<uint32_t>(ZEAL_DEVICE_INFO_SUB_GROUP_SIZES);
}

size_t device::max_work_group_size() const { return info<size_t>(ZEAL_DEVICE_INFO_MAX_WORK_GROUP_SIZE); }
bool device::image_support() const { return info<uint32_t>(ZEAL_DEVICE_INFO_IMAGE_SUPPORT) != 0; }

zeal_device_handle_t device::native_handle() const { return impl_->handle; }
const zeal_adapter_dispatch_t &device::dispatch() const { return impl_->adapter->dispatch; }

std::string platform::name() const { return info_string(ZEAL_PLATFORM_INFO_NAME); }
std::string platform::vendor() const { return info_string(ZEAL_PLATFORM_INFO_VENDOR); }
std::string platform::driver_version() const { return info_string(ZEAL_PLATFORM_INFO_VERSION); }
std::string platform::backend_version() const { return info_string(ZEAL_PLATFORM_INFO_BACKEND_VERSION); }

std::string platform::info_string(zeal_platform_info_t key) const {
  const zeal_adapter_dispatch_t &d = adapter_->dispatch;
  size_t size = 0;
  detail::check(d, d.platformGetInfo(handle_, key, 0, nullptr, &size));
  std::string value(size, '\0');
  detail::check(d, d.platformGetInfo(handle_, key, size, value.data(), nullptr));
  if (!value.empty()) value.pop_back(); // the NUL
  return value;
}

context::context(const device &dev) : impl_(detail::create_context({dev.impl()})) {}
context::context(const std::vector<device> &devices) : impl_(detail::create_context([&] {
  std::vector<detail::DeviceImpl *> impls;
  for (const device &d : devices) impls.push_back(d.impl());
  return impls;
}())) {}
device context::get_device() const { return device(impl_->devices.front()); }
std::vector<device> context::get_devices() const { return detail::to_devices(impl_->devices); }
zeal_context_handle_t context::native_handle() const { return impl_->handle; }

} // namespace zeal
