// Copies, fills, events and fences on immediate lists and on regular lists executed by a queue.
#include "test_support.hpp"

#include <numeric>

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

} // namespace
} // namespace zeal::cpu::test
