// The CPU devices: how their properties follow from the host CPU and their share of it, and the zeDevice* entry points.
#include "cpu_driver/runtime/command_queue.hpp"
#include "cpu_driver/runtime/ddi.hpp"
#include "cpu_driver/runtime/driver.hpp"
#include "cpu_driver/runtime/image.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace zeal::cpu {
namespace {

// 128-bit FNV-1a over the text, so that the same CPU gives the same UUID on every run.
void stable_uuid(const std::string &text, uint8_t (&out)[ZE_MAX_DEVICE_UUID_SIZE]) {
  uint64_t h1 = 0xcbf29ce484222325ull, h2 = 0x84222325cbf29ce4ull;
  for (unsigned char c : text) {
    h1 = (h1 ^ c) * 0x100000001b3ull;
    h2 = (h2 ^ c) * 0x100000001b3ull + 1;
  }
  std::memcpy(out, &h1, 8);
  std::memcpy(out + 8, &h2, 8);
}

uint32_t vendor_id(const std::string &vendor) {
  if (vendor == "GenuineIntel") return 0x8086;
  if (vendor == "AuthenticAMD") return 0x1022;
  return 0;
}

// How a device is told apart from the others of the library, in its name and in its UUID: nothing
// for the only root device of the only driver (so that its name and UUID stay those of the whole CPU).
std::string position(const Placement &where) {
  std::string text;
  if (where.drivers > 1) text += " driver " + std::to_string(where.driver);
  if (where.roots > 1) text += " device " + std::to_string(where.root);
  if (where.sub >= 0) text += " sub-device " + std::to_string(where.sub);
  return text;
}

} // namespace

Device::Device(const HostCpu &cpu, const Profile &profile, const Placement &placement, Device *parent)
    : cpu_(cpu), profile_(profile), placement_(placement), parent_(parent) {
  auto &p = properties_;
  p.type = ZE_DEVICE_TYPE_CPU;
  p.vendorId = vendor_id(cpu_.vendor);
  p.deviceId = profile.device_id;
  p.flags = ZE_DEVICE_PROPERTY_FLAG_INTEGRATED;
  if (parent != nullptr) {
    p.flags |= ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE;
    p.subdeviceId = static_cast<uint32_t>(placement.sub);
  }
  p.coreClockRate = cpu_.mhz;
  // One allocation may take up to all of host memory; the kernel decides about overcommit.
  p.maxMemAllocSize = cpu_.memory_bytes;
  p.maxHardwareContexts = 1;
  p.maxCommandQueuePriority = 2; // three levels: low, normal and high (ThreadPool::Priority)
  if (profile.slices == 0) {
    // One "EU" per thread the device runs work-groups on; SIMD width of a 256-bit vector of floats.
    p.numThreadsPerEU = 1;
    p.physicalEUSimdWidth = 8;
    p.numEUsPerSubslice = placement.threads;
    p.numSubslicesPerSlice = 1;
    p.numSlices = 1;
  } else {
    // A profile's GPU; a sub-device has its share of each slice's sub-slices.
    p.numThreadsPerEU = profile.threads_per_eu;
    p.physicalEUSimdWidth = profile.simd_width;
    p.numEUsPerSubslice = profile.eus_per_subslice;
    p.numSubslicesPerSlice = placement.sub < 0 ? profile.subslices_per_slice
                                               : fair_share(profile.subslices_per_slice, placement.subs, placement.sub);
    p.numSlices = profile.slices;
  }
  p.timerResolution = 1; // nanoseconds (cycles per second for the 1.2 stype; see device_get_properties)
  p.timestampValidBits = 64;
  p.kernelTimestampValidBits = 64;
  // The profile is part of the identity: a pvc-profile device is not the host-profile one. Native
  // binaries run on every device of the CPU, so the whole CPU's identity is what they are built for.
  const std::string cpu_identity =
      "zeal-cpu/" + cpu_.vendor + "/" + cpu_.model + "/" + std::to_string(cpu_.threads) + "/" + profile.name;
  const std::string where = position(placement);
  stable_uuid(cpu_identity + where, p.uuid.id);
  std::snprintf(p.name, sizeof(p.name), "zeal CPU%s (%s profile, %s)", where.c_str(), profile.name, cpu_.model.c_str());
  health_.set_device_name(p.name);

  auto &c = compute_;
  c.maxTotalGroupSize = profile.max_group_size;
  c.maxGroupSizeX = c.maxGroupSizeY = c.maxGroupSizeZ = profile.max_group_size;
  c.maxGroupCountX = c.maxGroupCountY = c.maxGroupCountZ = UINT32_MAX;
  c.maxSharedLocalMemory = profile.local_memory_bytes;
  c.numSubGroupSizes = static_cast<uint32_t>(profile.sub_group_sizes.size());
  std::copy(profile.sub_group_sizes.begin(), profile.sub_group_sizes.end(), c.subGroupSizes);

  auto &m = module_;
  m.spirvVersionSupported = ZE_MAKE_VERSION(1, 4);
  m.flags = ZE_DEVICE_MODULE_FLAG_FP16 | ZE_DEVICE_MODULE_FLAG_FP64 | ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS;
  constexpr ze_device_fp_flags_t ieee = ZE_DEVICE_FP_FLAG_DENORM | ZE_DEVICE_FP_FLAG_INF_NAN |
                                        ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST | ZE_DEVICE_FP_FLAG_ROUND_TO_ZERO |
                                        ZE_DEVICE_FP_FLAG_ROUND_TO_INF | ZE_DEVICE_FP_FLAG_FMA;
  m.fp16flags = ieee;
  m.fp32flags = ieee | ZE_DEVICE_FP_FLAG_ROUNDED_DIVIDE_SQRT;
  m.fp64flags = ieee;
  m.maxArgumentsSize = 4096;
  m.printfBufferSize = 4 * 1024 * 1024;
  stable_uuid(cpu_identity, m.nativeKernelSupported.id);
}

void Device::partition(const std::vector<unsigned> &ids, unsigned count, unsigned root_threads) {
  for (unsigned i : ids) {
    Placement where{placement_.driver, placement_.drivers, placement_.root,          placement_.roots,
                    static_cast<int>(i),  count,               fair_share(root_threads, count, i)};
    sub_devices_.push_back(std::make_unique<Device>(cpu_, profile_, where, this));
    sub_device_handles_.push_back(sub_devices_.back().get());
  }
}

bool Device::take_memory(uint64_t bytes, std::string &why) {
  if (parent_ != nullptr) return parent_->take_memory(bytes, why);
  const uint64_t total = cpu_.memory_bytes;
  uint64_t used = memory_in_use_.load(std::memory_order_relaxed);
  do {
    if (bytes > total - std::min(used, total)) {
      why = fmt::format("{} bytes more would exceed the device's {} bytes of memory ({} bytes are in device "
                        "allocations already)",
                        bytes, total, used);
      return false;
    }
  } while (!memory_in_use_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
  return true;
}

void Device::give_back_memory(uint64_t bytes) {
  if (parent_ != nullptr) return parent_->give_back_memory(bytes);
  memory_in_use_.fetch_sub(bytes, std::memory_order_relaxed);
}

namespace {

ze_result_t device_get(ze_driver_handle_t driver, uint32_t *count, ze_device_handle_t *devices) {
  if (driver == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return list_out(Driver::from(driver)->devices(), count, devices);
}

ze_result_t device_get_sub_devices(ze_device_handle_t device, uint32_t *count, ze_device_handle_t *sub_devices) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return list_out(Device::from(device)->sub_devices(), count, sub_devices);
}

ze_result_t device_get_properties(ze_device_handle_t device, ze_device_properties_t *out) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  bool cycles_per_second = out->stype == ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2;
  copy_keeping_header(out, Device::from(device)->properties());
  if (cycles_per_second) out->timerResolution = 1'000'000'000;
  return ZE_RESULT_SUCCESS;
}

ze_result_t device_get_compute_properties(ze_device_handle_t device, ze_device_compute_properties_t *out) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  copy_keeping_header(out, Device::from(device)->compute_properties());
  return ZE_RESULT_SUCCESS;
}

ze_result_t device_get_module_properties(ze_device_handle_t device, ze_device_module_properties_t *out) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  copy_keeping_header(out, Device::from(device)->module_properties());
  // ZE_experimental_scheduling_hints: the hints choose how a GPU's EUs arbitrate between their hardware threads;
  // a CPU core runs one work-group at a time, so none applies (zeKernelSchedulingHintExp accepts and ignores them).
  if (auto *hints = const_cast<ze_scheduling_hint_exp_properties_t *>(find_in_chain<ze_scheduling_hint_exp_properties_t>(
          out->pNext, ZE_STRUCTURE_TYPE_SCHEDULING_HINT_EXP_PROPERTIES))) {
    hints->schedulingHintFlags = 0;
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t device_get_command_queue_group_properties(ze_device_handle_t device, uint32_t *count,
                                                      ze_command_queue_group_properties_t *out) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (*count == 0 || out == nullptr) {
    *count = queue_group_count;
    return ZE_RESULT_SUCCESS;
  }
  *count = std::min(*count, queue_group_count);
  for (uint32_t ordinal = 0; ordinal < *count; ++ordinal) {
    ze_command_queue_group_properties_t group{};
    group.flags = ordinal == compute_group
                      ? ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE | ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY |
                            ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COOPERATIVE_KERNELS
                      : ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
    group.maxMemoryFillPatternSize = 128;
    group.numQueues = queues_per_group;
    copy_keeping_header(&out[ordinal], group);
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t device_get_memory_properties(ze_device_handle_t device, uint32_t *count,
                                         ze_device_memory_properties_t *out) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  ze_device_memory_properties_t memory{};
  memory.totalSize = Device::from(device)->cpu().memory_bytes;
  memory.maxBusWidth = 64;
  std::snprintf(memory.name, sizeof(memory.name), "host memory");
  return ze::list_properties(memory, count, out);
}

ze_result_t device_get_external_memory_properties(ze_device_handle_t device, ze_device_external_memory_properties_t *out) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // Device allocations as Linux memory files (memory.cpp), shared as opaque descriptors; images are not
  // implemented, so none of theirs.
  ze_device_external_memory_properties_t external{};
  external.memoryAllocationImportTypes = ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD;
  external.memoryAllocationExportTypes = ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD;
  copy_keeping_header(out, external);
  return ZE_RESULT_SUCCESS;
}

ze_result_t device_get_memory_access_properties(ze_device_handle_t device,
                                                ze_device_memory_access_properties_t *out) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // Every kind of allocation is ordinary host memory: all access, atomics included, everywhere. A GPU profile
  // says what Intel's driver says of its GPU by default: kernels do not reach the host's own (system) memory,
  // so that the adapter's path for such devices runs here too.
  constexpr ze_memory_access_cap_flags_t all = ZE_MEMORY_ACCESS_CAP_FLAG_RW | ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC |
                                               ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT |
                                               ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT_ATOMIC;
  ze_device_memory_access_properties_t access{};
  access.hostAllocCapabilities = access.deviceAllocCapabilities = all;
  access.sharedSingleDeviceAllocCapabilities = access.sharedCrossDeviceAllocCapabilities = all;
  access.sharedSystemAllocCapabilities = Device::from(device)->profile().device_id == 0 ? all : 0;
  copy_keeping_header(out, access);
  return ZE_RESULT_SUCCESS;
}

// The largest images zeImageCreate makes (image.hpp); a buffer image's limit in bytes is its pixel limit, which
// holds for every pixel size. Kernels take as many images and samplers as OpenCL's full profile asks at least.
ze_result_t device_get_image_properties(ze_device_handle_t device, ze_device_image_properties_t *properties) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (properties == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  copy_keeping_header(properties, ze::device_image_properties(Images::limits));
  return ZE_RESULT_SUCCESS;
}

// One entry per level of data cache the host reports, L1 first; none can be partitioned by the user.
ze_result_t device_get_cache_properties(ze_device_handle_t device, uint32_t *count,
                                        ze_device_cache_properties_t *out) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const std::vector<uint64_t> &caches = Device::from(device)->cpu().data_cache_bytes;
  const auto available = static_cast<uint32_t>(caches.size());
  if (*count == 0 || out == nullptr) {
    *count = available;
    return ZE_RESULT_SUCCESS;
  }
  *count = std::min(*count, available);
  for (uint32_t i = 0; i < *count; ++i) {
    ze_device_cache_properties_t cache{};
    cache.cacheSize = caches[i];
    copy_keeping_header(&out[i], cache);
  }
  return ZE_RESULT_SUCCESS;
}

// Every device runs on the same host memory: each reaches every other's allocations, atomics included.
ze_result_t device_get_p2p_properties(ze_device_handle_t device, ze_device_handle_t peer,
                                      ze_device_p2p_properties_t *out) {
  if (device == nullptr || peer == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  out->flags = ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS | ZE_DEVICE_P2P_PROPERTY_FLAG_ATOMICS;
  return ZE_RESULT_SUCCESS;
}

ze_result_t device_can_access_peer(ze_device_handle_t device, ze_device_handle_t peer, ze_bool_t *value) {
  if (device == nullptr || peer == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (value == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *value = true;
  return ZE_RESULT_SUCCESS;
}

ze_result_t device_get_global_timestamps(ze_device_handle_t device, uint64_t *host, uint64_t *device_ts) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (host == nullptr || device_ts == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *host = *device_ts = device_timestamp();
  return ZE_RESULT_SUCCESS;
}

ze_result_t device_get_status(ze_device_handle_t device) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return Device::from(device)->health().lost() ? ZE_RESULT_ERROR_DEVICE_LOST : ZE_RESULT_SUCCESS;
}

} // namespace

void implement(ze_device_dditable_t &t) {
  t.pfnGet = guarded<device_get>;
  t.pfnGetSubDevices = guarded<device_get_sub_devices>;
  t.pfnGetProperties = guarded<device_get_properties>;
  t.pfnGetComputeProperties = guarded<device_get_compute_properties>;
  t.pfnGetModuleProperties = guarded<device_get_module_properties>;
  t.pfnGetCommandQueueGroupProperties = guarded<device_get_command_queue_group_properties>;
  t.pfnGetMemoryProperties = guarded<device_get_memory_properties>;
  t.pfnGetMemoryAccessProperties = guarded<device_get_memory_access_properties>;
  t.pfnGetExternalMemoryProperties = guarded<device_get_external_memory_properties>;
  t.pfnGetCacheProperties = guarded<device_get_cache_properties>;
  t.pfnGetImageProperties = guarded<device_get_image_properties>;
  t.pfnGetP2PProperties = guarded<device_get_p2p_properties>;
  t.pfnCanAccessPeer = guarded<device_can_access_peer>;
  t.pfnGetGlobalTimestamps = guarded<device_get_global_timestamps>;
  t.pfnGetStatus = guarded<device_get_status>;
}

} // namespace zeal::cpu
