// Device discovery: reading a root device's properties once, and the sub-group facts derived from them.
#include "adapter/core/device.hpp"

#include <algorithm>

namespace zeal::adapter {

Result<std::unique_ptr<Device>> Device::create(Platform &platform, ze_device_handle_t device, Device *parent) {
  std::unique_ptr<Device> d(new Device(platform, device, parent));
  if (Status s = d->query(); !s.ok()) return std::move(s).error();
  if (parent == nullptr)
    if (Status s = d->find_sub_devices(); !s.ok()) return std::move(s).error();
  return d;
}

// One level: zeal selects sub-devices (ONEAPI_DEVICE_SELECTOR's N.M), not sub-devices of sub-devices.
Status Device::find_sub_devices() {
  const std::string what = "device '" + name_ + "'";
  uint32_t count = 0;
  if (Status s = ze_check(zeDeviceGetSubDevices(device_, &count, nullptr), "zeDeviceGetSubDevices", what); !s.ok())
    return s;
  std::vector<ze_device_handle_t> handles(count);
  if (Status s = ze_check(zeDeviceGetSubDevices(device_, &count, handles.data()), "zeDeviceGetSubDevices", what);
      !s.ok())
    return s;
  handles.resize(count);
  for (ze_device_handle_t h : handles) {
    auto sub = Device::create(platform_, h, this);
    if (!sub.ok()) return std::move(sub).error();
    sub_devices_.push_back(std::move(sub).value());
  }
  return {};
}

Status Device::query() {
  if (Status s = ze_check(zeDeviceGetProperties(device_, &props_), "zeDeviceGetProperties"); !s.ok()) return s;
  name_ = props_.name;
  const std::string what = "device '" + name_ + "'";
  if (Status s = ze_check(zeDeviceGetComputeProperties(device_, &compute_), "zeDeviceGetComputeProperties", what);
      !s.ok())
    return s;
  if (Status s = ze_check(zeDeviceGetModuleProperties(device_, &module_), "zeDeviceGetModuleProperties", what);
      !s.ok())
    return s;
  if (Status s = ze_check(zeDeviceGetMemoryAccessProperties(device_, &access_),
                          "zeDeviceGetMemoryAccessProperties", what);
      !s.ok())
    return s;
  // A driver without images may refuse the question: its limits stay zero, so the device has none.
  if (zeDeviceGetImageProperties(device_, &image_) != ZE_RESULT_SUCCESS) image_ = ze_desc<ze_device_image_properties_t>();
  uint32_t count = 0;
  if (Status s = ze_check(zeDeviceGetMemoryProperties(device_, &count, nullptr), "zeDeviceGetMemoryProperties", what);
      !s.ok())
    return s;
  std::vector<ze_device_memory_properties_t> memories(count, ze_desc<ze_device_memory_properties_t>());
  if (Status s = ze_check(zeDeviceGetMemoryProperties(device_, &count, memories.data()),
                          "zeDeviceGetMemoryProperties", what);
      !s.ok())
    return s;
  for (const auto &m : memories) global_mem_size_ += m.totalSize;

  limits_.name = name_;
  limits_.max_work_group_size = compute_.maxTotalGroupSize;
  limits_.max_work_item_sizes = {compute_.maxGroupSizeX, compute_.maxGroupSizeY, compute_.maxGroupSizeZ};
  limits_.max_group_count = {compute_.maxGroupCountX, compute_.maxGroupCountY, compute_.maxGroupCountZ};
  limits_.sub_group_sizes.assign(compute_.subGroupSizes,
                                 compute_.subGroupSizes + std::min<uint32_t>(compute_.numSubGroupSizes,
                                                                             ZE_SUBGROUPSIZE_COUNT));
  std::sort(limits_.sub_group_sizes.begin(), limits_.sub_group_sizes.end());
  return find_compute_queue();
}

Status Device::find_compute_queue() {
  uint32_t count = 0;
  const std::string what = "device '" + name_ + "'";
  if (Status s = ze_check(zeDeviceGetCommandQueueGroupProperties(device_, &count, nullptr),
                          "zeDeviceGetCommandQueueGroupProperties", what);
      !s.ok())
    return s;
  ze_command_queue_group_properties_t blank{};
  blank.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
  std::vector<ze_command_queue_group_properties_t> groups(count, blank);
  if (Status s = ze_check(zeDeviceGetCommandQueueGroupProperties(device_, &count, groups.data()),
                          "zeDeviceGetCommandQueueGroupProperties", what);
      !s.ok())
    return s;
  for (uint32_t i = 0; i < count; ++i) {
    if (groups[i].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) {
      compute_ordinal_ = i;
      return {};
    }
  }
  return make_error(ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE,
                    "device '" + name_ + "' has no command queue group that can run kernels");
}

// The sub-group size a kernel gets when it asks for none.
// zeal's CPU driver vectorises sub-groups of 16 lanes by default (two AVX-512 or
// four AVX2 registers of floats), so 16 is what an unconstrained kernel runs with.
// Intel's GPU compiler picks SIMD16 for compute kernels without a requirement on
// every generation that offers it (Gen9 to Xe-HPG list 8/16/32, Xe-HPC lists
// 16/32), and SIMD8 code is only chosen under register pressure, so 16 — else 32
// — is the size SYCL's "primary" sub-group size should report. A device with
// neither reports its smallest size, the one every kernel can be compiled for. NVIDIA's warps are the exception.
uint32_t Device::primary_sub_group_size() const {
  const auto &sizes = limits_.sub_group_sizes;
  if (sizes.empty()) return 1;
  // An NVIDIA GPU (zeal's CUDA driver) runs a kernel that asks for no size as whole warps; 8 and 16 are segments of
  // a warp for kernels that require them.
  constexpr uint32_t nvidia = 0x10de;
  if (props_.vendorId == nvidia && std::find(sizes.begin(), sizes.end(), 32u) != sizes.end()) return 32;
  auto has = [&](uint32_t n) { return std::find(sizes.begin(), sizes.end(), n) != sizes.end(); };
  if (has(16)) return 16;
  if (has(32)) return 32;
  return sizes.front();
}

// Whether the sub-groups of one work-group make progress independently of each
// other (so one may spin-wait on another). zeal's CPU driver runs all sub-groups
// of a work-group on one OS thread, switching only at barriers, so a sub-group
// spinning on another never yields: false. Intel GPUs run each sub-group as its
// own hardware thread with its own instruction pointer, scheduled by the EU
// thread arbiter: true. Unknown drivers get the conservative answer, false.
bool Device::sub_group_independent_forward_progress() const {
  if (is_zeal_cpu()) return false;
  return props_.vendorId == 0x8086 && props_.type == ZE_DEVICE_TYPE_GPU;
}

} // namespace zeal::adapter
