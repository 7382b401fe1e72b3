// UR entry points of devices: listing, info (table-driven, from the facts the zeal ABI answers), binaries.
#include "adapter/core/adapter.hpp"
#include "adapter/core/platform.hpp"
#include "adapter/ur/entry.hpp"

#include <algorithm>
#include <cstring>

namespace zeal::adapter::ur {
namespace {

// A zeal answer passed on as it is (the same bytes: strings, arrays, integers of the same width).
Result<InfoValue> same_as_zeal(const Device &d, zeal_device_info_t key) { return d.info(key); }

// A zeal boolean (uint32_t) as UR's ur_bool_t (uint8_t).
Result<InfoValue> bool_from_zeal(const Device &d, zeal_device_info_t key) {
  auto b = zeal_fact<uint32_t>(d, key);
  if (!b.ok()) return std::move(b).error();
  return info_of<ur_bool_t>(b.value() != 0);
}

InfoValue ur_bool(bool b) { return info_of<ur_bool_t>(b); }

ur_device_type_t device_type(const Device &d) {
  switch (d.properties().type) {
  case ZE_DEVICE_TYPE_GPU: return UR_DEVICE_TYPE_GPU;
  case ZE_DEVICE_TYPE_CPU: return UR_DEVICE_TYPE_CPU;
  case ZE_DEVICE_TYPE_FPGA: return UR_DEVICE_TYPE_FPGA;
  case ZE_DEVICE_TYPE_MCA: return UR_DEVICE_TYPE_MCA;
  case ZE_DEVICE_TYPE_VPU: return UR_DEVICE_TYPE_VPU;
  default: return UR_DEVICE_TYPE_CUSTOM;
  }
}

// Level Zero's floating-point capabilities in UR's bits.
ur_device_fp_capability_flags_t fp_capabilities(ze_device_fp_flags_t ze) {
  struct Pair {
    ze_device_fp_flags_t ze;
    ur_device_fp_capability_flags_t ur;
  };
  constexpr Pair pairs[] = {
      {ZE_DEVICE_FP_FLAG_DENORM, UR_DEVICE_FP_CAPABILITY_FLAG_DENORM},
      {ZE_DEVICE_FP_FLAG_INF_NAN, UR_DEVICE_FP_CAPABILITY_FLAG_INF_NAN},
      {ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST, UR_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_NEAREST},
      {ZE_DEVICE_FP_FLAG_ROUND_TO_ZERO, UR_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_ZERO},
      {ZE_DEVICE_FP_FLAG_ROUND_TO_INF, UR_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_INF},
      {ZE_DEVICE_FP_FLAG_FMA, UR_DEVICE_FP_CAPABILITY_FLAG_FMA},
      {ZE_DEVICE_FP_FLAG_ROUNDED_DIVIDE_SQRT, UR_DEVICE_FP_CAPABILITY_FLAG_CORRECTLY_ROUNDED_DIVIDE_SQRT},
      {ZE_DEVICE_FP_FLAG_SOFT_FLOAT, UR_DEVICE_FP_CAPABILITY_FLAG_SOFT_FLOAT},
  };
  ur_device_fp_capability_flags_t ur = 0;
  for (const Pair &p : pairs)
    if (ze & p.ze) ur |= p.ur;
  return ur;
}

// Level Zero's memory access capability bits are UR's USM access capability bits, one for one.
constexpr bool same_bit(int ze, int ur) { return ze == ur; }
static_assert(same_bit(ZE_MEMORY_ACCESS_CAP_FLAG_RW, UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ACCESS) &&
              same_bit(ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC, UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ATOMIC_ACCESS) &&
              same_bit(ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT, UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_CONCURRENT_ACCESS) &&
              same_bit(ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT_ATOMIC,
                       UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ATOMIC_CONCURRENT_ACCESS));
InfoValue usm_access(ze_memory_access_cap_flags_t caps) {
  return info_of<ur_device_usm_access_capability_flags_t>(caps & 0xfu);
}

// The OpenCL extension names SYCL reads aspects from, for what the device reports.
std::string extensions(const Device &d) {
  const ze_device_module_flags_t flags = d.module().flags;
  std::string list = "cl_khr_subgroups cl_intel_subgroups cl_intel_required_subgroup_size cl_khr_il_program";
  if (flags & ZE_DEVICE_MODULE_FLAG_FP16) list += " cl_khr_fp16";
  if (flags & ZE_DEVICE_MODULE_FLAG_FP64) list += " cl_khr_fp64";
  if (flags & ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS) list += " cl_khr_int64_base_atomics cl_khr_int64_extended_atomics";
  return list;
}

constexpr ur_memory_order_capability_flags_t kOrders =
    UR_MEMORY_ORDER_CAPABILITY_FLAG_RELAXED | UR_MEMORY_ORDER_CAPABILITY_FLAG_ACQUIRE |
    UR_MEMORY_ORDER_CAPABILITY_FLAG_RELEASE | UR_MEMORY_ORDER_CAPABILITY_FLAG_ACQ_REL |
    UR_MEMORY_ORDER_CAPABILITY_FLAG_SEQ_CST;
constexpr ur_memory_scope_capability_flags_t kScopes =
    UR_MEMORY_SCOPE_CAPABILITY_FLAG_WORK_ITEM | UR_MEMORY_SCOPE_CAPABILITY_FLAG_SUB_GROUP |
    UR_MEMORY_SCOPE_CAPABILITY_FLAG_WORK_GROUP | UR_MEMORY_SCOPE_CAPABILITY_FLAG_DEVICE |
    UR_MEMORY_SCOPE_CAPABILITY_FLAG_SYSTEM;
constexpr ur_queue_flags_t kQueueFlags = UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE | UR_QUEUE_FLAG_PROFILING_ENABLE;

// A vector width in elements of 128 bits.
template <uint32_t N>
Result<InfoValue> elements(const Device &) {
  return info_of<uint32_t>(N);
}
Result<InfoValue> half_elements(const Device &d) {
  auto fp16 = zeal_fact<uint32_t>(d, ZEAL_DEVICE_INFO_HAS_FP16);
  if (!fp16.ok()) return std::move(fp16).error();
  return info_of<uint32_t>(fp16.value() != 0 ? 8 : 0);
}
Result<InfoValue> no(const Device &) { return ur_bool(false); }
Result<InfoValue> yes(const Device &) { return ur_bool(true); }
// The largest cache the driver reports (Level Zero lists caches, not levels); 0 when it reports none.
Result<InfoValue> cache_size(const Device &d) {
  uint32_t count = 0;
  if (zeDeviceGetCacheProperties(d.ze(), &count, nullptr) != ZE_RESULT_SUCCESS || count == 0)
    return info_of<uint64_t>(0);
  ze_device_cache_properties_t blank{};
  blank.stype = ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES;
  std::vector<ze_device_cache_properties_t> caches(count, blank);
  if (zeDeviceGetCacheProperties(d.ze(), &count, caches.data()) != ZE_RESULT_SUCCESS) return info_of<uint64_t>(0);
  uint64_t largest = 0;
  for (uint32_t i = 0; i < count; ++i) largest = std::max<uint64_t>(largest, caches[i].cacheSize);
  return info_of<uint64_t>(largest);
}

// Level Zero's sub-devices are UR's partition by affinity domain (NUMA, or the next partitionable domain,
// which is NUMA), as in Intel's adapter: a device with two or more can be partitioned, into all of them.
// Level Zero fixes sub-devices when the driver starts, so partitions of chosen sizes (EQUALLY, BY_COUNTS)
// cannot be made.
constexpr ur_device_affinity_domain_flags_t kDomains =
    UR_DEVICE_AFFINITY_DOMAIN_FLAG_NUMA | UR_DEVICE_AFFINITY_DOMAIN_FLAG_NEXT_PARTITIONABLE;
constexpr ur_device_partition_property_t kSubDeviceProperty{
    UR_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, {.affinity_domain = UR_DEVICE_AFFINITY_DOMAIN_FLAG_NUMA}};
bool partitionable(const Device &d) { return d.sub_devices().size() >= 2; }

using Row = UrInfoRow<Device, ur_device_info_t>;
using R = Result<InfoValue>;

// Every key the device can answer truthfully; the others are UNSUPPORTED_ENUMERATION (answer_ur_info).
const Row kDeviceInfo[] = {
    {UR_DEVICE_INFO_TYPE, "TYPE", [](const Device &d) -> R { return info_of(device_type(d)); }},
    {UR_DEVICE_INFO_VENDOR_ID, "VENDOR_ID", [](const Device &d) -> R { return same_as_zeal(d, ZEAL_DEVICE_INFO_VENDOR_ID); }},
    {UR_DEVICE_INFO_DEVICE_ID, "DEVICE_ID", [](const Device &d) -> R { return info_of<uint32_t>(d.properties().deviceId); }},
    {UR_DEVICE_INFO_MAX_COMPUTE_UNITS, "MAX_COMPUTE_UNITS",
     [](const Device &d) -> R { return same_as_zeal(d, ZEAL_DEVICE_INFO_MAX_COMPUTE_UNITS); }},
    {UR_DEVICE_INFO_NUM_COMPUTE_UNITS, "NUM_COMPUTE_UNITS",
     [](const Device &d) -> R { return same_as_zeal(d, ZEAL_DEVICE_INFO_MAX_COMPUTE_UNITS); }},
    {UR_DEVICE_INFO_MAX_WORK_ITEM_DIMENSIONS, "MAX_WORK_ITEM_DIMENSIONS",
     [](const Device &) -> R { return info_of<uint32_t>(3); }},
    {UR_DEVICE_INFO_MAX_WORK_ITEM_SIZES, "MAX_WORK_ITEM_SIZES",
     [](const Device &d) -> R { return same_as_zeal(d, ZEAL_DEVICE_INFO_MAX_WORK_ITEM_SIZES); }},
    {UR_DEVICE_INFO_MAX_WORK_GROUP_SIZE, "MAX_WORK_GROUP_SIZE",
     [](const Device &d) -> R { return same_as_zeal(d, ZEAL_DEVICE_INFO_MAX_WORK_GROUP_SIZE); }},
    {UR_DEVICE_INFO_MAX_WORK_GROUPS_3D, "MAX_WORK_GROUPS_3D",
     [](const Device &d) -> R { return same_as_zeal(d, ZEAL_DEVICE_INFO_MAX_GROUP_COUNT); }},
    {UR_DEVICE_INFO_SINGLE_FP_CONFIG, "SINGLE_FP_CONFIG",
     [](const Device &d) -> R { return info_of(fp_capabilities(d.module().fp32flags)); }},
    {UR_DEVICE_INFO_HALF_FP_CONFIG, "HALF_FP_CONFIG",
     [](const Device &d) -> R { return info_of(fp_capabilities(d.module().fp16flags)); }},
    {UR_DEVICE_INFO_DOUBLE_FP_CONFIG, "DOUBLE_FP_CONFIG",
     [](const Device &d) -> R { return info_of(fp_capabilities(d.module().fp64flags)); }},
    {UR_DEVICE_INFO_QUEUE_PROPERTIES, "QUEUE_PROPERTIES", [](const Device &) -> R { return info_of(kQueueFlags); }},
    {UR_DEVICE_INFO_QUEUE_ON_HOST_PROPERTIES, "QUEUE_ON_HOST_PROPERTIES",
     [](const Device &) -> R { return info_of(kQueueFlags); }},
    {UR_DEVICE_INFO_QUEUE_ON_DEVICE_PROPERTIES, "QUEUE_ON_DEVICE_PROPERTIES",
     [](const Device &) -> R { return info_of<ur_queue_flags_t>(0); }},
    {UR_DEVICE_INFO_MAX_CLOCK_FREQUENCY, "MAX_CLOCK_FREQUENCY",
     [](const Device &d) -> R { return info_of<uint32_t>(d.properties().coreClockRate); }},
    {UR_DEVICE_INFO_ADDRESS_BITS, "ADDRESS_BITS", [](const Device &) -> R { return info_of<uint32_t>(64); }},
    // Intel's "GPU" geometry keys, as the Level Zero driver reports its device (the CPU driver: one slice of one
    // subslice, an EU per thread of the device).
    {UR_DEVICE_INFO_GPU_EU_COUNT, "GPU_EU_COUNT",
     [](const Device &d) -> R {
       const auto &p = d.properties();
       return info_of<uint32_t>(p.numSlices * p.numSubslicesPerSlice * p.numEUsPerSubslice);
     }},
    {UR_DEVICE_INFO_GPU_EU_SIMD_WIDTH, "GPU_EU_SIMD_WIDTH",
     [](const Device &d) -> R { return info_of<uint32_t>(d.properties().physicalEUSimdWidth); }},
    {UR_DEVICE_INFO_GPU_EU_SLICES, "GPU_EU_SLICES", [](const Device &d) -> R { return info_of<uint32_t>(d.properties().numSlices); }},
    {UR_DEVICE_INFO_GPU_EU_COUNT_PER_SUBSLICE, "GPU_EU_COUNT_PER_SUBSLICE",
     [](const Device &d) -> R { return info_of<uint32_t>(d.properties().numEUsPerSubslice); }},
    {UR_DEVICE_INFO_GPU_SUBSLICES_PER_SLICE, "GPU_SUBSLICES_PER_SLICE",
     [](const Device &d) -> R { return info_of<uint32_t>(d.properties().numSubslicesPerSlice); }},
    {UR_DEVICE_INFO_GPU_HW_THREADS_PER_EU, "GPU_HW_THREADS_PER_EU",
     [](const Device &d) -> R { return info_of<uint32_t>(d.properties().numThreadsPerEU); }},
    {UR_DEVICE_INFO_MAX_MEM_ALLOC_SIZE, "MAX_MEM_ALLOC_SIZE",
     [](const Device &d) -> R { return info_of<uint64_t>(d.properties().maxMemAllocSize); }},
    {UR_DEVICE_INFO_GLOBAL_MEM_SIZE, "GLOBAL_MEM_SIZE",
     [](const Device &d) -> R { return same_as_zeal(d, ZEAL_DEVICE_INFO_GLOBAL_MEM_SIZE); }},
    {UR_DEVICE_INFO_LOCAL_MEM_SIZE, "LOCAL_MEM_SIZE",
     [](const Device &d) -> R { return same_as_zeal(d, ZEAL_DEVICE_INFO_LOCAL_MEM_SIZE); }},
    // A CPU's local memory is ordinary memory; a GPU's is its own.
    {UR_DEVICE_INFO_LOCAL_MEM_TYPE, "LOCAL_MEM_TYPE",
     [](const Device &d) -> R {
       return info_of(d.properties().type == ZE_DEVICE_TYPE_CPU ? UR_DEVICE_LOCAL_MEM_TYPE_GLOBAL
                                                                : UR_DEVICE_LOCAL_MEM_TYPE_LOCAL);
     }},
    {UR_DEVICE_INFO_MAX_PARAMETER_SIZE, "MAX_PARAMETER_SIZE",
     [](const Device &d) -> R { return info_of<size_t>(d.module().maxArgumentsSize); }},
    {UR_DEVICE_INFO_PRINTF_BUFFER_SIZE, "PRINTF_BUFFER_SIZE",
     [](const Device &d) -> R { return info_of<size_t>(d.module().printfBufferSize); }},
    {UR_DEVICE_INFO_IMAGE_SUPPORT, "IMAGE_SUPPORT", [](const Device &d) -> R { return ur_bool(d.has_images()); }},
    {UR_DEVICE_INFO_ERROR_CORRECTION_SUPPORT, "ERROR_CORRECTION_SUPPORT",
     [](const Device &d) -> R { return ur_bool(d.properties().flags & ZE_DEVICE_PROPERTY_FLAG_ECC); }},
    {UR_DEVICE_INFO_HOST_UNIFIED_MEMORY, "HOST_UNIFIED_MEMORY",
     [](const Device &d) -> R { return ur_bool(d.properties().flags & ZE_DEVICE_PROPERTY_FLAG_INTEGRATED); }},
    {UR_DEVICE_INFO_ENDIAN_LITTLE, "ENDIAN_LITTLE", [](const Device &) -> R { return ur_bool(true); }},
    {UR_DEVICE_INFO_AVAILABLE, "AVAILABLE", [](const Device &) -> R { return ur_bool(true); }},
    {UR_DEVICE_INFO_COMPILER_AVAILABLE, "COMPILER_AVAILABLE", [](const Device &) -> R { return ur_bool(true); }},
    {UR_DEVICE_INFO_LINKER_AVAILABLE, "LINKER_AVAILABLE", [](const Device &) -> R { return ur_bool(true); }},
    {UR_DEVICE_INFO_EXECUTION_CAPABILITIES, "EXECUTION_CAPABILITIES",
     [](const Device &) -> R { return info_of<ur_device_exec_capability_flags_t>(UR_DEVICE_EXEC_CAPABILITY_FLAG_KERNEL); }},
    {UR_DEVICE_INFO_BUILT_IN_KERNELS, "BUILT_IN_KERNELS", [](const Device &) -> R { return info_string(""); }},
    {UR_DEVICE_INFO_PLATFORM, "PLATFORM",
     [](const Device &d) -> R { return info_of(to_ur<ur_platform_handle_t>(&d.platform())); }},
    {UR_DEVICE_INFO_REFERENCE_COUNT, "REFERENCE_COUNT",
     [](const Device &d) -> R { return info_of<uint32_t>(d.ref_count()); }},
    {UR_DEVICE_INFO_IL_VERSION, "IL_VERSION", [](const Device &d) -> R { return same_as_zeal(d, ZEAL_DEVICE_INFO_IL_VERSIONS); }},
    {UR_DEVICE_INFO_NAME, "NAME", [](const Device &d) -> R { return same_as_zeal(d, ZEAL_DEVICE_INFO_NAME); }},
    {UR_DEVICE_INFO_VENDOR, "VENDOR", [](const Device &d) -> R { return same_as_zeal(d, ZEAL_DEVICE_INFO_VENDOR); }},
    {UR_DEVICE_INFO_DRIVER_VERSION, "DRIVER_VERSION",
     [](const Device &d) -> R { return same_as_zeal(d, ZEAL_DEVICE_INFO_DRIVER_VERSION); }},
    {UR_DEVICE_INFO_PROFILE, "PROFILE", [](const Device &) -> R { return info_string("FULL_PROFILE"); }},
    // The Level Zero API version the device's driver implements: what a Level Zero device "is a version of".
    {UR_DEVICE_INFO_VERSION, "VERSION", [](const Device &d) -> R { return same_as_zeal(d, ZEAL_DEVICE_INFO_BACKEND_VERSION); }},
    {UR_DEVICE_INFO_BACKEND_RUNTIME_VERSION, "BACKEND_RUNTIME_VERSION",
     [](const Device &d) -> R { return same_as_zeal(d, ZEAL_DEVICE_INFO_BACKEND_VERSION); }},
    {UR_DEVICE_INFO_EXTENSIONS, "EXTENSIONS", [](const Device &d) -> R { return info_string(extensions(d)); }},
    {UR_DEVICE_INFO_PARENT_DEVICE, "PARENT_DEVICE",
     [](const Device &d) -> R {
       return info_of(d.parent() == nullptr ? nullptr : to_ur<ur_device_handle_t>(d.parent()));
     }},
    {UR_DEVICE_INFO_SUPPORTED_PARTITIONS, "SUPPORTED_PARTITIONS",
     [](const Device &d) -> R {
       if (!partitionable(d)) return InfoValue{};
       const ur_device_partition_t by_domain = UR_DEVICE_PARTITION_BY_AFFINITY_DOMAIN;
       return info_array(std::span(&by_domain, 1));
     }},
    {UR_DEVICE_INFO_PARTITION_MAX_SUB_DEVICES, "PARTITION_MAX_SUB_DEVICES",
     [](const Device &d) -> R { return info_of<uint32_t>(partitionable(d) ? d.sub_devices().size() : 0); }},
    {UR_DEVICE_INFO_PARTITION_AFFINITY_DOMAIN, "PARTITION_AFFINITY_DOMAIN",
     [](const Device &d) -> R { return info_of<ur_device_affinity_domain_flags_t>(partitionable(d) ? kDomains : 0); }},
    {UR_DEVICE_INFO_PARTITION_TYPE, "PARTITION_TYPE",
     [](const Device &d) -> R {
       if (d.parent() == nullptr) return InfoValue{};
       return info_of(kSubDeviceProperty);
     }},
    {UR_DEVICE_INFO_MAX_NUM_SUB_GROUPS, "MAX_NUM_SUB_GROUPS",
     [](const Device &d) -> R { return same_as_zeal(d, ZEAL_DEVICE_INFO_MAX_NUM_SUB_GROUPS); }},
    {UR_DEVICE_INFO_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, "SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS",
     [](const Device &d) -> R { return bool_from_zeal(d, ZEAL_DEVICE_INFO_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS); }},
    {UR_DEVICE_INFO_SUB_GROUP_SIZES_INTEL, "SUB_GROUP_SIZES_INTEL",
     [](const Device &d) -> R { return same_as_zeal(d, ZEAL_DEVICE_INFO_SUB_GROUP_SIZES); }},
    {UR_DEVICE_INFO_USM_HOST_SUPPORT, "USM_HOST_SUPPORT",
     [](const Device &d) -> R { return usm_access(d.memory_access().hostAllocCapabilities); }},
    {UR_DEVICE_INFO_USM_DEVICE_SUPPORT, "USM_DEVICE_SUPPORT",
     [](const Device &d) -> R { return usm_access(d.memory_access().deviceAllocCapabilities); }},
    {UR_DEVICE_INFO_USM_SINGLE_SHARED_SUPPORT, "USM_SINGLE_SHARED_SUPPORT",
     [](const Device &d) -> R { return usm_access(d.memory_access().sharedSingleDeviceAllocCapabilities); }},
    {UR_DEVICE_INFO_USM_CROSS_SHARED_SUPPORT, "USM_CROSS_SHARED_SUPPORT",
     [](const Device &d) -> R { return usm_access(d.memory_access().sharedCrossDeviceAllocCapabilities); }},
    {UR_DEVICE_INFO_USM_SYSTEM_SHARED_SUPPORT, "USM_SYSTEM_SHARED_SUPPORT",
     [](const Device &d) -> R { return usm_access(d.memory_access().sharedSystemAllocCapabilities); }},
    {UR_DEVICE_INFO_UUID, "UUID", [](const Device &d) -> R { return same_as_zeal(d, ZEAL_DEVICE_INFO_UUID); }},
    {UR_DEVICE_INFO_ATOMIC_64, "ATOMIC_64", [](const Device &d) -> R { return bool_from_zeal(d, ZEAL_DEVICE_INFO_HAS_ATOMIC64); }},
    {UR_DEVICE_INFO_ATOMIC_MEMORY_ORDER_CAPABILITIES, "ATOMIC_MEMORY_ORDER_CAPABILITIES",
     [](const Device &) -> R { return info_of(kOrders); }},
    {UR_DEVICE_INFO_ATOMIC_MEMORY_SCOPE_CAPABILITIES, "ATOMIC_MEMORY_SCOPE_CAPABILITIES",
     [](const Device &) -> R { return info_of(kScopes); }},
    {UR_DEVICE_INFO_ATOMIC_FENCE_ORDER_CAPABILITIES, "ATOMIC_FENCE_ORDER_CAPABILITIES",
     [](const Device &) -> R { return info_of(kOrders); }},
    {UR_DEVICE_INFO_ATOMIC_FENCE_SCOPE_CAPABILITIES, "ATOMIC_FENCE_SCOPE_CAPABILITIES",
     [](const Device &) -> R { return info_of(kScopes); }},
    {UR_DEVICE_INFO_MAX_COMPUTE_QUEUE_INDICES, "MAX_COMPUTE_QUEUE_INDICES",
     [](const Device &) -> R { return info_of<uint32_t>(1); }},
    {UR_DEVICE_INFO_KERNEL_SET_SPECIALIZATION_CONSTANTS, "KERNEL_SET_SPECIALIZATION_CONSTANTS",
     [](const Device &) -> R { return ur_bool(false); }},
    {UR_DEVICE_INFO_PROGRAM_SET_SPECIALIZATION_CONSTANTS, "PROGRAM_SET_SPECIALIZATION_CONSTANTS",
     [](const Device &) -> R { return ur_bool(true); }},
    {UR_DEVICE_INFO_BUILD_ON_SUBDEVICE, "BUILD_ON_SUBDEVICE", [](const Device &) -> R { return ur_bool(false); }},
    {UR_DEVICE_INFO_IMAGE_SRGB, "IMAGE_SRGB", [](const Device &) -> R { return ur_bool(false); }},
    {UR_DEVICE_INFO_ASYNC_BARRIER, "ASYNC_BARRIER", [](const Device &) -> R { return ur_bool(false); }},
    {UR_DEVICE_INFO_MEM_CHANNEL_SUPPORT, "MEM_CHANNEL_SUPPORT", [](const Device &) -> R { return ur_bool(false); }},
    {UR_DEVICE_INFO_HOST_PIPE_READ_WRITE_SUPPORT, "HOST_PIPE_READ_WRITE_SUPPORT",
     [](const Device &) -> R { return ur_bool(false); }},
    {UR_DEVICE_INFO_VIRTUAL_MEMORY_SUPPORT, "VIRTUAL_MEMORY_SUPPORT", yes}, // adapter/ur/virtual_memory.cpp
    {UR_DEVICE_INFO_ESIMD_SUPPORT, "ESIMD_SUPPORT", [](const Device &) -> R { return ur_bool(false); }},
    {UR_DEVICE_INFO_USM_POOL_SUPPORT, "USM_POOL_SUPPORT", yes}, // adapter/core/usm_pool.hpp
    {UR_DEVICE_INFO_USE_NATIVE_ASSERT, "USE_NATIVE_ASSERT", [](const Device &) -> R { return ur_bool(false); }},
    {UR_DEVICE_INFO_BFLOAT16_CONVERSIONS_NATIVE, "BFLOAT16_CONVERSIONS_NATIVE",
     [](const Device &) -> R { return ur_bool(false); }},
    // Vector widths: Level Zero does not report them; zeal answers the 128-bit vectors every device it serves
    // has (SSE2 on any x86-64, a GRF lane group on Intel GPUs), in elements, and 0 for half without FP16.
    {UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_CHAR, "PREFERRED_VECTOR_WIDTH_CHAR", elements<16>},
    {UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_SHORT, "PREFERRED_VECTOR_WIDTH_SHORT", elements<8>},
    {UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_INT, "PREFERRED_VECTOR_WIDTH_INT", elements<4>},
    {UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_LONG, "PREFERRED_VECTOR_WIDTH_LONG", elements<2>},
    {UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_FLOAT, "PREFERRED_VECTOR_WIDTH_FLOAT", elements<4>},
    {UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_DOUBLE, "PREFERRED_VECTOR_WIDTH_DOUBLE", elements<2>},
    {UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_HALF, "PREFERRED_VECTOR_WIDTH_HALF", half_elements},
    {UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_LONG_LONG, "PREFERRED_VECTOR_WIDTH_LONG_LONG", elements<2>},
    {UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_CHAR, "NATIVE_VECTOR_WIDTH_CHAR", elements<16>},
    {UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_SHORT, "NATIVE_VECTOR_WIDTH_SHORT", elements<8>},
    {UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_INT, "NATIVE_VECTOR_WIDTH_INT", elements<4>},
    {UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_LONG, "NATIVE_VECTOR_WIDTH_LONG", elements<2>},
    {UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_FLOAT, "NATIVE_VECTOR_WIDTH_FLOAT", elements<4>},
    {UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_DOUBLE, "NATIVE_VECTOR_WIDTH_DOUBLE", elements<2>},
    {UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_HALF, "NATIVE_VECTOR_WIDTH_HALF", half_elements},
    {UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_LONG_LONG, "NATIVE_VECTOR_WIDTH_LONG_LONG", elements<2>},
    {UR_DEVICE_INFO_PROFILING_TIMER_RESOLUTION, "PROFILING_TIMER_RESOLUTION",
     [](const Device &d) -> R { return info_of<size_t>(std::max<uint64_t>(d.properties().timerResolution, 1)); }},
    {UR_DEVICE_INFO_PREFERRED_INTEROP_USER_SYNC, "PREFERRED_INTEROP_USER_SYNC",
     [](const Device &) -> R { return ur_bool(true); }},
    // In bits, as OpenCL's CL_DEVICE_MEM_BASE_ADDR_ALIGN: buffers (and views at multiples of it) are 128-byte aligned.
    {UR_DEVICE_INFO_MEM_BASE_ADDR_ALIGN, "MEM_BASE_ADDR_ALIGN", [](const Device &) -> R { return info_of<uint32_t>(128 * 8); }},
    // The driver's image limits, all 0 on a device without images (IMAGE_SUPPORT false). Read-write image
    // arguments are written ones too.
    {UR_DEVICE_INFO_MAX_READ_IMAGE_ARGS, "MAX_READ_IMAGE_ARGS",
     [](const Device &d) -> R { return info_of<uint32_t>(d.image().maxReadImageArgs); }},
    {UR_DEVICE_INFO_MAX_WRITE_IMAGE_ARGS, "MAX_WRITE_IMAGE_ARGS",
     [](const Device &d) -> R { return info_of<uint32_t>(d.image().maxWriteImageArgs); }},
    {UR_DEVICE_INFO_MAX_READ_WRITE_IMAGE_ARGS, "MAX_READ_WRITE_IMAGE_ARGS",
     [](const Device &d) -> R { return info_of<uint32_t>(d.image().maxWriteImageArgs); }},
    {UR_DEVICE_INFO_MAX_SAMPLERS, "MAX_SAMPLERS",
     [](const Device &d) -> R { return info_of<uint32_t>(d.image().maxSamplers); }},
    {UR_DEVICE_INFO_IMAGE2D_MAX_WIDTH, "IMAGE2D_MAX_WIDTH",
     [](const Device &d) -> R { return info_of<size_t>(d.image().maxImageDims2D); }},
    {UR_DEVICE_INFO_IMAGE2D_MAX_HEIGHT, "IMAGE2D_MAX_HEIGHT",
     [](const Device &d) -> R { return info_of<size_t>(d.image().maxImageDims2D); }},
    {UR_DEVICE_INFO_IMAGE3D_MAX_WIDTH, "IMAGE3D_MAX_WIDTH",
     [](const Device &d) -> R { return info_of<size_t>(d.image().maxImageDims3D); }},
    {UR_DEVICE_INFO_IMAGE3D_MAX_HEIGHT, "IMAGE3D_MAX_HEIGHT",
     [](const Device &d) -> R { return info_of<size_t>(d.image().maxImageDims3D); }},
    {UR_DEVICE_INFO_IMAGE3D_MAX_DEPTH, "IMAGE3D_MAX_DEPTH",
     [](const Device &d) -> R { return info_of<size_t>(d.image().maxImageDims3D); }},
    {UR_DEVICE_INFO_IMAGE_MAX_BUFFER_SIZE, "IMAGE_MAX_BUFFER_SIZE",
     [](const Device &d) -> R { return info_of<size_t>(d.image().maxImageBufferSize); }},
    {UR_DEVICE_INFO_IMAGE_MAX_ARRAY_SIZE, "IMAGE_MAX_ARRAY_SIZE",
     [](const Device &d) -> R { return info_of<size_t>(d.image().maxImageArraySlices); }},
    {UR_DEVICE_INFO_MAX_WORK_GROUPS, "MAX_WORK_GROUPS",
     [](const Device &d) -> R {
       const auto &c = d.compute();
       uint64_t total = uint64_t{c.maxGroupCountX} * c.maxGroupCountY * c.maxGroupCountZ;
       return info_of<size_t>(static_cast<size_t>(std::min<uint64_t>(total, SIZE_MAX)));
     }},
    // Constant memory is global memory on these devices: one allocation's worth, any number of arguments.
    {UR_DEVICE_INFO_MAX_CONSTANT_BUFFER_SIZE, "MAX_CONSTANT_BUFFER_SIZE",
     [](const Device &d) -> R { return info_of<uint64_t>(d.properties().maxMemAllocSize); }},
    {UR_DEVICE_INFO_MAX_CONSTANT_ARGS, "MAX_CONSTANT_ARGS", [](const Device &) -> R { return info_of<uint32_t>(8); }},
    {UR_DEVICE_INFO_KERNEL_LAUNCH_CAPABILITIES, "KERNEL_LAUNCH_CAPABILITIES",
     [](const Device &) -> R {
       return info_of<ur_kernel_launch_properties_flags_t>(UR_KERNEL_LAUNCH_PROPERTIES_FLAG_COOPERATIVE |
                                                           UR_KERNEL_LAUNCH_PROPERTIES_FLAG_OPPORTUNISTIC_QUEUE_SERIALIZE);
     }},
    {UR_DEVICE_INFO_GLOBAL_VARIABLE_SUPPORT, "GLOBAL_VARIABLE_SUPPORT", [](const Device &) -> R { return ur_bool(true); }},
    {UR_DEVICE_INFO_GLOBAL_MEM_CACHE_TYPE, "GLOBAL_MEM_CACHE_TYPE",
     [](const Device &) -> R { return info_of(UR_DEVICE_MEM_CACHE_TYPE_READ_WRITE_CACHE); }},
    {UR_DEVICE_INFO_GLOBAL_MEM_CACHELINE_SIZE, "GLOBAL_MEM_CACHELINE_SIZE",
     [](const Device &) -> R { return info_of<uint32_t>(64); }},
    {UR_DEVICE_INFO_GLOBAL_MEM_CACHE_SIZE, "GLOBAL_MEM_CACHE_SIZE", [](const Device &d) -> R { return cache_size(d); }},
    // Command buffers (adapter/core/command_buffer.hpp): launches and events are updated by recording the list again,
    // which any Level Zero driver allows.
    {UR_DEVICE_INFO_COMMAND_BUFFER_SUPPORT_EXP, "COMMAND_BUFFER_SUPPORT_EXP", yes},
    {UR_DEVICE_INFO_COMMAND_BUFFER_UPDATE_CAPABILITIES_EXP, "COMMAND_BUFFER_UPDATE_CAPABILITIES_EXP",
     [](const Device &) -> R {
       return info_of<ur_device_command_buffer_update_capability_flags_t>(
           UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_KERNEL_ARGUMENTS |
           UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_LOCAL_WORK_SIZE |
           UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_GLOBAL_WORK_SIZE |
           UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_GLOBAL_WORK_OFFSET |
           UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_KERNEL_HANDLE |
           UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_EVENTS);
     }},
    {UR_DEVICE_INFO_COMMAND_BUFFER_EVENT_SUPPORT_EXP, "COMMAND_BUFFER_EVENT_SUPPORT_EXP", yes},
    // Experimental features zeal does not implement: each answers false, so callers (and UR's tests) see them absent.
    {UR_DEVICE_INFO_COMMAND_BUFFER_SUBGRAPH_SUPPORT_EXP, "COMMAND_BUFFER_SUBGRAPH_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_BINDLESS_IMAGES_SUPPORT_EXP, "BINDLESS_IMAGES_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_BINDLESS_IMAGES_SHARED_USM_SUPPORT_EXP, "BINDLESS_IMAGES_SHARED_USM_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_BINDLESS_IMAGES_1D_USM_SUPPORT_EXP, "BINDLESS_IMAGES_1D_USM_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_BINDLESS_IMAGES_2D_USM_SUPPORT_EXP, "BINDLESS_IMAGES_2D_USM_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_MIPMAP_SUPPORT_EXP, "MIPMAP_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_MIPMAP_ANISOTROPY_SUPPORT_EXP, "MIPMAP_ANISOTROPY_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_MIPMAP_LEVEL_REFERENCE_SUPPORT_EXP, "MIPMAP_LEVEL_REFERENCE_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_EXTERNAL_MEMORY_IMPORT_SUPPORT_EXP, "EXTERNAL_MEMORY_IMPORT_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_EXTERNAL_SEMAPHORE_IMPORT_SUPPORT_EXP, "EXTERNAL_SEMAPHORE_IMPORT_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_CUBEMAP_SUPPORT_EXP, "CUBEMAP_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_CUBEMAP_SEAMLESS_FILTERING_SUPPORT_EXP, "CUBEMAP_SEAMLESS_FILTERING_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_1D_USM_SUPPORT_EXP, "BINDLESS_SAMPLED_IMAGE_FETCH_1D_USM_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_1D_SUPPORT_EXP, "BINDLESS_SAMPLED_IMAGE_FETCH_1D_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_2D_USM_SUPPORT_EXP, "BINDLESS_SAMPLED_IMAGE_FETCH_2D_USM_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_2D_SUPPORT_EXP, "BINDLESS_SAMPLED_IMAGE_FETCH_2D_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_3D_SUPPORT_EXP, "BINDLESS_SAMPLED_IMAGE_FETCH_3D_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_TIMESTAMP_RECORDING_SUPPORT_EXP, "TIMESTAMP_RECORDING_SUPPORT_EXP", yes}, // Queue::record_timestamp
    {UR_DEVICE_INFO_IMAGE_ARRAY_SUPPORT_EXP, "IMAGE_ARRAY_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_BINDLESS_UNIQUE_ADDRESSING_PER_DIM_SUPPORT_EXP, "BINDLESS_UNIQUE_ADDRESSING_PER_DIM_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_BINDLESS_SAMPLE_1D_USM_SUPPORT_EXP, "BINDLESS_SAMPLE_1D_USM_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_BINDLESS_SAMPLE_2D_USM_SUPPORT_EXP, "BINDLESS_SAMPLE_2D_USM_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_BINDLESS_IMAGES_GATHER_SUPPORT_EXP, "BINDLESS_IMAGES_GATHER_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_ENQUEUE_NATIVE_COMMAND_SUPPORT_EXP, "ENQUEUE_NATIVE_COMMAND_SUPPORT_EXP", yes},
    {UR_DEVICE_INFO_LOW_POWER_EVENTS_SUPPORT_EXP, "LOW_POWER_EVENTS_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_IPC_MEMORY_SUPPORT_EXP, "IPC_MEMORY_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_IPC_PHYSICAL_MEMORY_SUPPORT_EXP, "IPC_PHYSICAL_MEMORY_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_REUSABLE_EVENTS_SUPPORT_EXP, "REUSABLE_EVENTS_SUPPORT_EXP", yes},
    {UR_DEVICE_INFO_IPC_EVENT_SUPPORT_EXP, "IPC_EVENT_SUPPORT_EXP", yes},
    {UR_DEVICE_INFO_ASYNC_USM_ALLOCATIONS_SUPPORT_EXP, "ASYNC_USM_ALLOCATIONS_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_CLOCK_SUB_GROUP_SUPPORT_EXP, "CLOCK_SUB_GROUP_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_CLOCK_WORK_GROUP_SUPPORT_EXP, "CLOCK_WORK_GROUP_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_CLOCK_DEVICE_SUPPORT_EXP, "CLOCK_DEVICE_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_GRAPH_RECORD_AND_REPLAY_SUPPORT_EXP, "GRAPH_RECORD_AND_REPLAY_SUPPORT_EXP", yes},
    {UR_DEVICE_INFO_USM_HOST_ALLOC_REGISTER_SUPPORT_EXP, "USM_HOST_ALLOC_REGISTER_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_PER_EVENT_PROFILING_SUPPORT_EXP, "PER_EVENT_PROFILING_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_USM_P2P_SUPPORT_EXP, "USM_P2P_SUPPORT_EXP", yes}, // peer_* below
    {UR_DEVICE_INFO_MULTI_DEVICE_COMPILE_SUPPORT_EXP, "MULTI_DEVICE_COMPILE_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_DEVICE_WAIT_SUPPORT_EXP, "DEVICE_WAIT_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_DYNAMIC_LINK_SUPPORT_EXP, "DYNAMIC_LINK_SUPPORT_EXP", no},
    {UR_DEVICE_INFO_USM_CONTEXT_MEMCPY_SUPPORT_EXP, "USM_CONTEXT_MEMCPY_SUPPORT_EXP", yes},
    {UR_DEVICE_INFO_MEMORY_EXPORT_EXPORTABLE_DEVICE_MEM_EXP, "MEMORY_EXPORT_EXPORTABLE_DEVICE_MEM_EXP", no},
    // urEnqueueHostTaskExp works on every queue (Queue::host_task needs nothing of the driver but events).
    {UR_DEVICE_INFO_ENQUEUE_HOST_TASK_SUPPORT_EXP, "ENQUEUE_HOST_TASK_SUPPORT_EXP", yes},
    {UR_DEVICE_INFO_IS_INTEGRATED_GPU, "IS_INTEGRATED_GPU",
     [](const Device &d) -> R {
       return ur_bool(d.properties().type == ZE_DEVICE_TYPE_GPU && (d.properties().flags & ZE_DEVICE_PROPERTY_FLAG_INTEGRATED));
     }},
};

// The largest key of UR's enumeration this face was built with (what UR's validation layer checks too).
constexpr int32_t kLastDeviceKey = UR_DEVICE_INFO_ENQUEUE_HOST_TASK_SUPPORT_EXP;

ur_result_t device_get(ur_platform_handle_t handle, ur_device_type_t type, uint32_t entries,
                       ur_device_handle_t *devices, uint32_t *total) {
  return run([&]() -> Outcome {
    Platform *platform = nullptr;
    if (Outcome o = check_handle(handle, platform); !o.ok()) return o;
    const int32_t t = abi_value(type);
    if (t < UR_DEVICE_TYPE_DEFAULT || t > UR_DEVICE_TYPE_CUSTOM)
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("urDeviceGet: device type {} is not a ur_device_type_t", t));
    std::vector<Object *> matching;
    for (const auto &d : platform->devices())
      if (t == UR_DEVICE_TYPE_ALL || t == UR_DEVICE_TYPE_DEFAULT || device_type(*d) == t) matching.push_back(d.get());
    return list_handles(matching, entries, devices, total, "urDeviceGet");
  });
}

// A device's Level Zero sub-devices, the same handles at every call (UR asks that repeated calls give the same
// devices in the same order); NumDevices fewer than there are gives the first ones.
ur_result_t device_partition(ur_device_handle_t handle, const ur_device_partition_properties_t *properties,
                             uint32_t entries, ur_device_handle_t *sub_devices, uint32_t *total) {
  constexpr const char *entry = "urDevicePartition";
  return run([&]() -> Outcome {
    Device *device = nullptr;
    if (Outcome o = check_handle(handle, device); !o.ok()) return o;
    if (properties == nullptr || properties->pProperties == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urDevicePartition: pProperties or pProperties->pProperties is null");
    if (properties->PropCount != 1)
      return fail(UR_RESULT_ERROR_INVALID_VALUE,
                  fmt::format("{}: {} partition properties given; zeal partitions by one, its affinity domain", entry,
                              properties->PropCount));
    const ur_device_partition_property_t &p = properties->pProperties[0];
    if (p.type != UR_DEVICE_PARTITION_BY_AFFINITY_DOMAIN)
      return fail(UR_RESULT_ERROR_INVALID_VALUE,
                  fmt::format("{}: partition type {:#x} is not supported: device '{}' splits only by affinity domain "
                              "(NUMA or NEXT_PARTITIONABLE), into its Level Zero sub-devices",
                              entry, abi_value(p.type), device->name()));
    if (p.value.affinity_domain != UR_DEVICE_AFFINITY_DOMAIN_FLAG_NUMA &&
        p.value.affinity_domain != UR_DEVICE_AFFINITY_DOMAIN_FLAG_NEXT_PARTITIONABLE)
      return fail(UR_RESULT_ERROR_INVALID_VALUE,
                  fmt::format("{}: affinity domain {:#x} is not supported: device '{}' splits by NUMA or "
                              "NEXT_PARTITIONABLE only",
                              entry, p.value.affinity_domain, device->name()));
    if (!partitionable(*device))
      return fail(UR_RESULT_ERROR_DEVICE_PARTITION_FAILED,
                  fmt::format("{}: device '{}' cannot be partitioned: it has {} sub-devices, and a partition needs "
                              "two or more (ZEAL_CPU_SUBDEVICES splits zeal's CPU devices)",
                              entry, device->name(), device->sub_devices().size()));
    if (sub_devices == nullptr && total == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urDevicePartition: both phSubDevices and pNumDevicesRet are null");
    const auto &subs = device->sub_devices();
    if (sub_devices != nullptr)
      for (uint32_t i = 0; i < std::min<size_t>(entries, subs.size()); ++i)
        sub_devices[i] = to_ur<ur_device_handle_t>(subs[i].get());
    if (total != nullptr) *total = static_cast<uint32_t>(subs.size());
    return {};
  });
}

// Devices are made once per adapter: the one over that Level Zero device is found, so the same native handle
// always gives the same handle, as UR asks.
ur_result_t device_from_native(ur_native_handle_t native, ur_adapter_handle_t handle,
                               const ur_device_native_properties_t *, ur_device_handle_t *out) {
  return run([&]() -> Outcome {
    Adapter *adapter = nullptr;
    if (Outcome o = check_handle(handle, adapter); !o.ok()) return o;
    if (out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urDeviceCreateWithNativeHandle: phDevice is null");
    const auto found = [&](Device &d) {
      if (reinterpret_cast<ur_native_handle_t>(d.ze()) != native) return false;
      *out = to_ur<ur_device_handle_t>(&d);
      return true;
    };
    for (const auto &p : adapter->platforms())
      for (const auto &d : p->devices()) {
        if (found(*d)) return {};
        for (const auto &sub : d->sub_devices())
          if (found(*sub)) return {};
      }
    return fail(UR_RESULT_ERROR_INVALID_VALUE,
                fmt::format("urDeviceCreateWithNativeHandle: {:#x} is not the Level Zero device of any of zeal's "
                            "devices or sub-devices",
                            native));
  });
}

// Devices and sub-devices live as long as the adapter: retain and release only check the handle, as Intel's
// adapter does.
ur_result_t device_retain_or_release(ur_device_handle_t handle) {
  return run([&]() -> Outcome {
    Device *device = nullptr;
    return check_handle(handle, device);
  });
}

// The first SPIR-V image (spir64, then spir): every Level Zero device takes SPIR-V; native binaries are
// for one device only and the runtime chooses them itself.
ur_result_t device_select_binary(ur_device_handle_t handle, const ur_device_binary_t *binaries, uint32_t count,
                                 uint32_t *selected) {
  return run([&]() -> Outcome {
    Device *device = nullptr;
    if (Outcome o = check_handle(handle, device); !o.ok()) return o;
    if (binaries == nullptr || selected == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urDeviceSelectBinary: pBinaries or pSelectedBinary is null");
    if (count == 0) return fail(UR_RESULT_ERROR_INVALID_SIZE, "urDeviceSelectBinary: NumBinaries is 0");
    for (const char *target : {UR_DEVICE_BINARY_TARGET_SPIRV64, UR_DEVICE_BINARY_TARGET_SPIRV32}) {
      for (uint32_t i = 0; i < count; ++i) {
        if (binaries[i].pDeviceTargetSpec != nullptr && std::strcmp(binaries[i].pDeviceTargetSpec, target) == 0) {
          *selected = i;
          return {};
        }
      }
    }
    return fail(UR_RESULT_ERROR_INVALID_BINARY,
                fmt::format("none of the {} binaries is SPIR-V (spir64 or spir), which device '{}' needs", count,
                            device->name()));
  });
}

// Peer access (urUsmP2P*Exp): what Level Zero says of two devices (zeDeviceCanAccessPeer,
// zeDeviceGetP2PProperties). Level Zero needs no enabling, so enabling and disabling only check that the access
// exists, as Intel's adapter does.
Outcome peer_devices(ur_device_handle_t command, ur_device_handle_t peer, Device *&c, Device *&p) {
  if (Outcome o = check_handle(command, c); !o.ok()) return o;
  return check_handle(peer, p);
}

Result<bool> can_access_peer(const Device &command, const Device &peer) {
  ze_bool_t can = false;
  if (Status s = ze_check(zeDeviceCanAccessPeer(command.ze(), peer.ze(), &can), "zeDeviceCanAccessPeer",
                          fmt::format("devices '{}' and '{}'", command.name(), peer.name()));
      !s.ok())
    return std::move(s).error();
  return can != 0;
}

ur_result_t peer_info(ur_device_handle_t command, ur_device_handle_t peer, ur_exp_peer_info_t key, size_t size,
                      void *value, size_t *size_ret) {
  return run([&]() -> Outcome {
    Device *c = nullptr, *p = nullptr;
    if (Outcome o = peer_devices(command, peer, c, p); !o.ok()) return o;
    int answer = 0;
    if (key == UR_EXP_PEER_INFO_UR_PEER_ACCESS_SUPPORT) {
      auto can = can_access_peer(*c, *p);
      if (!can.ok()) return std::move(can).error();
      answer = can.value() ? 1 : 0;
    } else if (key == UR_EXP_PEER_INFO_UR_PEER_ATOMICS_SUPPORT) {
      ze_device_p2p_properties_t props{};
      props.stype = ZE_STRUCTURE_TYPE_DEVICE_P2P_PROPERTIES;
      if (Status s = ze_check(zeDeviceGetP2PProperties(c->ze(), p->ze(), &props), "zeDeviceGetP2PProperties",
                              fmt::format("devices '{}' and '{}'", c->name(), p->name()));
          !s.ok())
        return s;
      answer = (props.flags & ZE_DEVICE_P2P_PROPERTY_FLAG_ATOMICS) != 0 ? 1 : 0;
    } else {
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("urUsmP2PPeerAccessGetInfoExp: key {} is not a ur_exp_peer_info_t", abi_value(key)));
    }
    return write_ur_info(info_of(answer), size, value, size_ret, "peer access");
  });
}

ur_result_t peer_access(ur_device_handle_t command, ur_device_handle_t peer, const char *entry) {
  return run([&]() -> Outcome {
    Device *c = nullptr, *p = nullptr;
    if (Outcome o = peer_devices(command, peer, c, p); !o.ok()) return o;
    auto can = can_access_peer(*c, *p);
    if (!can.ok()) return std::move(can).error();
    if (!can.value())
      return fail(UR_RESULT_ERROR_INVALID_OPERATION,
                  fmt::format("{}: device '{}' cannot reach the memory of device '{}'", entry, c->name(), p->name()));
    return {};
  });
}

} // namespace

void implement(ur_device_dditable_t &t) {
  t.pfnGet = device_get;
  t.pfnGetInfo = [](ur_device_handle_t d, ur_device_info_t key, size_t size, void *value, size_t *size_ret) {
    return get_info<Device>(d, kDeviceInfo, kLastDeviceKey, key, size, value, size_ret,
                            [](const Device &device) { return "device '" + device.name() + "'"; });
  };
  t.pfnRetain = device_retain_or_release;
  t.pfnRelease = device_retain_or_release;
  t.pfnGetNativeHandle = native_entry<Device, "urDeviceGetNativeHandle">;
  t.pfnSelectBinary = device_select_binary;
  t.pfnPartition = device_partition;
  t.pfnCreateWithNativeHandle = device_from_native;
}

void implement(ur_usm_p2p_exp_dditable_t &t) {
  t.pfnEnablePeerAccessExp = [](ur_device_handle_t c, ur_device_handle_t p) {
    return peer_access(c, p, "urUsmP2PEnablePeerAccessExp");
  };
  t.pfnDisablePeerAccessExp = [](ur_device_handle_t c, ur_device_handle_t p) {
    return peer_access(c, p, "urUsmP2PDisablePeerAccessExp");
  };
  t.pfnPeerAccessGetInfoExp = peer_info;
}

} // namespace zeal::adapter::ur
