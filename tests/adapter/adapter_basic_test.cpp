// Adapter ABI, platforms, devices and their info, USM, copies and fills, through the dispatch table.
#include "adapter_fixture.hpp"
#include "common/settings.hpp"

#include <algorithm>
#include <array>

using namespace zeal_test;

TEST(AdapterAbi, GivenAnotherMajorVersion_ThenDispatchIsRefused) {
  void *lib = dlopen(ZEAL_ADAPTER_PATH, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib, nullptr) << dlerror();
  auto get = reinterpret_cast<zeal_pfn_get_adapter_dispatch_t>(dlsym(lib, ZEAL_GET_ADAPTER_DISPATCH_SYMBOL));
  ASSERT_NE(get, nullptr);
  zeal_adapter_dispatch_t table{};
  EXPECT_EQ(get(ZEAL_MAKE_VERSION(ZEAL_VERSION_MAJOR(ZEAL_ADAPTER_ABI_VERSION) + 1, 0), &table),
            ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE);
  EXPECT_EQ(get(ZEAL_ADAPTER_ABI_VERSION, &table), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(table.size, sizeof(zeal_adapter_dispatch_t));
  EXPECT_STREQ(table.adapterGetBackendName(), "level_zero");
  // Every entry of the table is filled.
  const auto *first = reinterpret_cast<const char *>(&table.getLastErrorMessage);
  const auto *end = reinterpret_cast<const char *>(&table) + sizeof(table);
  for (const char *p = first; p < end; p += sizeof(void *)) {
    void *fn = nullptr;
    std::memcpy(&fn, p, sizeof(void *));
    EXPECT_NE(fn, nullptr) << "dispatch entry at offset " << (p - reinterpret_cast<const char *>(&table));
  }
  dlclose(lib);
}

TEST_F(AdapterTest, PlatformsReportLevelZeroBackendAndNames) {
  uint32_t n = 0;
  ASSERT_EQ(d.platformGet(adapter, &n, nullptr), ZEAL_RESULT_SUCCESS);
  ASSERT_GE(n, 1u);
  std::vector<zeal_platform_handle_t> platforms(n);
  ASSERT_EQ(d.platformGet(adapter, &n, platforms.data()), ZEAL_RESULT_SUCCESS);
  for (auto p : platforms) {
    char text[256];
    ASSERT_EQ(d.platformGetInfo(p, ZEAL_PLATFORM_INFO_BACKEND, sizeof(text), text, nullptr), ZEAL_RESULT_SUCCESS);
    EXPECT_STREQ(text, "level_zero");
    ASSERT_EQ(d.platformGetInfo(p, ZEAL_PLATFORM_INFO_BACKEND_VERSION, sizeof(text), text, nullptr),
              ZEAL_RESULT_SUCCESS);
    EXPECT_EQ(std::string(text).rfind("1.", 0), 0u) << text;
    for (auto key : {ZEAL_PLATFORM_INFO_NAME, ZEAL_PLATFORM_INFO_VENDOR, ZEAL_PLATFORM_INFO_VERSION}) {
      size_t size = 0;
      EXPECT_EQ(d.platformGetInfo(p, key, 0, nullptr, &size), ZEAL_RESULT_SUCCESS);
      EXPECT_GT(size, 1u);
    }
  }
}

TEST_F(AdapterTest, EveryDeviceInfoKeyIsAnswered) {
  for (int key = ZEAL_DEVICE_INFO_TYPE; key <= ZEAL_DEVICE_INFO_DRIVER_CACHES_KERNEL_CODE; ++key) {
    size_t size = 0;
    EXPECT_EQ(d.deviceGetInfo(device, static_cast<zeal_device_info_t>(key), 0, nullptr, &size), ZEAL_RESULT_SUCCESS)
        << "key " << key << ": " << last_error();
    EXPECT_GT(size, 0u) << "key " << key;
  }
  EXPECT_EQ(d.deviceGetInfo(device, static_cast<zeal_device_info_t>(31), 0, nullptr, nullptr),
            ZEAL_RESULT_ERROR_INVALID_ENUMERATION);
  EXPECT_NE(last_error().find("31"), std::string::npos) << last_error();
}

// zeal's CPU driver keeps kernels' code while the persistent cache and its kernel cache are on (ctest runs
// this test again with ZEAL_CPU_KERNEL_CACHE=0), and the runtime reads that here.
TEST_F(AdapterTest, TheDeviceSaysWhetherItsDriverKeepsCompiledKernels) {
  const bool on = zeal::settings().cache_persistent && zeal::settings().cpu_kernel_cache;
  uint32_t caches = 7;
  size_t size = 0;
  ASSERT_EQ(d.deviceGetInfo(device, ZEAL_DEVICE_INFO_DRIVER_CACHES_KERNEL_CODE, sizeof caches, &caches, &size),
            ZEAL_RESULT_SUCCESS)
      << last_error();
  EXPECT_EQ(size, sizeof caches);
  EXPECT_EQ(caches, on ? 1u : 0u);
}

TEST_F(AdapterTest, SubGroupInfoIsConsistent) {
  size_t size = 0;
  ASSERT_EQ(d.deviceGetInfo(device, ZEAL_DEVICE_INFO_SUB_GROUP_SIZES, 0, nullptr, &size), ZEAL_RESULT_SUCCESS);
  std::vector<uint32_t> sizes(size / sizeof(uint32_t));
  ASSERT_EQ(d.deviceGetInfo(device, ZEAL_DEVICE_INFO_SUB_GROUP_SIZES, size, sizes.data(), nullptr),
            ZEAL_RESULT_SUCCESS);
  ASSERT_FALSE(sizes.empty());
  auto primary = device_value<uint32_t>(device, ZEAL_DEVICE_INFO_PRIMARY_SUB_GROUP_SIZE);
  EXPECT_NE(std::find(sizes.begin(), sizes.end(), primary), sizes.end());
  auto max_wg = device_value<size_t>(device, ZEAL_DEVICE_INFO_MAX_WORK_GROUP_SIZE);
  EXPECT_EQ(device_value<uint32_t>(device, ZEAL_DEVICE_INFO_MAX_NUM_SUB_GROUPS),
            max_wg / *std::min_element(sizes.begin(), sizes.end()));
  if (device_name.rfind("zeal", 0) == 0) {
    EXPECT_EQ(primary, 16u);
    EXPECT_EQ(device_value<uint32_t>(device, ZEAL_DEVICE_INFO_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS), 0u);
  }
}

TEST_F(AdapterTest, GivenTooSmallBuffer_WhenQueryingName_ThenInvalidSizeWithNeededBytes) {
  char tiny[1];
  EXPECT_EQ(d.deviceGetInfo(device, ZEAL_DEVICE_INFO_NAME, sizeof(tiny), tiny, nullptr),
            ZEAL_RESULT_ERROR_INVALID_SIZE);
  EXPECT_NE(last_error().find("bytes but size is 1"), std::string::npos) << last_error();
}

TEST_F(AdapterTest, GivenNullHandle_ThenInvalidHandleNamesTheRole) {
  EXPECT_EQ(d.queueFinish(nullptr), ZEAL_RESULT_ERROR_INVALID_HANDLE);
  EXPECT_EQ(last_error(), "the queue handle is null");
  EXPECT_EQ(d.queueFinish(reinterpret_cast<zeal_queue_handle_t>(context)), ZEAL_RESULT_ERROR_INVALID_HANDLE);
  EXPECT_NE(last_error().find("is not a live zeal queue"), std::string::npos) << last_error();
}

TEST_F(AdapterTest, UsmAllocFreeOfEveryKind) {
  for (auto kind : {ZEAL_USM_KIND_HOST, ZEAL_USM_KIND_DEVICE, ZEAL_USM_KIND_SHARED}) {
    void *p = nullptr;
    ASSERT_EQ(d.usmAlloc(context, kind == ZEAL_USM_KIND_HOST ? nullptr : device, kind, 4096, 64, &p),
              ZEAL_RESULT_SUCCESS)
        << last_error();
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    EXPECT_EQ(d.usmFree(context, p), ZEAL_RESULT_SUCCESS) << last_error();
  }
}

TEST_F(AdapterTest, GivenUnknownPointer_WhenFreeing_ThenInvalidArgumentNamesThePointer) {
  int local = 0;
  EXPECT_EQ(d.usmFree(context, &local), ZEAL_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find(fmt_pointer(&local)), std::string::npos) << last_error();
  EXPECT_NE(last_error().find("was not allocated"), std::string::npos) << last_error();
}

TEST_F(AdapterTest, GivenBadAlignment_WhenAllocating_ThenInvalidArgument) {
  void *p = nullptr;
  EXPECT_EQ(d.usmAlloc(context, device, ZEAL_USM_KIND_DEVICE, 64, 3, &p), ZEAL_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("alignment 3"), std::string::npos) << last_error();
}

// Device allocations past the device's memory (each within the largest allocation) are out of device memory,
// with the driver's result and a sentence; larger than the largest allocation is an invalid size.
TEST_F(AdapterTest, GivenTheDevicesMemoryInUse_WhenAllocatingMore_ThenOutOfDeviceMemory) {
  uint64_t total = 0;
  ASSERT_EQ(d.deviceGetInfo(device, ZEAL_DEVICE_INFO_GLOBAL_MEM_SIZE, sizeof(total), &total, nullptr),
            ZEAL_RESULT_SUCCESS);
  void *first = nullptr, *second = nullptr, *more = nullptr;
  EXPECT_EQ(d.usmAlloc(context, device, ZEAL_USM_KIND_DEVICE, total + 1, 0, &more), ZEAL_RESULT_ERROR_INVALID_SIZE);
  ASSERT_EQ(d.usmAlloc(context, device, ZEAL_USM_KIND_DEVICE, total / 2, 0, &first), ZEAL_RESULT_SUCCESS);
  ASSERT_EQ(d.usmAlloc(context, device, ZEAL_USM_KIND_DEVICE, total - total / 2, 0, &second), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.usmAlloc(context, device, ZEAL_USM_KIND_DEVICE, 4096, 0, &more),
            ZEAL_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
  EXPECT_NE(last_error().find("zeMemAllocDevice"), std::string::npos) << last_error();
  EXPECT_NE(last_error().find("4096 bytes"), std::string::npos) << last_error();
  EXPECT_EQ(d.usmFree(context, second), ZEAL_RESULT_SUCCESS);
  ASSERT_EQ(d.usmAlloc(context, device, ZEAL_USM_KIND_DEVICE, 4096, 0, &more), ZEAL_RESULT_SUCCESS)
      << "the context stays usable";
  EXPECT_EQ(d.usmFree(context, more), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.usmFree(context, first), ZEAL_RESULT_SUCCESS);
}

TEST_F(AdapterTest, FillThenCopyRoundTripsThroughDeviceMemory) {
  constexpr size_t n = 1024;
  auto *dev = alloc<uint32_t>(n, ZEAL_USM_KIND_DEVICE);
  auto *host = alloc<uint32_t>(n, ZEAL_USM_KIND_HOST);
  ASSERT_NE(dev, nullptr);
  ASSERT_NE(host, nullptr);
  const uint32_t pattern = 0xC0FFEE;
  ASSERT_EQ(d.enqueueFill(queue, dev, &pattern, sizeof(pattern), n * sizeof(uint32_t), 0, nullptr, nullptr),
            ZEAL_RESULT_SUCCESS)
      << last_error();
  zeal_event_handle_t done = nullptr;
  ASSERT_EQ(d.enqueueMemcpy(queue, host, dev, n * sizeof(uint32_t), 0, nullptr, &done), ZEAL_RESULT_SUCCESS)
      << last_error();
  ASSERT_EQ(d.eventWait(1, &done), ZEAL_RESULT_SUCCESS) << last_error();
  zeal_event_status_t status{};
  ASSERT_EQ(d.eventGetInfo(done, ZEAL_EVENT_INFO_STATUS, sizeof(status), &status, nullptr), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(status, ZEAL_EVENT_STATUS_COMPLETE);
  EXPECT_EQ(std::count(host, host + n, pattern), static_cast<long>(n));
  EXPECT_EQ(d.eventRelease(done), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.queueFinish(queue), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.usmFree(context, dev), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.usmFree(context, host), ZEAL_RESULT_SUCCESS);
}

TEST_F(AdapterTest, GivenPatternNotDividingSize_WhenFilling_ThenInvalidSize) {
  auto *dev = alloc<uint8_t>(64, ZEAL_USM_KIND_DEVICE);
  const uint32_t pattern = 1;
  EXPECT_EQ(d.enqueueFill(queue, dev, &pattern, sizeof(pattern), 62, 0, nullptr, nullptr),
            ZEAL_RESULT_ERROR_INVALID_SIZE);
  EXPECT_NE(last_error().find("pattern size 4"), std::string::npos) << last_error();
  EXPECT_EQ(d.usmFree(context, dev), ZEAL_RESULT_SUCCESS);
}

TEST_F(AdapterTest, OutOfOrderProfilingQueueBarrierAndTimestamps) {
  zeal_queue_handle_t ooo = nullptr;
  ASSERT_EQ(d.queueCreate(context, device, ZEAL_QUEUE_FLAG_OUT_OF_ORDER | ZEAL_QUEUE_FLAG_PROFILING, &ooo),
            ZEAL_RESULT_SUCCESS)
      << last_error();
  auto *dev = alloc<uint32_t>(256, ZEAL_USM_KIND_DEVICE);
  const uint32_t pattern = 7;
  zeal_event_handle_t fill = nullptr, barrier = nullptr;
  ASSERT_EQ(d.enqueueFill(ooo, dev, &pattern, sizeof(pattern), 256 * sizeof(uint32_t), 0, nullptr, &fill),
            ZEAL_RESULT_SUCCESS)
      << last_error();
  ASSERT_EQ(d.enqueueBarrier(ooo, 0, nullptr, &barrier), ZEAL_RESULT_SUCCESS) << last_error();
  ASSERT_EQ(d.eventWait(1, &barrier), ZEAL_RESULT_SUCCESS) << last_error();
  zeal_event_status_t status{};
  ASSERT_EQ(d.eventGetInfo(fill, ZEAL_EVENT_INFO_STATUS, sizeof(status), &status, nullptr), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(status, ZEAL_EVENT_STATUS_COMPLETE) << "a barrier without a wait list waits for earlier commands";
  uint64_t start = 0, end = 0;
  EXPECT_EQ(d.eventGetInfo(fill, ZEAL_EVENT_INFO_PROFILING_START_NS, sizeof(start), &start, nullptr),
            ZEAL_RESULT_SUCCESS)
      << last_error();
  EXPECT_EQ(d.eventGetInfo(fill, ZEAL_EVENT_INFO_PROFILING_END_NS, sizeof(end), &end, nullptr), ZEAL_RESULT_SUCCESS)
      << last_error();
  EXPECT_LE(start, end);
  for (auto e : {fill, barrier}) EXPECT_EQ(d.eventRelease(e), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.queueFinish(ooo), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.queueRelease(ooo), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.usmFree(context, dev), ZEAL_RESULT_SUCCESS);
}

TEST_F(AdapterTest, GivenPlainQueue_WhenAskingProfilingData_ThenInvalidArgumentSaysWhy) {
  auto *dev = alloc<uint32_t>(16, ZEAL_USM_KIND_DEVICE);
  const uint32_t pattern = 1;
  zeal_event_handle_t fill = nullptr;
  ASSERT_EQ(d.enqueueFill(queue, dev, &pattern, sizeof(pattern), 64, 0, nullptr, &fill), ZEAL_RESULT_SUCCESS);
  ASSERT_EQ(d.eventWait(1, &fill), ZEAL_RESULT_SUCCESS);
  uint64_t start = 0;
  EXPECT_EQ(d.eventGetInfo(fill, ZEAL_EVENT_INFO_PROFILING_START_NS, sizeof(start), &start, nullptr),
            ZEAL_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(last_error().find("ZEAL_QUEUE_FLAG_PROFILING"), std::string::npos) << last_error();
  EXPECT_EQ(d.eventRelease(fill), ZEAL_RESULT_SUCCESS);
  EXPECT_EQ(d.usmFree(context, dev), ZEAL_RESULT_SUCCESS);
}
