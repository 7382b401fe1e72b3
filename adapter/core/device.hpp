// A zeal device: one Level Zero root device or one of its sub-devices, with its properties read once at discovery.
#pragma once

#include "adapter/core/info.hpp"
#include "adapter/core/launch_checks.hpp"
#include "adapter/core/object.hpp"
#include "common/ze.hpp"

#include <memory>
#include <string>
#include <vector>

namespace zeal::adapter {

class Platform;

class Device : public Object {
public:
  static constexpr Kind kKind = Kind::Device;

  // A root device with its sub-devices (`parent` null), or one sub-device of `parent`.
  static Result<std::unique_ptr<Device>> create(Platform &platform, ze_device_handle_t device,
                                                Device *parent = nullptr);

  ze_device_handle_t ze() const { return device_; }
  Platform &platform() const { return platform_; }
  Device *parent() const { return parent_; }
  const std::vector<std::unique_ptr<Device>> &sub_devices() const { return sub_devices_; }
  const std::string &name() const { return name_; }
  // zeal's own CPU driver names its devices "zeal ..."; some answers differ for it.
  bool is_zeal_cpu() const { return name_.rfind("zeal", 0) == 0; }

  const ze_device_properties_t &properties() const { return props_; }
  const ze_device_compute_properties_t &compute() const { return compute_; }
  const ze_device_module_properties_t &module() const { return module_; }
  const ze_device_memory_access_properties_t &memory_access() const { return access_; }
  uint64_t global_mem_size() const { return global_mem_size_; }
  // The driver's image limits; all zero for a device without images (a driver that does not answer is one).
  const ze_device_image_properties_t &image() const { return image_; }
  bool has_images() const { return image_.maxImageDims2D != 0; }
  uint32_t compute_queue_ordinal() const { return compute_ordinal_; }

  const std::vector<uint32_t> &sub_group_sizes() const { return limits_.sub_group_sizes; }
  uint32_t primary_sub_group_size() const;
  bool sub_group_independent_forward_progress() const;
  const DeviceLimits &limits() const { return limits_; }

  Result<InfoValue> info(int32_t key) const;

private:
  Device(Platform &platform, ze_device_handle_t device, Device *parent)
      : Object(kKind), platform_(platform), device_(device), parent_(parent) {}
  Status query();
  Status find_sub_devices();
  Status find_compute_queue();

  Platform &platform_;
  ze_device_handle_t device_;
  Device *parent_;
  std::vector<std::unique_ptr<Device>> sub_devices_;
  std::string name_;
  ze_device_properties_t props_ = ze_desc<ze_device_properties_t>();
  ze_device_compute_properties_t compute_ = ze_desc<ze_device_compute_properties_t>();
  ze_device_module_properties_t module_ = ze_desc<ze_device_module_properties_t>();
  ze_device_memory_access_properties_t access_ = ze_desc<ze_device_memory_access_properties_t>();
  ze_device_image_properties_t image_ = ze_desc<ze_device_image_properties_t>();
  uint64_t global_mem_size_ = 0;
  uint32_t compute_ordinal_ = 0;
  DeviceLimits limits_;
};

} // namespace zeal::adapter
