// The CUDA driver's synchronisation through the Level Zero loader (issue 49): events between lists, streams and the
// host, IPC event pools, queues and fences, printf reaching stdout by the time a wait ends, and indirect launches
// behind their gates. The tests skip, saying so, where there is no CUDA (cuda_driver_fixture.hpp).
#include "cuda_driver_fixture.hpp"
#include "tests/support/capture_stderr.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

namespace zeal::test {
namespace {

// The CPU driver's printf kernel, through CUDA's vprintf: what each work-item prints reaches stdout by the time a host
// wait with a timeout ends (which polls, then synchronises so that CUDA prints): a fence's, then a queue's. Lines of
// different work-items come in CUDA's order, so they are compared sorted.
TEST_F(CudaDriver, PrintfWritesEachWorkItemsLinesToStdoutByTheTimeAFenceOrQueueWaitEnds) {
  ze_module_handle_t module = nullptr;
  ASSERT_NO_FATAL_FAILURE(build(read_kernel("printf"), module));
  ze_kernel_handle_t kernel = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(module, "print_values", kernel));
  int *x = static_cast<int *>(shared_memory(4 * sizeof(int)));
  char *word = static_cast<char *>(shared_memory(8));
  const int values[] = {42, -3, 255, 7};
  std::copy(std::begin(values), std::end(values), x);
  std::strcpy(word, "zeal");
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 0, 8, &x));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 1, 8, &word));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(kernel, 2, 1, 1));
  ze_command_queue_handle_t queue = nullptr;
  ze_command_list_handle_t regular = nullptr;
  ASSERT_NO_FATAL_FAILURE(queue_and_regular_list(queue, regular));
  ze_group_count_t groups{2, 1, 1};
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(regular, kernel, &groups, nullptr, 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(regular));
  auto fdesc = ze_desc<ze_fence_desc_t>();
  ze_fence_handle_t fence = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeFenceCreate(queue, &fdesc, &fence));
  auto sorted_lines = [](const std::string &all) {
    std::vector<std::string> lines;
    for (size_t at = 0, end; (end = all.find('\n', at)) != std::string::npos; at = end + 1)
      lines.push_back(all.substr(at, end - at));
    std::sort(lines.begin(), lines.end());
    return lines;
  };
  // The CPU driver's test expects the same lines (tests/cpu_compiler/printf_test.cpp).
  const std::vector<std::string> expected =
      sorted_lines("item 0 of 4: x=   42 hex=0x2a zeal\n"
                   "1.500000,-2.000000,0.250000,100.000000|1.50,-2.00,0.25,100.00|-7,8|1,-2,3|ff,1000\n"
                   "ok 1.234568e+04 0.0001      3.142% -9000000000 -3 250\n"
                   "item 1 of 4: x=   -3 hex=0xfffffffd zeal\n"
                   "item 2 of 4: x=  255 hex=0xff zeal\n"
                   "item 3 of 4: x=    7 hex=0x7 zeal\n");
  std::string by_fence = capture_stdout([&] {
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(queue, 1, &regular, fence));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeFenceHostSynchronize(fence, 10'000'000'000ull));
  });
  EXPECT_EQ(expected, sorted_lines(by_fence)) << by_fence;
  std::string by_queue = capture_stdout([&] {
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(queue, 1, &regular, nullptr));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueSynchronize(queue, 10'000'000'000ull));
  });
  EXPECT_EQ(expected, sorted_lines(by_queue)) << by_queue;
  zeFenceDestroy(fence);
  zeCommandListDestroy(regular);
  zeCommandQueueDestroy(queue);
  zeKernelDestroy(kernel);
  zeMemFree(context, x);
  zeMemFree(context, word);
  zeModuleDestroy(module);
}

// An indirect launch reads its group count where the command before it in the list wrote it; of several kernels
// launched indirectly, as many run as the count in device memory says, each with the arguments of its append.
TEST_F(CudaDriver, IndirectLaunchesReadTheirGroupCountsAndKernelCountWhereEarlierCommandsWroteThem) {
  ze_module_handle_t module = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_module(context, device, read_kernel("vector_add"), module));
  ze_kernel_handle_t first = nullptr, second = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(module, "fill_value", first));
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(module, "fill_value", second));
  constexpr uint32_t n = 1024;
  int *out = static_cast<int *>(shared_memory(n * sizeof(int)));
  int *untouched = static_cast<int *>(shared_memory(n * sizeof(int)));
  std::fill(out, out + n, -1);
  std::fill(untouched, untouched + n, -1);
  auto *counts = static_cast<ze_group_count_t *>(device_memory(2 * sizeof(ze_group_count_t)));
  auto *kernel_count = static_cast<uint32_t *>(device_memory(sizeof(uint32_t)));
  const ze_group_count_t host_counts[2] = {{n / 64, 1, 1}, {n / 64, 1, 1}};
  const uint32_t one = 1;
  for (ze_kernel_handle_t k : {first, second}) ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(k, 64, 1, 1));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(first, 0, 8, &out));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(second, 0, 8, &untouched));
  const int seven = 7, eight = 8;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(first, 1, 4, &seven));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(second, 1, 4, &eight));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(list, counts, host_counts, sizeof host_counts, nullptr,
                                                             0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernelIndirect(list, first, counts, nullptr, 0, nullptr));
  finish();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(7, out[i]) << i;
  std::fill(out, out + n, -1);
  ze_kernel_handle_t both[] = {first, second};
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(list, kernel_count, &one, sizeof one, nullptr, 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS,
            zeCommandListAppendLaunchMultipleKernelsIndirect(list, 2, both, kernel_count, counts, nullptr, 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(first, 1, 4, &eight)); // after the append: not seen
  finish();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(7, out[i]) << i;
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(-1, untouched[i]) << "the second kernel ran: " << i;
  // A by-value argument given fewer bytes than it has is taken and zero-extended (Intel's driver's rule).
  const uint16_t short_value = 9;
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(first, 1, 2, &short_value));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, zeKernelSetArgumentValue(first, 1, 8, &short_value));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, zeKernelSetArgumentValue(first, 0, 4, &out));
  ze_group_count_t groups{n / 64, 1, 1};
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(list, first, &groups, nullptr, 0, nullptr));
  finish();
  EXPECT_EQ(9, out[n - 1]);
  // A wait list the host signals only after the queue was given the list: executing it returns at once, and the
  // launch runs once the host has signalled.
  ze_command_queue_handle_t queue = nullptr;
  ze_command_list_handle_t regular = nullptr;
  ASSERT_NO_FATAL_FAILURE(queue_and_regular_list(queue, regular));
  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t gate = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_host_event_pool(context, 1, pool));
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_host_event(pool, 0, gate));
  std::fill(out, out + n, -1);
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernelIndirect(regular, first, counts, nullptr, 1, &gate));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(regular));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(queue, 1, &regular, nullptr));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeCommandQueueSynchronize(queue, 0));
  EXPECT_EQ(-1, out[0]) << "the launch ran before its wait was released";
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(gate));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueSynchronize(queue, 10'000'000'000ull));
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(9, out[i]) << i;
  zeEventDestroy(gate);
  zeEventPoolDestroy(pool);
  zeCommandListDestroy(regular);
  zeCommandQueueDestroy(queue);
  for (void *p : {(void *)out, (void *)untouched, (void *)counts, (void *)kernel_count}) zeMemFree(context, p);
  zeKernelDestroy(first);
  zeKernelDestroy(second);
  zeModuleDestroy(module);
}

// Two streams' indirect launches, the first waiting for an event the second signals after its own: the gates open
// as their streams reach them, not in the order they were made.
TEST_F(CudaDriver, AnIndirectLaunchWaitingForAnotherStreamsLaterIndirectLaunchRunsAfterIt) {
  ze_module_handle_t module = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_module(context, device, read_kernel("vector_add"), module));
  ze_kernel_handle_t first = nullptr, second = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(module, "fill_value", first));
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(module, "fill_value", second));
  ze_command_list_handle_t other = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_immediate_list(context, device, other));
  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t events[2] = {};
  ZeCall made = create_host_events(context, pool, events);
  ASSERT_EQ(ZE_RESULT_SUCCESS, made.result) << made.name;
  constexpr uint32_t n = 256;
  int *out = static_cast<int *>(shared_memory(2 * n * sizeof(int)));
  std::fill(out, out + 2 * n, -1);
  auto *counts = static_cast<ze_group_count_t *>(shared_memory(sizeof(ze_group_count_t)));
  *counts = {n / 64, 1, 1};
  int *second_out = out + n;
  const int one = 1, two = 2;
  for (auto [k, p, v] : {std::tuple{first, &out, &one}, std::tuple{second, &second_out, &two}}) {
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(k, 64, 1, 1));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 0, 8, p));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 1, 4, v));
  }
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernelIndirect(list, first, counts, events[1], 1, &events[0]));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernelIndirect(other, second, counts, events[0], 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(events[1], 10'000'000'000ull));
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(1, out[i]) << i;
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(2, second_out[i]) << i;
  for (ze_event_handle_t e : events) zeEventDestroy(e);
  zeEventPoolDestroy(pool);
  zeCommandListDestroy(other);
  zeMemFree(context, out);
  zeMemFree(context, counts);
  zeKernelDestroy(first);
  zeKernelDestroy(second);
  zeModuleDestroy(module);
}

// Between two immediate lists (two streams): a wait appended after the other list's signal (which the driver
// records as a CUDA event), and one appended before it (on the event's word, which the signal then writes too);
// each copy runs only after the fill it waits for.
TEST_F(CudaDriver, AnotherListsWaitBeforeOrAfterASignalRunsAfterTheSignalledCommand) {
  ze_command_list_handle_t other = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_immediate_list(context, device, other));
  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t events[3] = {};
  ZeCall made = create_host_events(context, pool, events);
  ASSERT_EQ(ZE_RESULT_SUCCESS, made.result) << made.name;
  constexpr size_t n = 64 << 20; // 256 MiB: a fill long enough to be running when the other list's copy is enqueued
  int *big = static_cast<int *>(device_memory(n * 4));
  int *copied = static_cast<int *>(shared_memory(2 * sizeof(int)));
  copied[0] = copied[1] = 0;
  const int seven = 7, nine = 9;
  // After: the signal is enqueued first.
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryFill(list, big, &seven, 4, n * 4, events[0], 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS,
            zeCommandListAppendMemoryCopy(other, &copied[0], big + n - 1, 4, events[1], 1, &events[0]));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(events[1], 10'000'000'000ull));
  EXPECT_EQ(7, copied[0]);
  // Before: the other list waits first, then the fill is enqueued with the signal.
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostReset(events[0]));
  ASSERT_EQ(ZE_RESULT_SUCCESS,
            zeCommandListAppendMemoryCopy(other, &copied[1], big + n - 1, 4, events[2], 1, &events[0]));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(events[2])) << "the copy ran before its wait was released";
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryFill(list, big, &nine, 4, n * 4, events[0], 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(events[2], 10'000'000'000ull));
  EXPECT_EQ(9, copied[1]);
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventQueryStatus(events[0]));
  zeMemFree(context, big);
  zeMemFree(context, copied);
  for (ze_event_handle_t e : events) zeEventDestroy(e);
  zeEventPoolDestroy(pool);
  zeCommandListDestroy(other);
}

// An event pool made for IPC, opened again from its handle (in this process, as UR's tests do; the handle's
// descriptor is valid here): a stream's signal through the opened pool reaches the exporter's event, whose host
// signal then releases a wait on the opened one.
TEST_F(CudaDriver, AnIpcEventPoolOpenedFromItsHandleSharesItsEventsBothWays) {
  auto desc = ze_desc<ze_event_pool_desc_t>();
  desc.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC;
  desc.count = 2;
  ze_event_pool_handle_t pool = nullptr, opened = nullptr, plain = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolCreate(context, &desc, 0, nullptr, &pool));
  ze_ipc_event_pool_handle_t handle{};
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolGetIpcHandle(pool, &handle));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolOpenIpcHandle(context, handle, &opened));
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_host_event_pool(context, 1, plain));
  ze_ipc_event_pool_handle_t none{};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventPoolGetIpcHandle(plain, &none)) << "not made for IPC";
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventPoolGetIpcHandle(opened, &none)) << "the exporter's to give";
  ze_event_handle_t mine[2] = {}, theirs[2] = {};
  for (uint32_t i = 0; i < 2; ++i) {
    ASSERT_EQ(ZE_RESULT_SUCCESS, create_host_event(pool, i, mine[i]));
    ASSERT_EQ(ZE_RESULT_SUCCESS, create_host_event(opened, i, theirs[i]));
  }
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendSignalEvent(list, theirs[0]));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(mine[0], 10'000'000'000ull));
  int *flag = static_cast<int *>(shared_memory(4));
  *flag = 0;
  const int one = 1;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendWaitOnEvents(list, 1, &theirs[1]));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryFill(list, flag, &one, 4, 4, nullptr, 0, nullptr));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(0, *flag) << "the fill ran before its wait was released";
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(mine[1]));
  finish();
  EXPECT_EQ(1, *flag);
  for (ze_event_handle_t e : {mine[0], mine[1], theirs[0], theirs[1]}) zeEventDestroy(e);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventPoolCloseIpcHandle(pool)) << "not opened from a handle";
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventPoolCloseIpcHandle(opened));
  zeEventPoolDestroy(pool);
  zeEventPoolDestroy(plain);
  zeMemFree(context, flag);
}

TEST_F(CudaDriver, AHostSignalReleasesADeviceWaitAndTheDeviceSignalReachesTheHost) {
  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t events[2] = {};
  ZeCall made = create_host_events(context, pool, events);
  ASSERT_EQ(ZE_RESULT_SUCCESS, made.result) << made.name;
  int *flag = static_cast<int *>(shared_memory(4));
  const int one = 1;
  *flag = 0;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendWaitOnEvents(list, 1, &events[0]));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryFill(list, flag, &one, 4, 4, events[1], 0, nullptr));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(events[1])) << "the fill ran before its wait was released";
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(events[0]));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(events[1], 10'000'000'000ull));
  EXPECT_EQ(1, *flag);
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostReset(events[1]));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(events[1]));
  zeMemFree(context, flag);
  for (ze_event_handle_t e : events) zeEventDestroy(e);
  zeEventPoolDestroy(pool);
}

TEST_F(CudaDriver, AWaitAfterTheSameListsSignalRunsAtOnceButAHostResetMakesItWaitAgain) {
  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t event = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_host_event_pool(context, 1, pool));
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_host_event(pool, 0, event));
  int *flag = static_cast<int *>(shared_memory(8));
  const int one = 1, two = 2;
  flag[0] = flag[1] = 0;
  // Signalled and waited on by the same list: stream order, no wait left to block.
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryFill(list, &flag[0], &one, 4, 4, event, 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendWaitOnEvents(list, 1, &event));
  finish();
  EXPECT_EQ(1, flag[0]);
  // Reset by the host, the same list's wait must block until the host signals.
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostReset(event));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendWaitOnEvents(list, 1, &event));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryFill(list, &flag[1], &two, 4, 4, nullptr, 0, nullptr));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(0, std::atomic_ref<int>(flag[1]).load()) << "the wait after a host reset did not wait";
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(event));
  finish();
  EXPECT_EQ(2, flag[1]);
  zeMemFree(context, flag);
  zeEventDestroy(event);
  zeEventPoolDestroy(pool);
}

TEST_F(CudaDriver, ARegularListRunsOnAQueueAsOftenAsItIsExecutedAndAFenceTellsWhenItIsDone) {
  ze_command_queue_handle_t queue = nullptr;
  ze_command_list_handle_t regular = nullptr;
  ASSERT_NO_FATAL_FAILURE(queue_and_regular_list(queue, regular));
  int *data = static_cast<int *>(shared_memory(4096 * 4));
  std::vector<int> host(4096, 5);
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(regular, data, host.data(), 4096 * 4, nullptr, 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(regular));
  auto fdesc = ze_desc<ze_fence_desc_t>();
  ze_fence_handle_t fence = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeFenceCreate(queue, &fdesc, &fence));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeFenceQueryStatus(fence));
  for (int round = 0; round < 3; ++round) {
    host.assign(4096, round);
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeFenceReset(fence));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(queue, 1, &regular, fence));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeFenceHostSynchronize(fence, 10'000'000'000ull));
    EXPECT_EQ(round, data[4095]);
  }
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueSynchronize(queue, UINT64_MAX));
  zeFenceDestroy(fence);
  zeMemFree(context, data);
  zeCommandListDestroy(regular);
  zeCommandQueueDestroy(queue);
}

// level-zero-tests' copy between two contexts' memory, with events: on a regular list, copies (from the other
// context with zeCommandListAppendMemoryCopyFromContext) and barriers signal the same two events again and again
// and wait on each other's (the list's own earlier signals, never reset); the list runs to its end and the bytes
// arrive through device memory of both contexts.
TEST_F(CudaDriver, ARegularListSignallingItsEventsAgainAndWaitingOnThemRunsThroughTwoContextsMemory) {
  ze_command_queue_handle_t queue = nullptr;
  ze_command_list_handle_t regular = nullptr;
  ASSERT_NO_FATAL_FAILURE(queue_and_regular_list(queue, regular));
  ze_context_handle_t other = nullptr;
  auto cdesc = ze_desc<ze_context_desc_t>();
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeContextCreate(driver, &cdesc, &other));
  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t events[2] = {};
  ZeCall made = create_host_events(context, pool, events);
  ASSERT_EQ(ZE_RESULT_SUCCESS, made.result) << made.name;
  constexpr size_t size = 4096;
  auto hdesc = ze_desc<ze_host_mem_alloc_desc_t>();
  auto ddesc = ze_desc<ze_device_mem_alloc_desc_t>();
  void *host_other = nullptr, *host_here = nullptr, *device_other = nullptr, *device_here = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(other, &hdesc, size, 1, &host_other));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(context, &hdesc, size, 1, &host_here));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(other, &ddesc, size, 1, device, &device_other));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(context, &ddesc, size, 1, device, &device_here));
  auto *pattern = static_cast<uint8_t *>(host_other);
  for (size_t i = 0; i < size; ++i) pattern[i] = uint8_t(i * 7 + 1);
  std::memset(host_here, 0, size);
  ze_event_handle_t e1 = events[0], e2 = events[1];
  ASSERT_EQ(ZE_RESULT_SUCCESS,
            zeCommandListAppendMemoryCopyFromContext(regular, device_here, other, host_other, size, e1, 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendBarrier(regular, e2, 1, &e1));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(regular, device_other, device_here, size, e1, 1, &e2));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendBarrier(regular, e2, 1, &e1));
  ASSERT_EQ(ZE_RESULT_SUCCESS,
            zeCommandListAppendMemoryCopyFromContext(regular, host_here, other, device_other, size, e1, 0, &e2));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendBarrier(regular, nullptr, 1, &e1));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(regular));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(queue, 1, &regular, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueSynchronize(queue, 10'000'000'000ull));
  EXPECT_EQ(0, std::memcmp(host_other, host_here, size));
  for (void *p : {host_here, device_here}) zeMemFree(context, p);
  for (void *p : {host_other, device_other}) zeMemFree(other, p);
  for (ze_event_handle_t e : events) zeEventDestroy(e);
  zeEventPoolDestroy(pool);
  zeCommandListDestroy(regular);
  zeCommandQueueDestroy(queue);
  zeContextDestroy(other);
}

// level-zero-tests' queue-priority case: six queues each run a regular list that waits for one event the host
// signals after executing them all, then fills its buffer and signals an event of a timestamp pool (the first two of
// those share the pool's first slot, as the test makes them). Every queue finishes, every fill is done. (The first
// timestamp once loaded its kernel inside the command, and loading a module waits for every stream, the first
// queue's among them, which waited for the host: the host never got to signal.)
TEST_F(CudaDriver, RegularListsOnSixQueuesWaitingForOneHostSignalAllRunAfterIt) {
  constexpr int queues = 6;
  constexpr size_t bytes = 1 << 20;
  auto sync_desc = ze_desc<ze_event_pool_desc_t>();
  sync_desc.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE;
  sync_desc.count = 1;
  auto time_desc = sync_desc;
  time_desc.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP;
  time_desc.count = 256;
  ze_event_pool_handle_t sync_pool = nullptr, time_pool = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolCreate(context, &sync_desc, 0, nullptr, &sync_pool));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolCreate(context, &time_desc, 0, nullptr, &time_pool));
  auto edesc = ze_desc<ze_event_desc_t>();
  ze_event_handle_t go = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventCreate(sync_pool, &edesc, &go));
  std::vector<ze_event_handle_t> done(queues);
  std::vector<ze_command_queue_handle_t> qs(queues);
  std::vector<ze_command_list_handle_t> lists(queues);
  std::vector<uint8_t *> buffers(queues);
  for (int i = 0; i < queues; ++i) {
    edesc.index = uint32_t(i == 0 ? 0 : i - 1); // the first two share slot 0
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventCreate(time_pool, &edesc, &done[i]));
    ASSERT_NO_FATAL_FAILURE(queue_and_regular_list(qs[i], lists[i]));
    buffers[i] = static_cast<uint8_t *>(shared_memory(bytes));
    const uint8_t value = uint8_t(i + 1);
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendWaitOnEvents(lists[i], 1, &go));
    ASSERT_EQ(ZE_RESULT_SUCCESS,
              zeCommandListAppendMemoryFill(lists[i], buffers[i], &value, 1, bytes, done[i], 0, nullptr));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(lists[i]));
  }
  for (int i = 0; i < queues; ++i)
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(qs[i], 1, &lists[i], nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(go));
  for (int i = 0; i < queues; ++i) {
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueSynchronize(qs[i], 10'000'000'000ull)) << "queue " << i;
    EXPECT_EQ(uint8_t(i + 1), buffers[i][0]);
    EXPECT_EQ(uint8_t(i + 1), buffers[i][bytes - 1]);
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventQueryStatus(done[i])) << "queue " << i;
  }
  for (int i = 0; i < queues; ++i) {
    zeEventDestroy(done[i]);
    zeMemFree(context, buffers[i]);
    zeCommandListDestroy(lists[i]);
    zeCommandQueueDestroy(qs[i]);
  }
  zeEventDestroy(go);
  zeEventPoolDestroy(time_pool);
  zeEventPoolDestroy(sync_pool);
}

// Threads that each build a module calling through function pointers (each joins the device's joint module), take
// a pointer, launch and destroy it, over and over, at once: every launch gets its own module's function and the
// joint module is loaded again and unloaded under them.
TEST_F(CudaDriver, ModulesJoiningAndLeavingTheJointModuleFromSeveralThreadsEachRunTheirOwnFunction) {
  const std::vector<uint8_t> spirv = read_kernel("function_pointer_self");
  constexpr int threads = 4, rounds = 5, n = 64;
  std::atomic<int> wrong{0}, failed{0};
  auto work = [&](int t) {
    ze_command_list_handle_t own = nullptr;
    if (create_immediate_list(context, device, own) != ZE_RESULT_SUCCESS) return void(++failed);
    ze_event_pool_handle_t pool = nullptr;
    ze_event_handle_t done = nullptr;
    if (create_host_event_pool(context, 1, pool) != ZE_RESULT_SUCCESS ||
        create_host_event(pool, 0, done) != ZE_RESULT_SUCCESS)
      return void(++failed);
    int *values = static_cast<int *>(shared_memory(n * sizeof(int)));
    for (int round = 0; round < rounds; ++round) {
      ze_module_handle_t module = nullptr;
      ze_kernel_handle_t kernel = nullptr;
      void *function = nullptr;
      const char *name = (t + round) % 2 == 0 ? "add_int" : "times_three";
      if (create_module(context, device, spirv, module) != ZE_RESULT_SUCCESS ||
          zeModuleGetFunctionPointer(module, name, &function) != ZE_RESULT_SUCCESS ||
          create_kernel(module, "call_fptr", kernel) != ZE_RESULT_SUCCESS) {
        ++failed;
        break;
      }
      ze_group_count_t one{1, 1, 1};
      bool ok = zeKernelSetArgumentValue(kernel, 0, 8, &values) == ZE_RESULT_SUCCESS &&
                zeKernelSetArgumentValue(kernel, 1, 8, &function) == ZE_RESULT_SUCCESS &&
                zeKernelSetGroupSize(kernel, n, 1, 1) == ZE_RESULT_SUCCESS &&
                zeCommandListAppendLaunchKernel(own, kernel, &one, done, 0, nullptr) == ZE_RESULT_SUCCESS &&
                zeEventHostSynchronize(done, 60'000'000'000ull) == ZE_RESULT_SUCCESS &&
                zeEventHostReset(done) == ZE_RESULT_SUCCESS;
      if (!ok) ++failed;
      for (int i = 0; ok && i < n; ++i)
        if (values[i] != ((t + round) % 2 == 0 ? i + 1 : 3 * i)) ++wrong;
      zeKernelDestroy(kernel);
      zeModuleDestroy(module);
    }
    zeMemFree(context, values);
    zeEventDestroy(done);
    zeEventPoolDestroy(pool);
    zeCommandListDestroy(own);
  };
  std::vector<std::thread> running;
  for (int t = 0; t < threads; ++t) running.emplace_back(work, t);
  for (std::thread &thread : running) thread.join();
  EXPECT_EQ(0, failed.load());
  EXPECT_EQ(0, wrong.load());
}

} // namespace
} // namespace zeal::test
