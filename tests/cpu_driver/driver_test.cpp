// The driver and its device as the loader sees them: properties, limits, unimplemented entry points.
#include "test_support.hpp"
#include "common/settings.hpp"
#include "zeal/ze_zeal_ext.h"
#include "tests/support/usable_cpus.hpp"

#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

namespace zeal::cpu::test {
namespace {

using DriverAndDevice = CpuDriver;

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return {};
}

TEST_F(DriverAndDevice, InitIsIdempotentAndReportsApiVersion14) {
  ZE_ASSERT_OK(zeInit(0));
  ze_api_version_t version{};
  ZE_ASSERT_OK(zeDriverGetApiVersion(driver, &version));
  EXPECT_EQ(ZE_API_VERSION_1_4, version);
}

TEST_F(DriverAndDevice, DriverPropertiesAreStable) {
  ze_driver_properties_t a{ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES, nullptr, {}, 0};
  ze_driver_properties_t b = a;
  ZE_ASSERT_OK(zeDriverGetProperties(driver, &a));
  ZE_ASSERT_OK(zeDriverGetProperties(driver, &b));
  EXPECT_EQ(0, std::memcmp(a.uuid.id, b.uuid.id, sizeof(a.uuid.id)));
  EXPECT_EQ(0, std::memcmp(a.uuid.id, "zeal-cpu-driver", 15));
  EXPECT_EQ(a.driverVersion, b.driverVersion);
}

// The kernel code cache is listed while it is on (ctest runs this test again with it off).
TEST_F(DriverAndDevice, ExactlyTheImplementedExtensionsAreListed) {
  const bool code_cache = zeal::settings().cache_persistent && zeal::settings().cpu_kernel_cache;
  uint32_t count = 0;
  ZE_ASSERT_OK(zeDriverGetExtensionProperties(driver, &count, nullptr));
  ASSERT_EQ(code_cache ? 11u : 10u, count);
  std::vector<ze_driver_extension_properties_t> extensions(count);
  ZE_ASSERT_OK(zeDriverGetExtensionProperties(driver, &count, extensions.data()));
  // In the order the driver lists them, the code cache last while it is on; each at its version 1.0 (what every
  // ..._VERSION_1_0 of these extensions is).
  const char *const names[] = {ZE_MODULE_PROGRAM_EXP_NAME,         ZE_LINKAGE_INSPECTION_EXT_NAME,
                               ZE_GLOBAL_OFFSET_EXP_NAME,          ZE_MEMORY_FREE_POLICIES_EXT_NAME,
                               ZE_KERNEL_SCHEDULING_HINTS_EXP_NAME, ZE_EVENT_QUERY_TIMESTAMPS_EXP_NAME,
                               ZE_IMAGE_COPY_EXT_NAME,             ZE_IMAGE_QUERY_ALLOC_PROPERTIES_EXT_NAME,
                               ZE_IMAGE_VIEW_EXP_NAME,             ZE_IMAGE_MEMORY_PROPERTIES_EXP_NAME,
                               ZE_ZEAL_KERNEL_CODE_CACHE_EXT_NAME};
  for (uint32_t i = 0; i < count; ++i) {
    EXPECT_STREQ(names[i], extensions[i].name) << "extension " << i;
    EXPECT_EQ(uint32_t(ZE_MAKE_VERSION(1, 0)), extensions[i].version) << names[i];
  }
}

TEST_F(DriverAndDevice, DeviceIsTheHostCpuNamedAfterItsModel) {
  ze_device_properties_t p{};
  p.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  ZE_ASSERT_OK(zeDeviceGetProperties(device, &p));
  EXPECT_EQ(ZE_DEVICE_TYPE_CPU, p.type);
  EXPECT_EQ(ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES, p.stype) << "the caller's header must survive";
  EXPECT_EQ("zeal CPU (host profile, " + cpu_model() + ")", std::string(p.name));
  const unsigned threads = zeal::test::usable_cpus();
  EXPECT_EQ(threads, p.numThreadsPerEU * p.numEUsPerSubslice * p.numSubslicesPerSlice * p.numSlices);
  EXPECT_GT(p.maxMemAllocSize, uint64_t{1} << 30);
  EXPECT_EQ(1u, p.timerResolution);

  ze_device_properties_t again{};
  again.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  ZE_ASSERT_OK(zeDeviceGetProperties(device, &again));
  EXPECT_EQ(0, std::memcmp(p.uuid.id, again.uuid.id, sizeof(p.uuid.id)));
}

TEST_F(DriverAndDevice, ComputeModuleAndMemoryPropertiesDescribeTheLimits) {
  ze_device_compute_properties_t c{};
  c.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
  ZE_ASSERT_OK(zeDeviceGetComputeProperties(device, &c));
  EXPECT_EQ(1024u, c.maxTotalGroupSize);
  EXPECT_EQ(1024u, c.maxGroupSizeX);
  EXPECT_GE(c.maxSharedLocalMemory, 32u * 1024);
  ASSERT_EQ(5u, c.numSubGroupSizes);
  EXPECT_EQ(4u, c.subGroupSizes[0]);
  EXPECT_EQ(64u, c.subGroupSizes[4]);

  ze_device_module_properties_t m{};
  m.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
  ZE_ASSERT_OK(zeDeviceGetModuleProperties(device, &m));
  EXPECT_EQ(ZE_MAKE_VERSION(1, 4), m.spirvVersionSupported);
  EXPECT_TRUE(m.fp64flags & ZE_DEVICE_FP_FLAG_FMA);
  EXPECT_GT(m.maxArgumentsSize, 0u);
  EXPECT_GT(m.printfBufferSize, 0u);

  uint32_t count = 0;
  ZE_ASSERT_OK(zeDeviceGetMemoryProperties(device, &count, nullptr));
  ASSERT_EQ(1u, count);
  ze_device_memory_properties_t mem{};
  mem.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
  ZE_ASSERT_OK(zeDeviceGetMemoryProperties(device, &count, &mem));
  EXPECT_GT(mem.totalSize, 0u);
}

TEST_F(DriverAndDevice, AComputeQueueGroupThatCopiesAndRunsCooperativeKernelsThenACopyOnlyOne) {
  uint32_t count = 0;
  ZE_ASSERT_OK(zeDeviceGetCommandQueueGroupProperties(device, &count, nullptr));
  ASSERT_EQ(2u, count);
  ze_command_queue_group_properties_t g[2] = {};
  for (auto &group : g) group.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
  ZE_ASSERT_OK(zeDeviceGetCommandQueueGroupProperties(device, &count, g));
  EXPECT_EQ(ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE | ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY |
                ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COOPERATIVE_KERNELS,
            g[0].flags);
  EXPECT_EQ(ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY, g[1].flags);
  for (const auto &group : g) {
    EXPECT_EQ(2u, group.numQueues) << "two engines of each kind";
    EXPECT_EQ(128u, group.maxMemoryFillPatternSize);
  }
  // A count of 1 gets the compute group alone.
  count = 1;
  ze_command_queue_group_properties_t first{};
  first.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
  ZE_ASSERT_OK(zeDeviceGetCommandQueueGroupProperties(device, &count, &first));
  EXPECT_EQ(1u, count);
  EXPECT_EQ(g[0].flags, first.flags);
}

// The host's data caches, L1 first: sysconf's levels, else the data and unified caches sysfs lists for cpu0.
std::vector<uint64_t> host_data_caches() {
  std::vector<uint64_t> sizes;
  for (int name : {_SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL4_CACHE_SIZE}) {
    long bytes = sysconf(name);
    if (bytes > 0) sizes.push_back(uint64_t(bytes));
  }
  std::map<int, uint64_t> by_level;
  for (int i = 0; sizes.empty(); ++i) {
    std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    std::ifstream level_in(dir + "level"), type_in(dir + "type"), size_in(dir + "size");
    if (!level_in) break;
    int level = 0;
    std::string type;
    uint64_t kib = 0;
    level_in >> level;
    type_in >> type;
    size_in >> kib; // sysfs writes "48K"
    if (type != "Instruction" && kib > 0) by_level[level] = kib * 1024;
  }
  for (auto &[level, bytes] : by_level) sizes.push_back(bytes);
  return sizes;
}

TEST_F(DriverAndDevice, CachePropertiesAreTheHostsDataCachesL1First) {
  std::vector<uint64_t> host = host_data_caches();
  uint32_t count = 0;
  ZE_ASSERT_OK(zeDeviceGetCacheProperties(device, &count, nullptr));
  ASSERT_EQ(host.size(), size_t{count});
  std::vector<ze_device_cache_properties_t> caches(count + 1);
  for (auto &c : caches) c = {ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES, nullptr, 0xff, 0};
  uint32_t more = count + 1; // asking for more than there are gets what there is
  ZE_ASSERT_OK(zeDeviceGetCacheProperties(device, &more, caches.data()));
  EXPECT_EQ(count, more);
  for (uint32_t i = 0; i < count; ++i) {
    EXPECT_EQ(host[i], caches[i].cacheSize) << "level " << i + 1;
    EXPECT_EQ(0u, caches[i].flags) << "no user-controlled partition";
    EXPECT_EQ(ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES, caches[i].stype);
  }
  EXPECT_EQ(0u, caches[count].cacheSize) << "nothing past the count";
  uint32_t one = 1;
  if (count > 0) {
    ZE_ASSERT_OK(zeDeviceGetCacheProperties(device, &one, caches.data()));
    EXPECT_EQ(1u, one) << "asking for fewer gets that many";
  }
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeDeviceGetCacheProperties(device, nullptr, nullptr));
}

TEST_F(DriverAndDevice, TheOneDeviceIsItsOwnPeerWithAccessAndAtomics) {
  expect_full_peer_access(device, device);
  ze_bool_t can = false;
  ze_device_p2p_properties_t p2p{ZE_STRUCTURE_TYPE_DEVICE_P2P_PROPERTIES, nullptr, 0};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeDeviceCanAccessPeer(device, device, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeDeviceGetP2PProperties(device, device, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeDeviceCanAccessPeer(device, nullptr, &can));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeDeviceGetP2PProperties(device, nullptr, &p2p));
}

// The fabric topology extension is not implemented: its entry points answer so.
TEST_F(DriverAndDevice, UnimplementedEntryPointAnswersUnsupportedFeature) {
  uint32_t count = 0;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, zeFabricVertexGetExp(driver, &count, nullptr));
}

// The limits the device reports are the ones zeImageCreate holds to: the largest 2-D width is made, one more is
// refused; samplers and image arguments are at least OpenCL's full profile's.
TEST_F(DriverAndDevice, ImagePropertiesGiveTheLimitsImageCreationHoldsTo) {
  ze_device_image_properties_t p{};
  p.stype = ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES;
  ZE_ASSERT_OK(zeDeviceGetImageProperties(device, &p));
  EXPECT_EQ(ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES, p.stype);
  EXPECT_GE(p.maxImageDims1D, 16384u);
  EXPECT_GE(p.maxImageDims2D, 16384u);
  EXPECT_GE(p.maxImageDims3D, 2048u);
  EXPECT_GE(p.maxImageArraySlices, 2048u);
  EXPECT_GE(p.maxImageBufferSize, uint64_t{65536});
  EXPECT_GE(p.maxSamplers, 16u);
  EXPECT_GE(p.maxReadImageArgs, 128u);
  EXPECT_GE(p.maxWriteImageArgs, 64u);
  ze_image_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_IMAGE_DESC;
  desc.type = ZE_IMAGE_TYPE_2D;
  desc.format = {ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_TYPE_UINT, ZE_IMAGE_FORMAT_SWIZZLE_R,
                 ZE_IMAGE_FORMAT_SWIZZLE_0, ZE_IMAGE_FORMAT_SWIZZLE_0, ZE_IMAGE_FORMAT_SWIZZLE_1};
  desc.width = p.maxImageDims2D;
  desc.height = 1;
  desc.depth = 1;
  ze_image_handle_t image = nullptr;
  ZE_ASSERT_OK(zeImageCreate(context, device, &desc, &image));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeImageDestroy(image));
  desc.width = p.maxImageDims2D + 1;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zeImageCreate(context, device, &desc, &image));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeDeviceGetImageProperties(device, nullptr));
}

} // namespace
} // namespace zeal::cpu::test
