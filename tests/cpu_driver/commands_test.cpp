// Copies, fills, events and fences on immediate lists and on regular lists executed by a queue.
#include "test_support.hpp"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <numeric>

#include <pthread.h>
#include <unistd.h>

namespace zeal::cpu::test {
namespace {

using Commands = CpuDriver;

TEST_F(Commands, CopyAndFillOnAnImmediateList) {
  constexpr size_t n = 1000;
  auto *src = shared_array<int>(n);
  auto *dst = shared_array<int>(n);
  std::iota(src, src + n, 0);
  ze_command_list_handle_t list = immediate_list();
  ze_event_handle_t done = event();
  ZE_ASSERT_OK(zeCommandListAppendMemoryCopy(list, dst, src, n * sizeof(int), nullptr, 0, nullptr));
  const uint16_t pattern = 0xabcd;
  ZE_ASSERT_OK(zeCommandListAppendMemoryFill(list, src, &pattern, sizeof(pattern), n * sizeof(int), done, 0, nullptr));
  ZE_ASSERT_OK(zeEventHostSynchronize(done, UINT64_MAX));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(int(i), dst[i]) << "at " << i;
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(int(0xabcdabcd), src[i]) << "at " << i;
}

TEST_F(Commands, ARegularListRunsOnAQueueEachTimeItIsExecuted) {
  constexpr size_t n = 256;
  auto *a = shared_array<uint8_t>(n);
  auto *b = shared_array<uint8_t>(n);
  ze_command_list_handle_t list = regular_list();
  const uint8_t seven = 7;
  ZE_ASSERT_OK(zeCommandListAppendMemoryFill(list, a, &seven, 1, n, nullptr, 0, nullptr));
  ZE_ASSERT_OK(zeCommandListAppendBarrier(list, nullptr, 0, nullptr));
  ZE_ASSERT_OK(zeCommandListAppendMemoryCopy(list, b, a, n, nullptr, 0, nullptr));
  ZE_ASSERT_OK(zeCommandListClose(list));
  ze_command_queue_handle_t q = make_queue();
  for (int round = 0; round < 3; ++round) {
    std::fill(b, b + n, 0);
    ZE_ASSERT_OK(zeCommandQueueExecuteCommandLists(q, 1, &list, nullptr));
    ZE_ASSERT_OK(zeCommandQueueSynchronize(q, UINT64_MAX));
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(7, b[i]) << "round " << round << " at " << i;
  }
}

TEST_F(Commands, AnOpenListCannotBeExecuted) {
  ze_command_list_handle_t list = regular_list();
  ze_command_queue_handle_t q = make_queue();
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeCommandQueueExecuteCommandLists(q, 1, &list, nullptr));
}

// Ordinal 1 is the copy-only group: its lists copy and fill, run on its queues only, and launch no kernels.
TEST_F(Commands, TheCopyOnlyGroupCopiesButRunsNoKernelsAndKeepsItsListsApart) {
  constexpr size_t n = 512;
  auto *a = shared_array<int>(n);
  auto *b = shared_array<int>(n);
  std::iota(a, a + n, 3);
  ze_command_list_desc_t copy_desc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 1, 0};
  ze_command_list_handle_t copies = nullptr;
  ZE_ASSERT_OK(zeCommandListCreate(context, device, &copy_desc, &copies));
  lists.push_back(copies);
  ZE_ASSERT_OK(zeCommandListAppendMemoryCopy(copies, b, a, n * sizeof(int), nullptr, 0, nullptr));
  ze_module_handle_t module = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, build(read_kernel("vector_add.spv"), module));
  ze_kernel_handle_t fill = kernel(module, "fill_value");
  ZE_ASSERT_OK(zeKernelSetArgumentValue(fill, 0, sizeof(a), &a));
  const int zero = 0;
  ZE_ASSERT_OK(zeKernelSetArgumentValue(fill, 1, sizeof(zero), &zero));
  ze_group_count_t groups{1, 1, 1};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
            zeCommandListAppendLaunchKernel(copies, fill, &groups, nullptr, 0, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
            zeCommandListAppendLaunchCooperativeKernel(copies, fill, &groups, nullptr, 0, nullptr));
  ZE_ASSERT_OK(zeCommandListClose(copies));

  ze_command_queue_desc_t copy_queue_desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 1, 0, 0,
                                          ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
  ze_command_queue_handle_t copy_queue = nullptr;
  ZE_ASSERT_OK(zeCommandQueueCreate(context, device, &copy_queue_desc, &copy_queue));
  ze_command_queue_handle_t compute_queue = make_queue();
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE,
            zeCommandQueueExecuteCommandLists(compute_queue, 1, &copies, nullptr));
  ze_command_list_handle_t compute = regular_list();
  ZE_ASSERT_OK(zeCommandListClose(compute));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE,
            zeCommandQueueExecuteCommandLists(copy_queue, 1, &compute, nullptr));
  ZE_EXPECT_OK(zeCommandQueueExecuteCommandLists(copy_queue, 1, &copies, nullptr));
  ZE_EXPECT_OK(zeCommandQueueSynchronize(copy_queue, UINT64_MAX));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(int(i) + 3, b[i]) << i;
  ZE_EXPECT_OK(zeCommandQueueDestroy(copy_queue));

  // An immediate list of the copy group fills; no group 2 exists.
  ze_command_queue_desc_t immediate_desc = copy_queue_desc;
  immediate_desc.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
  ze_command_list_handle_t immediate = nullptr;
  ZE_ASSERT_OK(zeCommandListCreateImmediate(context, device, &immediate_desc, &immediate));
  lists.push_back(immediate);
  const int seven = 7;
  ZE_ASSERT_OK(zeCommandListAppendMemoryFill(immediate, b, &seven, sizeof(seven), n * sizeof(int), nullptr, 0,
                                             nullptr));
  EXPECT_EQ(n, size_t(std::count(b, b + n, 7)));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
            zeCommandListAppendLaunchKernel(immediate, fill, &groups, nullptr, 0, nullptr));
  ze_command_queue_handle_t none = nullptr;
  copy_queue_desc.index = 2; // each group has queues 0 and 1
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeCommandQueueCreate(context, device, &copy_queue_desc, &none));
  copy_queue_desc.index = 0;
  copy_queue_desc.ordinal = 2;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeCommandQueueCreate(context, device, &copy_queue_desc, &none));
  ze_command_list_handle_t no_list = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
            zeCommandListCreateImmediate(context, device, &copy_queue_desc, &no_list));
  copy_desc.commandQueueGroupOrdinal = 2;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeCommandListCreate(context, device, &copy_desc, &no_list));
}

// Each group has two queues (engines); the second runs its work while the first waits for an event.
TEST_F(Commands, TheSecondQueueOfAGroupRunsWhileTheFirstIsBlocked) {
  for (uint32_t ordinal : {0u, 1u}) {
    SCOPED_TRACE(::testing::Message() << "group " << ordinal);
    auto *value = shared_array<int>(2);
    value[0] = value[1] = 0;
    const int one = 1, two = 2;
    ze_command_list_desc_t list_desc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, ordinal, 0};
    ze_command_list_handle_t blocked = nullptr, free_list = nullptr;
    ZE_ASSERT_OK(zeCommandListCreate(context, device, &list_desc, &blocked));
    lists.push_back(blocked);
    ZE_ASSERT_OK(zeCommandListCreate(context, device, &list_desc, &free_list));
    lists.push_back(free_list);
    ze_event_handle_t gate = event();
    ZE_ASSERT_OK(zeCommandListAppendWaitOnEvents(blocked, 1, &gate));
    ZE_ASSERT_OK(zeCommandListAppendMemoryFill(blocked, value, &one, sizeof(one), sizeof(one), nullptr, 0, nullptr));
    ZE_ASSERT_OK(zeCommandListAppendMemoryFill(free_list, value + 1, &two, sizeof(two), sizeof(two), nullptr, 0,
                                               nullptr));
    for (ze_command_list_handle_t list : {blocked, free_list}) ZE_ASSERT_OK(zeCommandListClose(list));
    ze_command_queue_handle_t queues[2] = {};
    for (uint32_t index : {0u, 1u}) {
      ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, ordinal, index, 0,
                                   ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
      ZE_ASSERT_OK(zeCommandQueueCreate(context, device, &desc, &queues[index]));
    }
    ZE_ASSERT_OK(zeCommandQueueExecuteCommandLists(queues[0], 1, &blocked, nullptr));
    ZE_ASSERT_OK(zeCommandQueueExecuteCommandLists(queues[1], 1, &free_list, nullptr));
    ZE_EXPECT_OK(zeCommandQueueSynchronize(queues[1], UINT64_MAX));
    EXPECT_EQ(2, value[1]);
    EXPECT_EQ(ZE_RESULT_NOT_READY, zeCommandQueueSynchronize(queues[0], 0)) << "queue 0 still waits for its event";
    EXPECT_EQ(0, value[0]);
    ZE_ASSERT_OK(zeEventHostSignal(gate));
    ZE_EXPECT_OK(zeCommandQueueSynchronize(queues[0], UINT64_MAX));
    EXPECT_EQ(1, value[0]);
    for (ze_command_queue_handle_t q : queues) ZE_EXPECT_OK(zeCommandQueueDestroy(q));
  }
}

TEST_F(Commands, ImmediateAppendsReturnAtOnceAndRunWhenTheirEventIsSignalled) {
  auto *value = shared_array<int>(1);
  *value = 0;
  const int one = 1;
  ze_command_list_handle_t list = immediate_list();
  ze_event_handle_t gate = event(), done = event();
  ZE_ASSERT_OK(zeCommandListAppendWaitOnEvents(list, 1, &gate));
  ZE_ASSERT_OK(zeCommandListAppendMemoryFill(list, value, &one, sizeof(one), sizeof(one), done, 0, nullptr));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(done));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventHostSynchronize(done, 0)) << "timeout 0 only looks";
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventHostSynchronize(done, 1'000'000)) << "1 ms passes unsignalled";
  EXPECT_EQ(0, *value);
  ZE_ASSERT_OK(zeEventHostSignal(gate));
  ZE_ASSERT_OK(zeEventHostSynchronize(done, UINT64_MAX));
  EXPECT_EQ(1, *value);
}

TEST_F(Commands, EventsSignalResetAndCarryTimestamps) {
  ze_command_list_handle_t list = immediate_list();
  ze_event_handle_t e = event();
  ZE_ASSERT_OK(zeCommandListAppendSignalEvent(list, e));
  ZE_ASSERT_OK(zeEventHostSynchronize(e, UINT64_MAX));
  ze_kernel_timestamp_result_t ts{};
  ZE_ASSERT_OK(zeEventQueryKernelTimestamp(e, &ts));
  EXPECT_LE(ts.global.kernelStart, ts.global.kernelEnd);
  EXPECT_GT(ts.global.kernelEnd, 0u);

  ZE_ASSERT_OK(zeEventHostReset(e));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(e));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryKernelTimestamp(e, &ts));

  ZE_ASSERT_OK(zeEventHostSignal(e));
  ZE_ASSERT_OK(zeEventQueryStatus(e));
  ze_event_handle_t done = event();
  ZE_ASSERT_OK(zeCommandListAppendEventReset(list, e));
  ZE_ASSERT_OK(zeCommandListAppendSignalEvent(list, done));
  ZE_ASSERT_OK(zeEventHostSynchronize(done, UINT64_MAX));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(e)) << "the list reset it";
}

TEST_F(Commands, FencesSignalAfterExecuteAndReset) {
  ze_command_queue_handle_t q = make_queue();
  ze_fence_desc_t desc{ZE_STRUCTURE_TYPE_FENCE_DESC, nullptr, 0};
  ze_fence_handle_t fence = nullptr;
  ZE_ASSERT_OK(zeFenceCreate(q, &desc, &fence));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeFenceQueryStatus(fence));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeFenceHostSynchronize(fence, 0));

  ze_command_list_handle_t list = regular_list();
  ze_event_handle_t gate = event();
  ZE_ASSERT_OK(zeCommandListAppendWaitOnEvents(list, 1, &gate));
  ZE_ASSERT_OK(zeCommandListClose(list));
  ZE_ASSERT_OK(zeCommandQueueExecuteCommandLists(q, 1, &list, fence));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeFenceHostSynchronize(fence, 1'000'000));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeCommandQueueSynchronize(q, 0));
  ZE_ASSERT_OK(zeEventHostSignal(gate));
  ZE_ASSERT_OK(zeFenceHostSynchronize(fence, UINT64_MAX));
  ZE_ASSERT_OK(zeFenceQueryStatus(fence));
  ZE_ASSERT_OK(zeFenceReset(fence));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeFenceQueryStatus(fence));
  ZE_ASSERT_OK(zeCommandQueueSynchronize(q, UINT64_MAX));
  ZE_EXPECT_OK(zeFenceDestroy(fence));
}

// Queues of every priority run their work; the device says it has three levels; an unknown priority is refused.
TEST_F(CpuDriver, QueuesOfEachPriorityRunAndUnknownPrioritiesAreRefused) {
  EXPECT_EQ(2, device_properties(device).maxCommandQueuePriority);
  for (ze_command_queue_priority_t priority : {ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_LOW, ZE_COMMAND_QUEUE_PRIORITY_NORMAL,
                                               ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH}) {
    ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0,
                                 ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, priority};
    ze_command_list_handle_t list = nullptr;
    ZE_ASSERT_OK(zeCommandListCreateImmediate(context, device, &desc, &list));
    lists.push_back(list);
    uint32_t *out = shared_array<uint32_t>(1024);
    const uint32_t pattern = 0x1234 + priority;
    ZE_EXPECT_OK(zeCommandListAppendMemoryFill(list, out, &pattern, sizeof pattern, 1024 * sizeof pattern, nullptr,
                                               0, nullptr));
    EXPECT_EQ(pattern, out[1023]) << "priority " << priority;
  }
  ze_command_queue_desc_t bad{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_DEFAULT,
                              static_cast<ze_command_queue_priority_t>(3)};
  ze_command_queue_handle_t q = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION, zeCommandQueueCreate(context, device, &bad, &q));
  EXPECT_EQ(nullptr, q);
}

std::atomic<int> handled_on_another_thread{0};

// The driver's threads (a queue's, an immediate list's, the pool's) block the signals an application directs at
// its process: a program that blocks one in its own thread and waits with sigwait() receives it (level-zero-tests'
// IPC server does so; with the driver's threads taking it, the handler ran there and sigwait waited forever).
TEST_F(Commands, ASignalSentToTheProcessReachesTheApplicationsThreadNotTheDrivers) {
  int *out = shared_array<int>(4096);
  ze_command_list_handle_t list = immediate_list();
  ze_event_handle_t done = event();
  ZE_ASSERT_OK(zeCommandListAppendMemoryFill(list, out, "\x01", 1, 4096 * sizeof(int), done, 0, nullptr));
  ZE_ASSERT_OK(zeEventHostSynchronize(done, UINT64_MAX));
  ze_command_queue_handle_t q = make_queue();
  ASSERT_NE(nullptr, q); // the driver's threads exist before the application blocks the signal

  struct sigaction action {}, previous{};
  action.sa_handler = [](int) { handled_on_another_thread.fetch_add(1); };
  sigemptyset(&action.sa_mask);
  ASSERT_EQ(0, sigaction(SIGUSR1, &action, &previous));
  sigset_t usr1, old_mask;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  ASSERT_EQ(0, pthread_sigmask(SIG_BLOCK, &usr1, &old_mask));
  ASSERT_EQ(0, kill(getpid(), SIGUSR1));
  const timespec two_seconds{2, 0};
  const int received = sigtimedwait(&usr1, nullptr, &two_seconds);
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  sigaction(SIGUSR1, &previous, nullptr);
  EXPECT_EQ(SIGUSR1, received) << "the signal went to a thread that does not block it";
  EXPECT_EQ(0, handled_on_another_thread.load());
}

} // namespace
} // namespace zeal::cpu::test
