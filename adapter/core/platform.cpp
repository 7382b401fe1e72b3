// Platforms: a Level Zero driver, its devices and its info table.
#include "adapter/core/platform.hpp"

#include <algorithm>

namespace zeal::adapter {

Result<std::unique_ptr<Platform>> Platform::create(ze_driver_handle_t driver) {
  std::unique_ptr<Platform> p(new Platform(driver));
  if (Status s = p->query(); !s.ok()) return std::move(s).error();
  return p;
}

Status Platform::query() {
  if (Status s = ze_check(zeDriverGetProperties(driver_, &props_), "zeDriverGetProperties"); !s.ok()) return s;
  if (Status s = ze_check(zeDriverGetApiVersion(driver_, &api_version_), "zeDriverGetApiVersion"); !s.ok()) return s;
  uint32_t listed = 0;
  if (Status s = ze_check(zeDriverGetExtensionProperties(driver_, &listed, nullptr), "zeDriverGetExtensionProperties");
      !s.ok())
    return s;
  std::vector<ze_driver_extension_properties_t> extensions(listed);
  if (Status s = ze_check(zeDriverGetExtensionProperties(driver_, &listed, extensions.data()),
                          "zeDriverGetExtensionProperties");
      !s.ok())
    return s;
  for (uint32_t i = 0; i < listed; ++i) extensions_.emplace_back(extensions[i].name);
  uint32_t count = 0;
  if (Status s = ze_check(zeDeviceGet(driver_, &count, nullptr), "zeDeviceGet"); !s.ok()) return s;
  std::vector<ze_device_handle_t> handles(count);
  if (Status s = ze_check(zeDeviceGet(driver_, &count, handles.data()), "zeDeviceGet"); !s.ok()) return s;
  handles.resize(count);
  for (ze_device_handle_t h : handles) {
    auto device = Device::create(*this, h);
    if (!device.ok()) return std::move(device).error();
    devices_.push_back(std::move(device).value());
  }
  return {};
}

bool Platform::owns(const Device *device) const {
  return std::any_of(devices_.begin(), devices_.end(), [&](auto &d) {
    return d.get() == device || std::any_of(d->sub_devices().begin(), d->sub_devices().end(),
                                            [&](auto &sub) { return sub.get() == device; });
  });
}

// Level Zero drivers have no name; the platform is named after what its devices are.
std::string Platform::name() const {
  bool zeal_cpu = std::any_of(devices_.begin(), devices_.end(), [](auto &d) { return d->is_zeal_cpu(); });
  if (zeal_cpu) return "zeal CPU Level-Zero";
  if (!devices_.empty() && devices_.front()->properties().vendorId == 0x8086) return "Intel(R) Level-Zero";
  return "Level-Zero";
}

std::string Platform::vendor() const {
  return devices_.empty() ? std::string("unknown") : vendor_name(*devices_.front());
}

// Level Zero packs major.minor.build into the 32-bit driver version.
std::string Platform::driver_version() const {
  uint32_t v = props_.driverVersion;
  return fmt::format("{}.{}.{}", v >> 24, (v >> 16) & 0xffu, v & 0xffffu);
}

std::string Platform::api_version() const {
  return fmt::format("{}.{}", ZE_MAJOR_VERSION(api_version_), ZE_MINOR_VERSION(api_version_));
}

std::string vendor_name(const Device &device) {
  if (device.is_zeal_cpu()) return "zeal";
  if (device.properties().vendorId == 0x8086) return "Intel(R) Corporation";
  return fmt::format("vendor {:#06x}", device.properties().vendorId);
}

namespace {
using Row = InfoRow<Platform, zeal_platform_info_t>;
const Row kPlatformInfo[] = {
    {ZEAL_PLATFORM_INFO_NAME, "NAME", [](const Platform &p) -> Result<InfoValue> { return info_string(p.name()); }},
    {ZEAL_PLATFORM_INFO_VENDOR, "VENDOR",
     [](const Platform &p) -> Result<InfoValue> { return info_string(p.vendor()); }},
    {ZEAL_PLATFORM_INFO_VERSION, "VERSION",
     [](const Platform &p) -> Result<InfoValue> { return info_string(p.driver_version()); }},
    {ZEAL_PLATFORM_INFO_BACKEND, "BACKEND",
     [](const Platform &) -> Result<InfoValue> { return info_string("level_zero"); }},
    {ZEAL_PLATFORM_INFO_BACKEND_VERSION, "BACKEND_VERSION",
     [](const Platform &p) -> Result<InfoValue> { return info_string(p.api_version()); }},
};
} // namespace

Result<InfoValue> Platform::info(int32_t key) const {
  return answer_info<Platform, zeal_platform_info_t>(kPlatformInfo, *this, key, "platform");
}

bool Platform::has_extension(std::string_view name) const {
  return std::find(extensions_.begin(), extensions_.end(), name) != extensions_.end();
}

} // namespace zeal::adapter
