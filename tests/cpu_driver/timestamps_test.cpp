// Timestamps written by command lists: the device timer at execution, and copies of events' kernel timestamps.
#include "test_support.hpp"

#include <cstring>

namespace zeal::cpu::test {
namespace {

using Timestamps = CpuDriver;

uint64_t device_now(ze_device_handle_t device) {
  uint64_t host = 0, dev = 0;
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetGlobalTimestamps(device, &host, &dev));
  return dev;
}

TEST_F(Timestamps, TheGlobalTimestampIsTheDeviceTimerWhenTheCommandRuns) {
  auto *stamp = shared_array<uint64_t>(1);
  *stamp = 0;
  ze_command_list_handle_t list = immediate_list();
  ze_event_handle_t gate = event(), done = event();
  ZE_ASSERT_OK(zeCommandListAppendWriteGlobalTimestamp(list, stamp, done, 1, &gate));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventHostSynchronize(done, 1'000'000));
  EXPECT_EQ(0u, *stamp) << "not written before it runs";
  const uint64_t before = device_now(device);
  ZE_ASSERT_OK(zeEventHostSignal(gate));
  ZE_ASSERT_OK(zeEventHostSynchronize(done, UINT64_MAX));
  const uint64_t after = device_now(device);
  EXPECT_LE(before, *stamp) << "written when the gate opened, not when appended";
  EXPECT_GE(after, *stamp);
}

TEST_F(Timestamps, ARegularListWritesANewTimestampEachTimeItRuns) {
  auto *stamps = shared_array<uint64_t>(2);
  ze_command_list_handle_t list = regular_list();
  ZE_ASSERT_OK(zeCommandListAppendWriteGlobalTimestamp(list, &stamps[0], nullptr, 0, nullptr));
  ZE_ASSERT_OK(zeCommandListAppendWriteGlobalTimestamp(list, &stamps[1], nullptr, 0, nullptr));
  ZE_ASSERT_OK(zeCommandListClose(list));
  ze_command_queue_handle_t q = make_queue();
  uint64_t previous = 0;
  for (int round = 0; round < 3; ++round) {
    ZE_ASSERT_OK(zeCommandQueueExecuteCommandLists(q, 1, &list, nullptr));
    ZE_ASSERT_OK(zeCommandQueueSynchronize(q, UINT64_MAX));
    EXPECT_LT(previous, stamps[0]) << "round " << round;
    EXPECT_LE(stamps[0], stamps[1]) << "in order within the list";
    previous = stamps[1];
  }
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeCommandListAppendWriteGlobalTimestamp(immediate_list(), nullptr,
                                                                                          nullptr, 0, nullptr));
}

TEST_F(Timestamps, KernelTimestampsOfEventsAreCopiedInOrderOrToTheirOffsets) {
  auto *bytes = shared_array<uint8_t>(256);
  ze_command_list_handle_t list = immediate_list();
  ze_event_handle_t first = event(), second = event();
  ZE_ASSERT_OK(zeCommandListAppendSignalEvent(list, first));
  ZE_ASSERT_OK(zeCommandListAppendMemoryFill(list, bytes, "\x11", 1, 256, second, 0, nullptr));
  ZE_ASSERT_OK(zeEventHostSynchronize(second, UINT64_MAX));
  ze_kernel_timestamp_result_t want[2]{};
  ZE_ASSERT_OK(zeEventQueryKernelTimestamp(first, &want[0]));
  ZE_ASSERT_OK(zeEventQueryKernelTimestamp(second, &want[1]));
  ASSERT_NE(0, std::memcmp(&want[0], &want[1], sizeof(want[0]))) << "two different runs";

  ze_event_handle_t pair[2] = {first, second};
  ze_event_handle_t done = event();
  ZE_ASSERT_OK(zeCommandListAppendQueryKernelTimestamps(list, 2, pair, bytes, nullptr, done, 0, nullptr));
  ZE_ASSERT_OK(zeEventHostSynchronize(done, UINT64_MAX));
  EXPECT_EQ(0, std::memcmp(bytes, want, sizeof(want))) << "one after another without offsets";
  EXPECT_EQ(0x11, bytes[sizeof(want)]) << "nothing written past them";

  std::memset(bytes, 0x11, 256);
  const size_t offsets[2] = {128, 32}; // swapped, with gaps
  ze_event_handle_t done2 = event();
  ZE_ASSERT_OK(zeCommandListAppendQueryKernelTimestamps(list, 2, pair, bytes, offsets, done2, 0, nullptr));
  ZE_ASSERT_OK(zeEventHostSynchronize(done2, UINT64_MAX));
  EXPECT_EQ(0, std::memcmp(bytes + 128, &want[0], sizeof(want[0])));
  EXPECT_EQ(0, std::memcmp(bytes + 32, &want[1], sizeof(want[1])));
  for (size_t i = 0; i < 32; ++i) ASSERT_EQ(0x11, bytes[i]) << "untouched at " << i;
  for (size_t i = 64; i < 128; ++i) ASSERT_EQ(0x11, bytes[i]) << "untouched at " << i;
}

TEST_F(Timestamps, TheQueryReadsTheEventsWhenItRunsNotWhenAppended) {
  auto *result = shared_array<ze_kernel_timestamp_result_t>(1);
  std::memset(result, 0, sizeof(*result));
  ze_command_list_handle_t list = immediate_list();
  ze_event_handle_t gate = event(), measured = event(), done = event();
  ZE_ASSERT_OK(zeCommandListAppendQueryKernelTimestamps(list, 1, &measured, result, nullptr, done, 1, &gate));
  ze_command_list_handle_t other = immediate_list();
  ZE_ASSERT_OK(zeCommandListAppendSignalEvent(other, measured));
  ZE_ASSERT_OK(zeEventHostSynchronize(measured, UINT64_MAX));
  ZE_ASSERT_OK(zeEventHostSignal(gate));
  ZE_ASSERT_OK(zeEventHostSynchronize(done, UINT64_MAX));
  ze_kernel_timestamp_result_t want{};
  ZE_ASSERT_OK(zeEventQueryKernelTimestamp(measured, &want));
  EXPECT_NE(0u, want.global.kernelEnd);
  EXPECT_EQ(0, std::memcmp(result, &want, sizeof(want)));
}

TEST_F(Timestamps, QueriesWithoutEventsOrDestinationAreRefused) {
  ze_command_list_handle_t list = immediate_list();
  ze_event_handle_t e = event();
  auto *dst = shared_array<ze_kernel_timestamp_result_t>(1);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
            zeCommandListAppendQueryKernelTimestamps(list, 1, nullptr, dst, nullptr, nullptr, 0, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
            zeCommandListAppendQueryKernelTimestamps(list, 1, &e, nullptr, nullptr, nullptr, 0, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE,
            zeCommandListAppendQueryKernelTimestamps(list, 1, &e, dst, nullptr, nullptr, 1, nullptr));
}

// ZE_experimental_event_query_timestamps: one result (a launch never splits over sub-devices), the event's kernel
// timestamps; the count is asked for with 0 and clamped when larger.
TEST_F(Timestamps, TheExperimentalQueryGivesTheEventsKernelTimestampsOnce) {
  auto *bytes = shared_array<uint8_t>(4096);
  ze_command_list_handle_t list = immediate_list();
  ze_event_handle_t gate = event(), done = event();
  ZE_ASSERT_OK(zeCommandListAppendMemoryFill(list, bytes, "\x22", 1, 4096, done, 1, &gate));
  uint32_t count = 0;
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryTimestampsExp(done, device, &count, nullptr)) << "not signalled yet";
  ZE_ASSERT_OK(zeEventHostSignal(gate));
  ZE_ASSERT_OK(zeEventHostSynchronize(done, UINT64_MAX));
  ze_kernel_timestamp_result_t want{};
  ZE_ASSERT_OK(zeEventQueryKernelTimestamp(done, &want));
  EXPECT_LT(want.global.kernelStart, want.global.kernelEnd);

  count = 0;
  ZE_ASSERT_OK(zeEventQueryTimestampsExp(done, device, &count, nullptr));
  EXPECT_EQ(1u, count);
  ze_kernel_timestamp_result_t got[3]{};
  count = 3;
  ZE_ASSERT_OK(zeEventQueryTimestampsExp(done, device, &count, got));
  EXPECT_EQ(1u, count) << "clamped to what there is";
  EXPECT_EQ(0, std::memcmp(&want, &got[0], sizeof want));
  EXPECT_EQ(0u, got[1].global.kernelStart) << "nothing written past the count";

  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeEventQueryTimestampsExp(done, device, nullptr, got));
}

} // namespace
} // namespace zeal::cpu::test
