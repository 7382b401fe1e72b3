// The device info table: each zeal_device_info_t key and how it is answered from Level Zero properties.
#include "adapter/core/platform.hpp"
#include "zeal/ze_zeal_ext.h"

namespace zeal::adapter {
namespace {

using Row = InfoRow<Device, zeal_device_info_t>;

InfoValue boolean(bool b) { return info_of<uint32_t>(b ? 1u : 0u); }

zeal_device_type_t device_type(const Device &d) {
  switch (d.properties().type) {
  case ZE_DEVICE_TYPE_GPU: return ZEAL_DEVICE_TYPE_GPU;
  case ZE_DEVICE_TYPE_CPU: return ZEAL_DEVICE_TYPE_CPU;
  case ZE_DEVICE_TYPE_FPGA: return ZEAL_DEVICE_TYPE_FPGA;
  default: return ZEAL_DEVICE_TYPE_ACCELERATOR;
  }
}

// "SPIR-V_1.0 SPIR-V_1.1 ..." up to the version the device consumes.
std::string il_versions(const Device &d) {
  uint32_t v = d.module().spirvVersionSupported;
  std::string out;
  for (uint32_t minor = 0; minor <= ZE_MINOR_VERSION(v); ++minor)
    out += fmt::format("{}SPIR-V_{}.{}", out.empty() ? "" : " ", ZE_MAJOR_VERSION(v), minor);
  return out;
}


// SYCL's max_num_sub_groups: a full work-group of the smallest sub-groups.
uint32_t max_num_sub_groups(const Device &d) {
  const auto &sizes = d.sub_group_sizes();
  return sizes.empty() ? 0 : d.compute().maxTotalGroupSize / sizes.front();
}

bool usm_capable(ze_memory_access_cap_flags_t caps) { return (caps & ZE_MEMORY_ACCESS_CAP_FLAG_RW) != 0; }

const Row kDeviceInfo[] = {
    {ZEAL_DEVICE_INFO_TYPE, "TYPE", [](const Device &d) -> Result<InfoValue> { return info_of(device_type(d)); }},
    {ZEAL_DEVICE_INFO_NAME, "NAME", [](const Device &d) -> Result<InfoValue> { return info_string(d.name()); }},
    {ZEAL_DEVICE_INFO_VENDOR, "VENDOR",
     [](const Device &d) -> Result<InfoValue> { return info_string(vendor_name(d)); }},
    {ZEAL_DEVICE_INFO_VENDOR_ID, "VENDOR_ID",
     [](const Device &d) -> Result<InfoValue> { return info_of<uint32_t>(d.properties().vendorId); }},
    {ZEAL_DEVICE_INFO_DRIVER_VERSION, "DRIVER_VERSION",
     [](const Device &d) -> Result<InfoValue> { return info_string(d.platform().driver_version()); }},
    {ZEAL_DEVICE_INFO_BACKEND_VERSION, "BACKEND_VERSION",
     [](const Device &d) -> Result<InfoValue> { return info_string(d.platform().api_version()); }},
    {ZEAL_DEVICE_INFO_UUID, "UUID",
     [](const Device &d) -> Result<InfoValue> { return info_of(d.properties().uuid.id); }},
    {ZEAL_DEVICE_INFO_PLATFORM, "PLATFORM",
     [](const Device &d) -> Result<InfoValue> {
       return info_of(to_handle<Platform, zeal_platform_handle_t>(&d.platform()));
     }},
    {ZEAL_DEVICE_INFO_MAX_COMPUTE_UNITS, "MAX_COMPUTE_UNITS",
     [](const Device &d) -> Result<InfoValue> {
       const auto &p = d.properties();
       return info_of<uint32_t>(p.numSlices * p.numSubslicesPerSlice * p.numEUsPerSubslice);
     }},
    {ZEAL_DEVICE_INFO_GLOBAL_MEM_SIZE, "GLOBAL_MEM_SIZE",
     [](const Device &d) -> Result<InfoValue> { return info_of<uint64_t>(d.global_mem_size()); }},
    {ZEAL_DEVICE_INFO_LOCAL_MEM_SIZE, "LOCAL_MEM_SIZE",
     [](const Device &d) -> Result<InfoValue> { return info_of<uint64_t>(d.compute().maxSharedLocalMemory); }},
    {ZEAL_DEVICE_INFO_MAX_WORK_GROUP_SIZE, "MAX_WORK_GROUP_SIZE",
     [](const Device &d) -> Result<InfoValue> { return info_of<size_t>(d.limits().max_work_group_size); }},
    {ZEAL_DEVICE_INFO_MAX_WORK_ITEM_SIZES, "MAX_WORK_ITEM_SIZES",
     [](const Device &d) -> Result<InfoValue> { return info_of(d.limits().max_work_item_sizes); }},
    {ZEAL_DEVICE_INFO_MAX_GROUP_COUNT, "MAX_GROUP_COUNT",
     [](const Device &d) -> Result<InfoValue> { return info_of(d.limits().max_group_count); }},
    {ZEAL_DEVICE_INFO_IL_VERSIONS, "IL_VERSIONS",
     [](const Device &d) -> Result<InfoValue> { return info_string(il_versions(d)); }},
    {ZEAL_DEVICE_INFO_SUB_GROUP_SIZES, "SUB_GROUP_SIZES",
     [](const Device &d) -> Result<InfoValue> { return info_array<uint32_t>(d.sub_group_sizes()); }},
    {ZEAL_DEVICE_INFO_MAX_NUM_SUB_GROUPS, "MAX_NUM_SUB_GROUPS",
     [](const Device &d) -> Result<InfoValue> { return info_of<uint32_t>(max_num_sub_groups(d)); }},
    {ZEAL_DEVICE_INFO_PRIMARY_SUB_GROUP_SIZE, "PRIMARY_SUB_GROUP_SIZE",
     [](const Device &d) -> Result<InfoValue> { return info_of<uint32_t>(d.primary_sub_group_size()); }},
    {ZEAL_DEVICE_INFO_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, "SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS",
     [](const Device &d) -> Result<InfoValue> { return boolean(d.sub_group_independent_forward_progress()); }},
    {ZEAL_DEVICE_INFO_HAS_FP16, "HAS_FP16",
     [](const Device &d) -> Result<InfoValue> { return boolean(d.module().flags & ZE_DEVICE_MODULE_FLAG_FP16); }},
    {ZEAL_DEVICE_INFO_HAS_FP64, "HAS_FP64",
     [](const Device &d) -> Result<InfoValue> { return boolean(d.module().flags & ZE_DEVICE_MODULE_FLAG_FP64); }},
    {ZEAL_DEVICE_INFO_HAS_ATOMIC64, "HAS_ATOMIC64",
     [](const Device &d) -> Result<InfoValue> {
       return boolean(d.module().flags & ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS);
     }},
    {ZEAL_DEVICE_INFO_USM_DEVICE_ALLOCATIONS, "USM_DEVICE_ALLOCATIONS",
     [](const Device &d) -> Result<InfoValue> { return boolean(usm_capable(d.memory_access().deviceAllocCapabilities)); }},
    {ZEAL_DEVICE_INFO_USM_HOST_ALLOCATIONS, "USM_HOST_ALLOCATIONS",
     [](const Device &d) -> Result<InfoValue> { return boolean(usm_capable(d.memory_access().hostAllocCapabilities)); }},
    {ZEAL_DEVICE_INFO_USM_SHARED_ALLOCATIONS, "USM_SHARED_ALLOCATIONS",
     [](const Device &d) -> Result<InfoValue> {
       return boolean(usm_capable(d.memory_access().sharedSingleDeviceAllocCapabilities));
     }},
    {ZEAL_DEVICE_INFO_DRIVER_CACHES_KERNEL_CODE, "DRIVER_CACHES_KERNEL_CODE",
     [](const Device &d) -> Result<InfoValue> {
       return boolean(d.platform().has_extension(ZE_ZEAL_KERNEL_CODE_CACHE_EXT_NAME));
     }},
    {ZEAL_DEVICE_INFO_IMAGE_SUPPORT, "IMAGE_SUPPORT",
     [](const Device &d) -> Result<InfoValue> { return boolean(d.has_images()); }},
};

} // namespace

Result<InfoValue> Device::info(int32_t key) const {
  return answer_info<Device, zeal_device_info_t>(kDeviceInfo, *this, key, "device '" + name_ + "'");
}

} // namespace zeal::adapter
