// The CUDA Level Zero driver (libze_zeal_cuda.so.1, issue 49) through the Level Zero loader, as an application
// drives it: devices, queue groups, memory of every kind, copies and fills, launches with local memory and barriers,
// virtual memory, timestamps, IPC memory, faults (cuda_driver_module_test.cpp: modules, the cache, linking, function
// pointers; cuda_driver_sync_test.cpp: events, queues, fences, printf and indirect launches). Without CUDA (CI) the
// driver must step aside cleanly, which is tested; the tests that need a GPU skip there, saying so.
#include "cuda_driver_fixture.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace zeal::test {
namespace {

TEST(CudaDriverWithoutCuda, TheDriverStepsAsideAndTheLoaderReportsNoDevice) {
  if (has_cuda()) {
    GTEST_SKIP() << "this machine has CUDA; the test is for machines without it";
  }
  ze_result_t r = init_once();
  uint32_t count = 0;
  if (r == ZE_RESULT_SUCCESS) {
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeDriverGet(&count, nullptr));
  }
  EXPECT_EQ(0u, count) << "a driver without CUDA must not list itself";
}

TEST_F(CudaDriver, TheDeviceIsAGpuWithSubGroupsOfAWarpAndItsHalvesAndQuarters) {
  auto p = ze_desc<ze_device_properties_t>();
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetProperties(device, &p));
  EXPECT_EQ(ZE_DEVICE_TYPE_GPU, p.type);
  EXPECT_EQ(0x10deu, p.vendorId);
  EXPECT_GT(p.maxMemAllocSize, uint64_t{1} << 30);
  auto c = ze_desc<ze_device_compute_properties_t>();
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetComputeProperties(device, &c));
  ASSERT_EQ(3u, c.numSubGroupSizes);
  EXPECT_EQ(8u, c.subGroupSizes[0]);
  EXPECT_EQ(16u, c.subGroupSizes[1]);
  EXPECT_EQ(32u, c.subGroupSizes[2]);
  EXPECT_GE(c.maxTotalGroupSize, 1024u);
  EXPECT_EQ(1u, p.timerResolution) << "nanoseconds per tick";
  ze_device_properties_t p12{};
  p12.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetProperties(device, &p12));
  EXPECT_EQ(1'000'000'000u, p12.timerResolution) << "ticks per second in the 1.2 structure";
  std::printf("device: %s, %u multiprocessors, %u MHz, %lu MiB\n", p.name, p.numSubslicesPerSlice, p.coreClockRate,
              static_cast<unsigned long>(p.maxMemAllocSize >> 20));
}

// Two queue groups: 0 computes and copies with CUDA's hardware work queues, 1 only copies with the card's copy
// engines. A copy-only list copies and refuses kernels, a list runs only on a queue of its own group, and a group or
// index past the device's is refused.
TEST_F(CudaDriver, AComputeGroupAndACopyOnlyGroupOfQueuesEachRunTheirOwnLists) {
  uint32_t count = 0;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetCommandQueueGroupProperties(device, &count, nullptr));
  ASSERT_EQ(2u, count);
  std::vector<ze_command_queue_group_properties_t> groups(
      count, ze_command_queue_group_properties_t{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES, nullptr, 0, 0, 0});
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetCommandQueueGroupProperties(device, &count, groups.data()));
  EXPECT_NE(0u, groups[0].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE);
  EXPECT_NE(0u, groups[0].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COOPERATIVE_KERNELS);
  EXPECT_EQ(uint32_t(ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY), groups[1].flags);
  EXPECT_GE(groups[0].numQueues, 1u);
  EXPECT_GE(groups[1].numQueues, 1u);

  auto copy_desc = ze_desc<ze_command_queue_desc_t>();
  copy_desc.ordinal = 1;
  copy_desc.index = groups[1].numQueues - 1;
  ze_command_list_handle_t copier = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreateImmediate(context, device, &copy_desc, &copier));
  constexpr int n = 1024;
  std::vector<int> values(n), back(n, 0);
  std::iota(values.begin(), values.end(), 7);
  int *memory = static_cast<int *>(device_memory(n * sizeof(int)));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(copier, memory, values.data(), n * 4, nullptr, 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendBarrier(copier, nullptr, 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(copier, back.data(), memory, n * 4, nullptr, 0, nullptr));
  ze_module_handle_t module = nullptr;
  ze_kernel_handle_t kernel = nullptr;
  ASSERT_NO_FATAL_FAILURE(build(read_kernel("vector_add"), module));
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(module, "vector_add", kernel));
  ze_group_count_t one{1, 1, 1};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeCommandListAppendLaunchKernel(copier, kernel, &one, nullptr, 0, nullptr))
      << "a copy-only list runs no kernels";
  zeCommandListDestroy(copier); // waits for its copies
  EXPECT_EQ(values, back);

  // A regular list runs on a queue of its own group only.
  ze_command_queue_handle_t copy_queue = nullptr;
  copy_desc.index = 0;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueCreate(context, device, &copy_desc, &copy_queue));
  auto compute_list_desc = ze_desc<ze_command_list_desc_t>();
  ze_command_list_handle_t compute_list = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreate(context, device, &compute_list_desc, &compute_list));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(compute_list));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE,
            zeCommandQueueExecuteCommandLists(copy_queue, 1, &compute_list, nullptr));
  auto copy_list_desc = ze_desc<ze_command_list_desc_t>();
  copy_list_desc.commandQueueGroupOrdinal = 1;
  ze_command_list_handle_t copy_list = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreate(context, device, &copy_list_desc, &copy_list));
  std::fill(back.begin(), back.end(), 0);
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(copy_list, back.data(), memory, n * 4, nullptr, 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(copy_list));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(copy_queue, 1, &copy_list, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueSynchronize(copy_queue, UINT64_MAX));
  EXPECT_EQ(values, back);

  ze_command_queue_handle_t none = nullptr;
  auto past = ze_desc<ze_command_queue_desc_t>();
  past.ordinal = 2;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeCommandQueueCreate(context, device, &past, &none));
  past.ordinal = 1;
  past.index = groups[1].numQueues;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeCommandQueueCreate(context, device, &past, &none));
  for (ze_command_list_handle_t l : {compute_list, copy_list}) zeCommandListDestroy(l);
  zeCommandQueueDestroy(copy_queue);
  zeKernelDestroy(kernel);
  zeModuleDestroy(module);
  zeMemFree(context, memory);
}

TEST_F(CudaDriver, MemoryOfEveryKindRoundTripsThroughCopies) {
  constexpr size_t n = 1 << 20;
  std::vector<int> in(n), out(n, -1);
  std::iota(in.begin(), in.end(), 7);
  void *host = nullptr;
  auto h = ze_desc<ze_host_mem_alloc_desc_t>();
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(context, &h, n * sizeof(int), 64, &host));
  void *dev = device_memory(n * sizeof(int));
  void *shared = shared_memory(n * sizeof(int));
  std::memcpy(host, in.data(), n * sizeof(int));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(list, dev, host, n * sizeof(int), nullptr, 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(list, shared, dev, n * sizeof(int), nullptr, 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS,
            zeCommandListAppendMemoryCopy(list, out.data(), shared, n * sizeof(int), nullptr, 0, nullptr));
  finish();
  EXPECT_EQ(in, out);
  auto props = ze_desc<ze_memory_allocation_properties_t>();
  ze_device_handle_t owner = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetAllocProperties(context, static_cast<char *>(dev) + 100, &props, &owner));
  EXPECT_EQ(ZE_MEMORY_TYPE_DEVICE, props.type);
  EXPECT_EQ(device, owner);
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetAllocProperties(context, host, &props, nullptr));
  EXPECT_EQ(ZE_MEMORY_TYPE_HOST, props.type);
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetAllocProperties(context, shared, &props, nullptr));
  EXPECT_EQ(ZE_MEMORY_TYPE_SHARED, props.type);
  for (void *p : {host, dev, shared}) EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(context, p));
  int stack = 0;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(context, &stack));
}

TEST_F(CudaDriver, FillsOfEveryPatternSizeWriteThePatternAndNothingElse) {
  constexpr size_t bytes = 4096 + 256;
  for (size_t pattern_size : {1, 2, 4, 8, 16, 64, 128}) {
    char *dev = static_cast<char *>(device_memory(bytes));
    std::vector<uint8_t> pattern(pattern_size);
    std::iota(pattern.begin(), pattern.end(), uint8_t(pattern_size));
    const uint8_t zero = 0;
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryFill(list, dev, &zero, 1, bytes, nullptr, 0, nullptr));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryFill(list, dev + 128, pattern.data(), pattern_size, 4096,
                                                               nullptr, 0, nullptr));
    std::vector<uint8_t> out(bytes);
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(list, out.data(), dev, bytes, nullptr, 0, nullptr));
    finish();
    for (size_t i = 0; i < bytes; ++i) {
      uint8_t want = i >= 128 && i < 128 + 4096 ? pattern[(i - 128) % pattern_size] : 0;
      ASSERT_EQ(want, out[i]) << "pattern of " << pattern_size << " bytes, byte " << i;
    }
    zeMemFree(context, dev);
  }
}

// Virtual memory: a reserved range, physical memory mapped into it read-write, filled and read back by commands;
// access attributes as set; sizes that are not whole pages and ranges not reserved are refused.
TEST_F(CudaDriver, PhysicalMemoryMappedIntoAReservedRangeIsFilledAndReadBackThroughIt) {
  size_t page = 0;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemQueryPageSize(context, device, 1, &page));
  ASSERT_GT(page, 0u);
  void *range = nullptr;
  // A start hint (CUDA takes another range when it is not free): the validation layer of Debian's loader (1.8)
  // refuses a null one, which the specification allows.
  const void *hint = reinterpret_cast<const void *>(uintptr_t{1} << 45);
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zeVirtualMemReserve(context, hint, page + 1, &range));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemReserve(context, hint, 2 * page, &range));
  ze_physical_mem_desc_t pdesc{ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, 2 * page};
  ze_physical_mem_handle_t memory = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemCreate(context, device, &pdesc, &memory));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
            zeVirtualMemMap(context, static_cast<char *>(range) + 2 * page, page, memory, 0,
                            ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE))
      << "past the reservation";
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemMap(context, range, 2 * page, memory, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  const uint32_t pattern = 0x5eed5eed;
  std::vector<uint32_t> back(2 * page / 4, 0);
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryFill(list, range, &pattern, 4, 2 * page, nullptr, 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(list, back.data(), range, 2 * page, nullptr, 0, nullptr));
  finish();
  EXPECT_EQ(std::vector<uint32_t>(2 * page / 4, pattern), back);
  ze_memory_access_attribute_t access{};
  size_t reach = 0;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemGetAccessAttribute(context, range, 2 * page, &access, &reach));
  EXPECT_EQ(ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE, access);
  EXPECT_EQ(2 * page, reach);
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemSetAccessAttribute(context, range, 2 * page, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemGetAccessAttribute(context, range, page, &access, &reach));
  EXPECT_EQ(ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY, access);
  EXPECT_EQ(page, reach);
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemUnmap(context, range, 2 * page));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemGetAccessAttribute(context, range, page, &access, &reach));
  EXPECT_EQ(ZE_MEMORY_ACCESS_ATTRIBUTE_NONE, access);
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemUnmap(context, range, 2 * page)) << "nothing mapped: unmapped already";
  // A reserved range with nothing mapped keeps the attribute it is given (as on Intel's driver).
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemSetAccessAttribute(context, range, page, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemGetAccessAttribute(context, range, 2 * page, &access, &reach));
  EXPECT_EQ(ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE, access);
  EXPECT_EQ(page, reach);
  EXPECT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemDestroy(context, memory));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeVirtualMemFree(context, range, page)) << "not the whole reservation";
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemFree(context, range, 2 * page));
}

TEST_F(CudaDriver, LocalMemoryArgumentsAndBarriersReverseEachWorkGroup) {
  std::vector<uint8_t> spirv = read_kernel("local_reverse");
  ze_module_handle_t module = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_module(context, device, spirv, module));
  ze_kernel_handle_t kernel = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(module, "local_reverse", kernel));
  constexpr uint32_t group = 256, n = group * 64;
  int *data = static_cast<int *>(shared_memory(n * 4));
  for (uint32_t i = 0; i < n; ++i) data[i] = int(i);
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 0, 8, &data));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 1, group * 4, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(kernel, group, 1, 1));
  ze_group_count_t groups{n / group, 1, 1};
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(list, kernel, &groups, nullptr, 0, nullptr));
  finish();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(int(i / group * group + group - 1 - i % group), data[i]) << i;
  zeMemFree(context, data);
  zeKernelDestroy(kernel);
  zeModuleDestroy(module);
}

TEST_F(CudaDriver, GlobalOffsetsAndTwoDimensionsReachTheWorkItemIds) {
  std::vector<uint8_t> spirv = read_kernel("work_items");
  ze_module_handle_t module = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_module(context, device, spirv, module));
  ze_kernel_handle_t kernel = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(module, "ids_2d", kernel));
  constexpr uint32_t w = 64, h = 32;
  unsigned *out = static_cast<unsigned *>(shared_memory(w * h * 4));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 0, 8, &out));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(kernel, 16, 8, 1));
  ze_group_count_t groups{w / 16, h / 8, 1};
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(list, kernel, &groups, nullptr, 0, nullptr));
  finish();
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) ASSERT_EQ(y * 1000 + x, out[y * w + x]) << x << "," << y;
  zeMemFree(context, out);
  zeKernelDestroy(kernel);
  zeModuleDestroy(module);
}

TEST_F(CudaDriver, KernelTimestampsBracketTheKernelAndTheDeviceClockRunsOnPastThem) {
  std::vector<uint8_t> spirv = read_kernel("vector_add");
  ze_module_handle_t module = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_module(context, device, spirv, module));
  ze_kernel_handle_t kernel = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(module, "vector_add", kernel));
  constexpr uint32_t n = 1 << 24;
  void *a = device_memory(n * 4), *b = device_memory(n * 4), *c = device_memory(n * 4);
  for (auto [i, p] : {std::pair{0u, &a}, {1u, &b}, {2u, &c}})
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, i, 8, p));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(kernel, 256, 1, 1));
  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t event = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_host_event_pool(context, 1, pool, nullptr, ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP));
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_host_event(pool, 0, event));
  uint64_t *written = static_cast<uint64_t *>(shared_memory(16));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendWriteGlobalTimestamp(list, &written[0], nullptr, 0, nullptr));
  ze_group_count_t groups{n / 256, 1, 1};
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(list, kernel, &groups, event, 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendWriteGlobalTimestamp(list, &written[1], nullptr, 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(event, 10'000'000'000ull));
  finish();
  ze_kernel_timestamp_result_t stamps{};
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventQueryKernelTimestamp(event, &stamps));
  EXPECT_LE(written[0], stamps.global.kernelStart);
  EXPECT_LT(stamps.global.kernelStart, stamps.global.kernelEnd);
  EXPECT_LE(stamps.global.kernelEnd, written[1]);
  // 192 MiB moved: more than a microsecond, less than a second, at any bandwidth a GPU has.
  EXPECT_GT(stamps.global.kernelEnd - stamps.global.kernelStart, 1000u);
  EXPECT_LT(stamps.global.kernelEnd - stamps.global.kernelStart, 1'000'000'000u);
  // The same stamps copied by the device, and everything done for the whole context.
  auto *copied = static_cast<ze_kernel_timestamp_result_t *>(shared_memory(sizeof(ze_kernel_timestamp_result_t)));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendQueryKernelTimestamps(list, 1, &event, copied, nullptr, nullptr, 0,
                                                                        nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeContextSystemBarrier(context, device));
  finish();
  EXPECT_EQ(stamps.global.kernelStart, copied->global.kernelStart);
  EXPECT_EQ(stamps.global.kernelEnd, copied->global.kernelEnd);
  EXPECT_EQ(stamps.context.kernelEnd, copied->context.kernelEnd);
  zeMemFree(context, copied);
  uint64_t host_time = 0, device_time = 0;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetGlobalTimestamps(device, &host_time, &device_time));
  EXPECT_GE(device_time, written[1]);
  std::printf("vector add of %u floats: %.1f us by its kernel timestamps\n", n,
              double(stamps.global.kernelEnd - stamps.global.kernelStart) / 1e3);
  zeEventDestroy(event);
  zeEventPoolDestroy(pool);
  for (void *p : {a, b, c, static_cast<void *>(written)}) zeMemFree(context, p);
  zeKernelDestroy(kernel);
  zeModuleDestroy(module);
}

TEST_F(CudaDriver, ARegionCopyMovesABoxBetweenPitchedLayoutsAndNothingElse) {
  // 3 slices of 5 rows of 24 bytes, from (4, 2, 1) of a 64 x 8 x 5 host layout to (8, 1, 0) of a 128 x 16 x 4
  // device layout, and back into a zeroed host layout at the same place.
  constexpr uint32_t sp = 64, ss = 64 * 8, dp = 128, ds = 128 * 16;
  std::vector<uint8_t> host(ss * 5), back(ss * 5, 0);
  std::iota(host.begin(), host.end(), uint8_t(1));
  uint8_t *dev = static_cast<uint8_t *>(device_memory(ds * 4));
  const uint8_t zero = 0;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryFill(list, dev, &zero, 1, ds * 4, nullptr, 0, nullptr));
  ze_copy_region_t from{4, 2, 1, 24, 5, 3}, to{8, 1, 0, 24, 5, 3};
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopyRegion(list, dev, &to, dp, ds, host.data(), &from, sp, ss,
                                                                   nullptr, 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopyRegion(list, back.data(), &from, sp, ss, dev, &to, dp, ds,
                                                                   nullptr, 0, nullptr));
  finish();
  for (uint32_t z = 0; z < 5; ++z)
    for (uint32_t y = 0; y < 8; ++y)
      for (uint32_t x = 0; x < sp; ++x) {
        bool inside = z >= 1 && z < 4 && y >= 2 && y < 7 && x >= 4 && x < 28;
        size_t at = z * ss + y * sp + x;
        ASSERT_EQ(inside ? host[at] : 0, back[at]) << "x " << x << " y " << y << " z " << z;
      }
  zeMemFree(context, dev);
}

TEST_F(CudaDriver, ACooperativeLaunchTakesAtMostTheGroupsTheDeviceHoldsAtOnce) {
  std::vector<uint8_t> spirv = read_kernel("local_reverse");
  ze_module_handle_t module = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_module(context, device, spirv, module));
  ze_kernel_handle_t kernel = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(module, "local_reverse", kernel));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(kernel, 128, 1, 1));
  uint32_t most = 0;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSuggestMaxCooperativeGroupCount(kernel, &most));
  auto p = ze_desc<ze_device_properties_t>();
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetProperties(device, &p));
  EXPECT_GE(most, p.numSubslicesPerSlice) << "at least one group of 128 per multiprocessor";
  const uint32_t n = most * 128;
  int *data = static_cast<int *>(shared_memory(n * 4));
  for (uint32_t i = 0; i < n; ++i) data[i] = int(i);
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 0, 8, &data));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 1, 128 * 4, nullptr));
  ze_group_count_t groups{most, 1, 1};
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchCooperativeKernel(list, kernel, &groups, nullptr, 0, nullptr));
  finish();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(int(i / 128 * 128 + 127 - i % 128), data[i]) << i;
  zeMemFree(context, data);
  zeKernelDestroy(kernel);
  zeModuleDestroy(module);
}

// This test binary run again in a child process, with `environment` (NAME=value ...) and only the test `filter`
// names: what it printed (stdout and stderr) and its exit status; 120 seconds at most.
struct Child {
  std::string output;
  int status = -1;
};
Child run_child(const std::string &environment, const char *filter) {
  const std::string command = environment + " timeout 120 /proc/" + std::to_string(getpid()) +
                              "/exe --gtest_filter=" + filter + " 2>&1";
  Child child;
  FILE *pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    child.output = "popen failed: " + command;
    return child;
  }
  char buffer[4096];
  while (size_t got = std::fread(buffer, 1, sizeof buffer, pipe)) child.output.append(buffer, got);
  child.status = pclose(pipe);
  return child;
}

// Device memory passes between processes with IPC handles (CUDA's): the parent fills an allocation and gives its
// handle to a child process (this binary again, with a filter), which opens it, reads the parent's values, writes
// its own and closes it; the parent then reads the child's. In one process a handle opens as the allocation itself;
// host memory, a pointer inside an allocation and bytes that are no handle are refused with their codes.
TEST(CudaIpc, ChildOpensTheParentsDeviceMemory) {
  const char *hex = std::getenv("ZEAL_CUDA_IPC_HANDLE");
  if (hex == nullptr) GTEST_SKIP() << "run in a child process by CudaDriver.DeviceMemoryPassesBetweenProcesses";
  ze_ipc_mem_handle_t handle{};
  ASSERT_EQ(2 * sizeof handle.data, std::strlen(hex));
  for (size_t i = 0; i < sizeof handle.data; ++i)
    handle.data[i] = char(std::stoi(std::string(hex + 2 * i, 2), nullptr, 16));
  ASSERT_EQ(ZE_RESULT_SUCCESS, init_once());
  ZeDeviceContext ze;
  ASSERT_EQ(ZE_RESULT_SUCCESS, ze.open_device().result);
  ze_command_list_handle_t list = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_immediate_list(ze.context, ze.device, list));
  void *shared = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemOpenIpcHandle(ze.context, ze.device, handle, 0, &shared));
  auto props = ze_desc<ze_memory_allocation_properties_t>();
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetAllocProperties(ze.context, shared, &props, nullptr));
  EXPECT_EQ(ZE_MEMORY_TYPE_DEVICE, props.type);
  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t done = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_host_event_pool(ze.context, 1, pool));
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_host_event(pool, 0, done));
  auto wait = [&] {
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendSignalEvent(list, done));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(done, 60'000'000'000ull));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostReset(done));
  };
  constexpr int n = 1024;
  std::vector<int> values(n);
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(list, values.data(), shared, n * 4, nullptr, 0, nullptr));
  ASSERT_NO_FATAL_FAILURE(wait());
  for (int i = 0; i < n; ++i) ASSERT_EQ(3 * i, values[i]) << i;
  for (int i = 0; i < n; ++i) values[i] = i + 1000;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(list, shared, values.data(), n * 4, nullptr, 0, nullptr));
  ASSERT_NO_FATAL_FAILURE(wait());
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(ze.context, shared)) << "closed, not freed";
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemCloseIpcHandle(ze.context, shared));
  zeEventDestroy(done);
  zeEventPoolDestroy(pool);
  zeCommandListDestroy(list);
  std::printf("child: read the parent's memory and wrote its own values\n");
}

TEST_F(CudaDriver, DeviceMemoryPassesBetweenProcesses) {
  ze_driver_ipc_properties_t ipc{ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES, nullptr, 0};
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGetIpcProperties(driver, &ipc));
  EXPECT_EQ(ZE_IPC_PROPERTY_FLAG_MEMORY | ZE_IPC_PROPERTY_FLAG_EVENT_POOL, ipc.flags);
  constexpr int n = 1024;
  int *memory = static_cast<int *>(device_memory(n * 4));
  std::vector<int> values(n);
  for (int i = 0; i < n; ++i) values[i] = 3 * i;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(list, memory, values.data(), n * 4, nullptr, 0, nullptr));
  finish();
  ze_ipc_mem_handle_t handle{};
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetIpcHandle(context, memory, &handle));
  void *same = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemOpenIpcHandle(context, device, handle, 0, &same));
  EXPECT_EQ(static_cast<void *>(memory), same) << "in the process that made it, the handle opens as the allocation";
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemCloseIpcHandle(context, same));

  std::string hex;
  for (char c : handle.data) {
    char two[3];
    std::snprintf(two, sizeof two, "%02x", unsigned(uint8_t(c)));
    hex += two;
  }
  const Child child = run_child("ZEAL_CUDA_IPC_HANDLE=" + hex, "CudaIpc.ChildOpensTheParentsDeviceMemory");
  EXPECT_EQ(0, child.status) << child.output;
  EXPECT_NE(std::string::npos, child.output.find("child: read the parent's memory and wrote its own values"))
      << child.output;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(list, values.data(), memory, n * 4, nullptr, 0, nullptr));
  finish();
  for (int i = 0; i < n; ++i) ASSERT_EQ(i + 1000, values[i]) << "the child's value, at " << i;

  void *host = nullptr;
  auto host_desc = ze_desc<ze_host_mem_alloc_desc_t>();
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(context, &host_desc, 4096, 0, &host));
  ze_ipc_mem_handle_t refused{};
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, zeMemGetIpcHandle(context, host, &refused));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemGetIpcHandle(context, memory + 1, &refused));
  ze_ipc_mem_handle_t garbage{};
  std::memset(garbage.data, 0x5a, sizeof garbage.data);
  void *none = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemOpenIpcHandle(context, device, garbage, 0, &none));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemCloseIpcHandle(context, host));
  zeMemFree(context, host);
  zeMemFree(context, memory);
}

// A kernel that writes to an unmapped address loses the device, and the process lives on. CUDA's context is
// unusable after a fault, so the faulting part runs in a child process: this binary again, with a filter.
TEST(CudaFault, ChildRunsAFaultingKernel) {
  if (std::getenv("ZEAL_CUDA_FAULT_CHILD") == nullptr) {
    GTEST_SKIP() << "run in a child process by CudaFault.AFaultingKernelLosesTheDeviceNotTheProcess";
  }
  ASSERT_EQ(ZE_RESULT_SUCCESS, init_once());
  ZeDeviceContext ze;
  ASSERT_EQ(ZE_RESULT_SUCCESS, ze.open_device().result);
  ze_command_list_handle_t list = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_immediate_list(ze.context, ze.device, list));
  std::vector<uint8_t> spirv = read_kernel("faults");
  ze_module_handle_t module = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_module(ze.context, ze.device, spirv, module));
  ze_kernel_handle_t kernel = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(module, "fault_write", kernel));
  void *out = nullptr;
  auto desc = ze_desc<ze_device_mem_alloc_desc_t>();
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(ze.context, &desc, 64 * 4, 0, ze.device, &out));
  uint64_t address = 0x10;
  int which = 5;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 0, 8, &out));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 1, 8, &address));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 2, 4, &which));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(kernel, 64, 1, 1));
  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t done = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_host_event_pool(ze.context, 1, pool));
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_host_event(pool, 0, done));
  ze_group_count_t groups{1, 1, 1};
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(list, kernel, &groups, done, 0, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_DEVICE_LOST, zeEventHostSynchronize(done, 60'000'000'000ull));
  EXPECT_EQ(ZE_RESULT_ERROR_DEVICE_LOST, zeDeviceGetStatus(ze.device));
  void *more = nullptr;
  EXPECT_NE(ZE_RESULT_SUCCESS, zeMemAllocDevice(ze.context, &desc, 64, 0, ze.device, &more));
  std::printf("child: the device is lost and the process goes on\n");
}

TEST(CudaFault, AFaultingKernelLosesTheDeviceNotTheProcess) {
  if (!has_cuda()) {
    GTEST_SKIP() << "no CUDA on this machine (libcuda.so.1 cannot be opened): the test needs a GPU";
  }
  if (std::getenv("ZEAL_CUDA_FAULT_CHILD") != nullptr) {
    GTEST_SKIP() << "this is the child";
  }
  const Child child = run_child("ZEAL_CUDA_FAULT_CHILD=1", "CudaFault.ChildRunsAFaultingKernel");
  EXPECT_EQ(0, child.status) << child.output;
  EXPECT_NE(std::string::npos, child.output.find("child: the device is lost and the process goes on")) << child.output;
  EXPECT_NE(std::string::npos, child.output.find("[  PASSED  ] 1 test")) << child.output;
}

} // namespace
} // namespace zeal::test
