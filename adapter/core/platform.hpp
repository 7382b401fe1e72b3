// A zeal platform: one Level Zero driver and its root devices.
#pragma once

#include "adapter/core/device.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace zeal::adapter {

class Platform : public Object {
public:
  static constexpr Kind kKind = Kind::Platform;

  static Result<std::unique_ptr<Platform>> create(ze_driver_handle_t driver);

  ze_driver_handle_t ze() const { return driver_; }
  const std::vector<std::unique_ptr<Device>> &devices() const { return devices_; }
  bool owns(const Device *device) const;

  std::string name() const;
  std::string vendor() const;
  std::string driver_version() const;
  std::string api_version() const;
  // The driver lists the extension (zeDriverGetExtensionProperties, read once at creation).
  bool has_extension(std::string_view name) const;

  Result<InfoValue> info(int32_t key) const;

private:
  explicit Platform(ze_driver_handle_t driver) : Object(kKind), driver_(driver) {}
  Status query();

  ze_driver_handle_t driver_;
  ze_driver_properties_t props_ = ze_desc<ze_driver_properties_t>();
  ze_api_version_t api_version_ = ZE_API_VERSION_1_0;
  std::vector<std::string> extensions_;
  std::vector<std::unique_ptr<Device>> devices_;
};

// "Intel(R) Corporation" for Intel's vendor id, "zeal" for zeal's CPU driver.
std::string vendor_name(const Device &device);

} // namespace zeal::adapter
