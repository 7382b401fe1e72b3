// Ordering, events and host work through UR's loader: barriers and markers, event callbacks and profiling,
// signalable and IPC events, native commands, host tasks, timestamps, and the queue's order kept while another
// thread finishes it or frees memory.
#include "ur_queue_fixture.hpp"

#include <level_zero/ze_api.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace zeal_ur_test {
namespace {

TEST_F(UrQueue, ASignalableEventIsSignalledByEachBarrierItIsGiven) {
  EXPECT_TRUE(info_value<ur_bool_t>([&](size_t size, void *value, size_t *ret) {
    return urDeviceGetInfo(device, UR_DEVICE_INFO_REUSABLE_EVENTS_SUPPORT_EXP, size, value, ret);
  }));
  for (bool ipc : {false, true}) {
    SCOPED_TRACE(ipc ? "IPC event" : "plain event");
    ur_exp_event_desc_t desc{UR_STRUCTURE_TYPE_EXP_EVENT_DESC, nullptr, ipc ? ur_exp_event_flags_t{UR_EXP_EVENT_FLAG_IPC_EXP} : 0};
    ur_event_handle_t signalable = nullptr;
    UR_ASSERT_OK(urEventCreateExp(context, device, &desc, &signalable)) << error();
    EXPECT_NE(UR_EVENT_STATUS_COMPLETE,
              event_info<ur_event_status_t>(signalable, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS))
        << "nothing has signalled it yet";
    ur_event_handle_t imported = nullptr;
    void *data = nullptr;
    if (ipc) {
      size_t size = 0;
      UR_ASSERT_OK(urIPCGetEventHandleExp(signalable, &data, &size)) << error();
      UR_ASSERT_OK(urIPCOpenEventHandleExp(context, data, size, &imported)) << error();
      EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE, urIPCOpenEventHandleExp(context, data, size + 1, &imported));
      void *again = nullptr;
      EXPECT_EQ(UR_RESULT_ERROR_INVALID_EVENT, urIPCGetEventHandleExp(imported, &again, &size))
          << "only the event that made the handle exports it";
      EXPECT_NE(std::string::npos, error().find("opened from an IPC handle")) << error();
    }
    ur_queue_handle_t other = make_queue(0);
    ASSERT_NE(nullptr, other);
    constexpr size_t n = 256;
    void *a = nullptr;
    UR_ASSERT_OK(urUSMSharedAlloc(context, device, nullptr, nullptr, n, &a));
    for (uint8_t round = 1; round <= 3; ++round) {
      // The other queue's fill waits for the event, which the barrier signals once `queue`'s fill is done.
      const uint8_t first = round, second = uint8_t(round + 100);
      UR_ASSERT_OK(urEnqueueUSMFill(queue, a, 1, &first, n, 0, nullptr, nullptr));
      ur_event_handle_t given = signalable;
      UR_ASSERT_OK(urEnqueueEventsWaitWithBarrierExt(queue, nullptr, 0, nullptr, &given)) << error();
      EXPECT_EQ(signalable, given) << "signalled in place";
      ur_event_handle_t watched = ipc ? imported : signalable;
      UR_ASSERT_OK(urEnqueueUSMFill(other, static_cast<uint8_t *>(a) + n / 2, 1, &second, n / 2, 1, &watched, nullptr));
      UR_ASSERT_OK(urQueueFinish(other));
      UR_ASSERT_OK(urEventWait(1, &watched));
      EXPECT_EQ(first, static_cast<uint8_t *>(a)[0]);
      EXPECT_EQ(second, static_cast<uint8_t *>(a)[n - 1]);
    }
    ur_event_handle_t command_event = nullptr;
    UR_ASSERT_OK(urEnqueueEventsWait(queue, 0, nullptr, &command_event));
    ur_event_handle_t given = command_event;
    UR_EXPECT_OK(urEnqueueEventsWaitWithBarrierExt(queue, nullptr, 0, nullptr, &given));
    EXPECT_NE(command_event, given) << "an event of another command is an output, not signalled in place";
    UR_EXPECT_OK(urEventRelease(given));
    given = signalable;
    EXPECT_EQ(UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST,
              urEnqueueEventsWaitWithBarrierExt(queue, nullptr, 1, &signalable, &given));
    UR_EXPECT_OK(urQueueFinish(queue));
    UR_EXPECT_OK(urEventRelease(command_event));
    if (ipc) {
      UR_EXPECT_OK(urEventRelease(imported));
      UR_EXPECT_OK(urIPCPutEventHandleExp(context, data));
      EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE, urIPCPutEventHandleExp(context, data)) << "put already";
    } else {
      void *none = nullptr;
      size_t size = 0;
      EXPECT_EQ(UR_RESULT_ERROR_INVALID_EVENT, urIPCGetEventHandleExp(signalable, &none, &size));
    }
    UR_EXPECT_OK(urUSMFree(context, a));
    UR_EXPECT_OK(urQueueRelease(other));
    UR_EXPECT_OK(urEventRelease(signalable));
  }
  // Given again before its last signal landed, and released with a signal on its way: neither waits forever nor
  // lets the driver signal a freed event (its own IPC pool included).
  for (ur_exp_event_flags_t flags : {ur_exp_event_flags_t{0}, ur_exp_event_flags_t{UR_EXP_EVENT_FLAG_IPC_EXP}}) {
    ur_exp_event_desc_t desc{UR_STRUCTURE_TYPE_EXP_EVENT_DESC, nullptr, flags};
    ur_event_handle_t e = nullptr;
    UR_ASSERT_OK(urEventCreateExp(context, device, &desc, &e));
    for (int i = 0; i < 4; ++i) {
      ur_event_handle_t given = e;
      UR_ASSERT_OK(urEnqueueEventsWaitWithBarrierExt(queue, nullptr, 0, nullptr, &given));
    }
    UR_ASSERT_OK(urEventWait(1, &e));
    ur_event_handle_t given = e;
    UR_ASSERT_OK(urEnqueueEventsWaitWithBarrierExt(queue, nullptr, 0, nullptr, &given));
    UR_EXPECT_OK(urEventRelease(e));
    UR_EXPECT_OK(urQueueFinish(queue));
  }
  ur_exp_event_desc_t both{UR_STRUCTURE_TYPE_EXP_EVENT_DESC, nullptr,
                           UR_EXP_EVENT_FLAG_IPC_EXP | UR_EXP_EVENT_FLAG_ENABLE_PROFILING};
  ur_event_handle_t refused = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE, urEventCreateExp(context, device, &both, &refused));
  both.flags = 0x80;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION, urEventCreateExp(context, device, &both, &refused));
}

TEST_F(UrQueue, ANativeCommandAppendsToTheQueuesListInItsOrder) {
  EXPECT_TRUE(info_value<ur_bool_t>([&](size_t size, void *value, size_t *ret) {
    return urDeviceGetInfo(device, UR_DEVICE_INFO_ENQUEUE_NATIVE_COMMAND_SUPPORT_EXP, size, value, ret);
  }));
  constexpr size_t n = 4096;
  struct Copy {
    void *dst, *src;
    ur_queue_handle_t seen = nullptr;
  };
  const auto native_copy = +[](ur_queue_handle_t q, void *data) {
    auto *copy = static_cast<Copy *>(data);
    copy->seen = q;
    auto list = native_of<ze_command_list_handle_t>(urQueueGetNativeHandle, q, nullptr);
    if (list.result != UR_RESULT_SUCCESS) return;
    (void)zeCommandListAppendMemoryCopy(list.handle, copy->dst, copy->src, n, nullptr, 0, nullptr);
  };
  for (ur_queue_flags_t flags : {ur_queue_flags_t{0}, ur_queue_flags_t{UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE}}) {
    ur_queue_handle_t q = make_queue(flags);
    ASSERT_NE(nullptr, q);
    void *a = nullptr, *b = nullptr;
    UR_ASSERT_OK(urUSMDeviceAlloc(context, device, nullptr, nullptr, n, &a));
    UR_ASSERT_OK(urUSMDeviceAlloc(context, device, nullptr, nullptr, n, &b));
    const uint8_t pattern = uint8_t(0x5a + flags);
    ur_event_handle_t filled = nullptr, copied = nullptr;
    UR_ASSERT_OK(urEnqueueUSMFill(q, a, 1, &pattern, n, 0, nullptr, &filled));
    Copy copy{b, a};
    UR_ASSERT_OK(urEnqueueNativeCommandExp(q, native_copy, &copy, 0, nullptr, nullptr, 1, &filled, &copied)) << error();
    EXPECT_EQ(q, copy.seen) << "the function runs at once, given the queue";
    EXPECT_EQ(UR_COMMAND_ENQUEUE_NATIVE_EXP, event_info<ur_command_t>(copied, UR_EVENT_INFO_COMMAND_TYPE));
    std::vector<uint8_t> host(n, 0);
    UR_ASSERT_OK(urEnqueueUSMMemcpy(q, true, host.data(), b, n, 1, &copied, nullptr));
    EXPECT_EQ(std::vector<uint8_t>(n, pattern), host);
    const ur_exp_enqueue_native_command_properties_t bad{UR_STRUCTURE_TYPE_EXP_ENQUEUE_NATIVE_COMMAND_PROPERTIES,
                                                         nullptr, 0x10};
    EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION,
              urEnqueueNativeCommandExp(q, native_copy, &copy, 0, nullptr, &bad, 0, nullptr, nullptr));
    EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER,
              urEnqueueNativeCommandExp(q, nullptr, &copy, 0, nullptr, nullptr, 0, nullptr, nullptr));
    EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER,
              urEnqueueNativeCommandExp(q, native_copy, &copy, 1, nullptr, nullptr, 0, nullptr, nullptr));
    UR_EXPECT_OK(urEventRelease(filled));
    UR_EXPECT_OK(urEventRelease(copied));
    UR_EXPECT_OK(urUSMFree(context, a));
    UR_EXPECT_OK(urUSMFree(context, b));
    UR_EXPECT_OK(urQueueRelease(q));
  }
}

TEST_F(UrQueue, AFinishFromAnotherThreadLeavesTheQueuesOrderWhole) {
  for (ur_queue_flags_t flags : {ur_queue_flags_t{0}, ur_queue_flags_t{UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE}}) {
    const bool in_order = flags == 0;
    ur_queue_handle_t q = make_queue(flags);
    ASSERT_NE(nullptr, q);
    auto *word = static_cast<uint32_t *>(shared(4));
    ASSERT_NE(nullptr, word);
    *word = 0;
    struct Gate {
      std::atomic<bool> open{false};
      uint32_t *word;
      uint32_t seen = ~0u;
    } gate{false, word};
    const auto held = +[](void *data) {
      auto *g = static_cast<Gate *>(data);
      while (!g->open.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      g->seen = *g->word;
    };
    UR_ASSERT_OK(urEnqueueHostTaskExp(q, held, &gate, nullptr, 0, nullptr, nullptr));
    std::thread finisher([&] { EXPECT_EQ(UR_RESULT_SUCCESS, urQueueFinish(q)); });
    std::this_thread::sleep_for(std::chrono::milliseconds(50)); // the finish is waiting for the held task now
    // In order, the fill waits for the task; out of order, a barrier orders it after the task.
    if (!in_order) {
      UR_ASSERT_OK(urEnqueueEventsWaitWithBarrier(q, 0, nullptr, nullptr));
    }
    const uint32_t seven = 7;
    UR_ASSERT_OK(urEnqueueUSMFill(q, word, 4, &seven, 4, 0, nullptr, nullptr));
    std::this_thread::sleep_for(std::chrono::milliseconds(20)); // time enough for a fill that waited for nothing
    gate.open = true;
    finisher.join();
    UR_ASSERT_OK(urQueueFinish(q));
    EXPECT_EQ(0u, gate.seen) << (in_order ? "in order" : "out of order") << ": the fill ran before the task";
    EXPECT_EQ(7u, *word);
    UR_EXPECT_OK(urUSMFree(context, word));
    UR_EXPECT_OK(urQueueRelease(q));
  }
}

TEST_F(UrQueue, MarkersBarriersAndHintsOrderAnOutOfOrderQueue) {
  ur_queue_handle_t q = make_queue(UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  ASSERT_NE(nullptr, q);
  auto *a = static_cast<uint8_t *>(shared(1 << 20));
  const uint8_t seven = 7;
  ur_event_handle_t fill = nullptr, marker = nullptr, barrier = nullptr, prefetch = nullptr, advise = nullptr;
  UR_ASSERT_OK(urEnqueueUSMFill(q, a, 1, &seven, 1 << 20, 0, nullptr, &fill));
  UR_ASSERT_OK(urEnqueueEventsWait(q, 1, &fill, &marker));
  UR_ASSERT_OK(urEnqueueUSMPrefetch(q, a, 1 << 20, 0, 1, &marker, &prefetch));
  UR_ASSERT_OK(urEnqueueUSMAdvise(q, a, 1 << 20, UR_USM_ADVICE_FLAG_SET_READ_MOSTLY, &advise));
  UR_ASSERT_OK(urEnqueueEventsWaitWithBarrier(q, 0, nullptr, &barrier));
  UR_ASSERT_OK(urEventWait(1, &barrier));
  // A barrier without a wait list waits for everything before it.
  for (ur_event_handle_t e : {fill, marker, prefetch, advise})
    EXPECT_EQ(UR_EVENT_STATUS_COMPLETE, event_info<ur_event_status_t>(e, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS));
  EXPECT_EQ(7, a[(1 << 20) - 1]);
  EXPECT_EQ(UR_COMMAND_EVENTS_WAIT, event_info<ur_command_t>(marker, UR_EVENT_INFO_COMMAND_TYPE));
  EXPECT_EQ(UR_COMMAND_EVENTS_WAIT_WITH_BARRIER, event_info<ur_command_t>(barrier, UR_EVENT_INFO_COMMAND_TYPE));
  EXPECT_EQ(UR_COMMAND_USM_PREFETCH, event_info<ur_command_t>(prefetch, UR_EVENT_INFO_COMMAND_TYPE));
  EXPECT_EQ(UR_COMMAND_USM_ADVISE, event_info<ur_command_t>(advise, UR_EVENT_INFO_COMMAND_TYPE));
  ASSERT_TRUE(has_native_handle(urEventGetNativeHandle, barrier));
  for (ur_event_handle_t e : {fill, marker, barrier, prefetch, advise}) UR_EXPECT_OK(urEventRelease(e));
  UR_EXPECT_OK(urUSMFree(context, a));
  UR_EXPECT_OK(urQueueRelease(q));
}

TEST_F(UrQueue, EventCallbacksRunForEachState) {
  struct Seen {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<ur_execution_info_t> states;
    ur_event_handle_t event = nullptr;
  } seen;
  auto note = [](ur_event_handle_t e, ur_execution_info_t state, void *user) {
    auto *s = static_cast<Seen *>(user);
    std::lock_guard lock(s->mutex);
    s->states.push_back(state);
    s->event = e;
    s->changed.notify_all();
  };
  void *a = shared(8 << 20);
  const uint32_t zero = 0;
  ur_event_handle_t e = nullptr;
  UR_ASSERT_OK(urEnqueueUSMFill(queue, a, 4, &zero, 8 << 20, 0, nullptr, &e));
  for (ur_execution_info_t state : {UR_EXECUTION_INFO_SUBMITTED, UR_EXECUTION_INFO_RUNNING, UR_EXECUTION_INFO_COMPLETE})
    UR_ASSERT_OK(urEventSetCallback(e, state, note, &seen));
  EXPECT_EQ(UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION, urEventSetCallback(e, UR_EXECUTION_INFO_QUEUED, note, &seen));
  UR_ASSERT_OK(urEventRelease(e));
  std::unique_lock lock(seen.mutex);
  ASSERT_TRUE(seen.changed.wait_for(lock, std::chrono::seconds(30), [&] { return seen.states.size() == 3; }))
      << seen.states.size() << " of 3 callbacks ran";
  EXPECT_EQ(UR_EXECUTION_INFO_SUBMITTED, seen.states[0]);
  EXPECT_EQ(e, seen.event);
  lock.unlock();
  UR_EXPECT_OK(urQueueFinish(queue));
  UR_EXPECT_OK(urUSMFree(context, a));
}

TEST_F(UrQueue, ProfilingTimesOnlyOnProfilingQueues) {
  ur_queue_handle_t timed = make_queue(UR_QUEUE_FLAG_PROFILING_ENABLE);
  ASSERT_NE(nullptr, timed);
  auto *a = shared(1 << 16);
  const uint32_t zero = 0;
  ur_event_handle_t e = nullptr, plain = nullptr;
  UR_ASSERT_OK(urEnqueueUSMFill(timed, a, 4, &zero, 1 << 16, 0, nullptr, &e));
  UR_ASSERT_OK(urEnqueueUSMFill(queue, a, 4, &zero, 1 << 16, 1, &e, &plain));
  UR_ASSERT_OK(urEventWait(1, &plain));
  auto time = [&](ur_profiling_info_t key) {
    uint64_t ns = 0;
    EXPECT_EQ(UR_RESULT_SUCCESS, urEventGetProfilingInfo(e, key, sizeof ns, &ns, nullptr));
    return ns;
  };
  EXPECT_LE(time(UR_PROFILING_INFO_COMMAND_QUEUED), time(UR_PROFILING_INFO_COMMAND_SUBMIT));
  EXPECT_LE(time(UR_PROFILING_INFO_COMMAND_SUBMIT), time(UR_PROFILING_INFO_COMMAND_START));
  EXPECT_LE(time(UR_PROFILING_INFO_COMMAND_START), time(UR_PROFILING_INFO_COMMAND_END));
  EXPECT_LE(time(UR_PROFILING_INFO_COMMAND_END), time(UR_PROFILING_INFO_COMMAND_COMPLETE));
  uint64_t ns = 0;
  EXPECT_EQ(UR_RESULT_ERROR_PROFILING_INFO_NOT_AVAILABLE,
            urEventGetProfilingInfo(plain, UR_PROFILING_INFO_COMMAND_START, sizeof ns, &ns, nullptr));
  EXPECT_NE(std::string::npos, error().find("has no profiling data")) << error();
  UR_EXPECT_OK(urEventRelease(e));
  UR_EXPECT_OK(urEventRelease(plain));
  UR_EXPECT_OK(urUSMFree(context, a));
  UR_EXPECT_OK(urQueueRelease(timed));
}

TEST_F(UrQueue, FreeWaitsForTheCommandsBeforeIt) {
  ur_queue_handle_t q = make_queue(UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  ASSERT_NE(nullptr, q);
  for (int round = 0; round < 4; ++round) {
    void *a = shared(16 << 20);
    const uint64_t pattern = 0x0123456789abcdefull;
    UR_ASSERT_OK(urEnqueueUSMFill(q, a, sizeof pattern, &pattern, 16 << 20, 0, nullptr, nullptr));
    UR_ASSERT_OK(urUSMFree(context, a));
  }
  EXPECT_TRUE(queue_info<ur_bool_t>(q, UR_QUEUE_INFO_EMPTY));
  UR_EXPECT_OK(urQueueRelease(q));
}

TEST_F(UrQueue, HostTasksRunInTheQueuesOrder) {
  EXPECT_TRUE(info_value<ur_bool_t>([&](size_t size, void *value, size_t *ret) {
    return urDeviceGetInfo(device, UR_DEVICE_INFO_ENQUEUE_HOST_TASK_SUPPORT_EXP, size, value, ret);
  }));
  constexpr size_t n = 4096;
  auto *a = static_cast<uint32_t *>(shared(n * 4));
  auto *b = static_cast<uint32_t *>(shared(n * 4));
  ASSERT_NE(nullptr, a);
  ASSERT_NE(nullptr, b);
  struct Task {
    uint32_t *a;
    size_t n;
    bool saw_fill = true;
  } task{a, n};
  const uint32_t seven = 7;
  UR_ASSERT_OK(urEnqueueUSMFill(queue, a, 4, &seven, n * 4, 0, nullptr, nullptr));
  // The task runs after the fill (it sees 7s) and the copy after the task (it copies 9s); the sleep makes a copy
  // that did not wait for the task copy 7s.
  ur_event_handle_t done = nullptr;
  UR_ASSERT_OK(urEnqueueHostTaskExp(
      queue,
      [](void *data) {
        auto *t = static_cast<Task *>(data);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        for (size_t i = 0; i < t->n; ++i) {
          t->saw_fill = t->saw_fill && t->a[i] == 7;
          t->a[i] = 9;
        }
      },
      &task, nullptr, 0, nullptr, &done))
      << error();
  UR_ASSERT_OK(urEnqueueUSMMemcpy(queue, false, b, a, n * 4, 0, nullptr, nullptr));
  UR_ASSERT_OK(urQueueFinish(queue));
  EXPECT_TRUE(task.saw_fill);
  EXPECT_EQ(std::vector<uint32_t>(n, 9), std::vector<uint32_t>(b, b + n));
  EXPECT_EQ(UR_COMMAND_HOST_TASK_EXP, event_info<ur_command_t>(done, UR_EVENT_INFO_COMMAND_TYPE));
  EXPECT_EQ(UR_EVENT_STATUS_COMPLETE,
            event_info<ur_event_status_t>(done, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS));
  UR_EXPECT_OK(urEventRelease(done));

  // Waiting for the task's event waits for the function to return.
  std::atomic<bool> returned{false};
  UR_ASSERT_OK(urEnqueueHostTaskExp(
      queue,
      [](void *data) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        static_cast<std::atomic<bool> *>(data)->store(true);
      },
      &returned, nullptr, 0, nullptr, &done));
  UR_ASSERT_OK(urEventWait(1, &done));
  EXPECT_TRUE(returned.load());
  UR_EXPECT_OK(urEventRelease(done));
  UR_EXPECT_OK(urUSMFree(context, a));
  UR_EXPECT_OK(urUSMFree(context, b));
}

TEST_F(UrQueue, HostTasksOfOutOfOrderQueuesWaitForTheirEvents) {
  constexpr int kThreads = 8;
  constexpr int kTasks = 50;
  const int failures = failures_across_threads(kThreads, [&](int, ur_queue_handle_t) {
    ur_queue_handle_t q = make_queue(UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    if (q == nullptr) return 1;
    auto *word = static_cast<uint32_t *>(shared(4));
    int counter = 0;
    int wrong = 0;
    struct Check {
      uint32_t *word;
      uint32_t expected;
      bool ok = false;
    };
    std::vector<Check> checks(kTasks);
    for (int i = 0; i < kTasks; ++i) {
      const uint32_t value = static_cast<uint32_t>(i + 1);
      ur_event_handle_t filled = nullptr;
      checks[i] = Check{word, value};
      if (urEnqueueUSMFill(q, word, 4, &value, 4, 0, nullptr, &filled) != UR_RESULT_SUCCESS) ++wrong;
      if (urEnqueueHostTaskExp(
              q, [](void *data) { auto *c = static_cast<Check *>(data); c->ok = *c->word == c->expected; }, &checks[i],
              nullptr, 1, &filled, nullptr) != UR_RESULT_SUCCESS ||
          urEnqueueHostTaskExp(q, [](void *data) { ++*static_cast<int *>(data); }, &counter, nullptr, 0, nullptr,
                               nullptr) != UR_RESULT_SUCCESS)
        ++wrong;
      // The next fill of the word must wait for the check.
      if (urEnqueueEventsWaitWithBarrier(q, 0, nullptr, nullptr) != UR_RESULT_SUCCESS) ++wrong;
      urEventRelease(filled);
    }
    if (urQueueFinish(q) != UR_RESULT_SUCCESS) ++wrong;
    for (const Check &c : checks) wrong += c.ok ? 0 : 1;
    if (counter != kTasks) ++wrong;
    urUSMFree(context, word);
    urQueueRelease(q);
    return wrong;
  });
  EXPECT_EQ(0, failures);
}

TEST_F(UrQueue, EmptyQueuesAndRoundTripEventsAnswerTruly) {
  for (ur_queue_flags_t flags : {ur_queue_flags_t{0}, ur_queue_flags_t{UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE}}) {
    ur_queue_handle_t q = make_queue(flags);
    ASSERT_NE(nullptr, q);
    auto *a = static_cast<uint32_t *>(shared(1 << 20));
    ASSERT_NE(nullptr, a);
    std::atomic<bool> release{false};
    UR_ASSERT_OK(urEnqueueHostTaskExp(
        q,
        [](void *data) {
          while (!static_cast<std::atomic<bool> *>(data)->load()) std::this_thread::yield();
        },
        &release, nullptr, 0, nullptr, nullptr));
    const uint32_t seven = 7;
    ur_event_handle_t filled = nullptr;
    UR_ASSERT_OK(urEnqueueUSMFill(q, a, 4, &seven, 1 << 20, 0, nullptr, &filled));
    EXPECT_FALSE(queue_info<ur_bool_t>(q, UR_QUEUE_INFO_EMPTY)) << "a task is still running";
    release = true;
    UR_ASSERT_OK(urQueueFinish(q));
    EXPECT_TRUE(queue_info<ur_bool_t>(q, UR_QUEUE_INFO_EMPTY)) << "flags " << flags;
    auto native = native_of(urEventGetNativeHandle, filled);
    UR_ASSERT_OK(native.result);
    ur_event_handle_t again = nullptr;
    UR_ASSERT_OK(urEventCreateWithNativeHandle(native.handle, context, nullptr, &again));
    EXPECT_EQ(q, event_info<ur_queue_handle_t>(again, UR_EVENT_INFO_COMMAND_QUEUE));
    UR_EXPECT_OK(urEventRelease(again));
    UR_EXPECT_OK(urEventRelease(filled));
    UR_EXPECT_OK(urUSMFree(context, a));
    UR_EXPECT_OK(urQueueRelease(q));
  }
}

TEST_F(UrQueue, TimestampRecordingsGiveTheDeviceTimeBetweenCommands) {
  EXPECT_TRUE(info_value<ur_bool_t>([&](size_t size, void *value, size_t *ret) {
    return urDeviceGetInfo(device, UR_DEVICE_INFO_TIMESTAMP_RECORDING_SUPPORT_EXP, size, value, ret);
  }));
  auto time = [&](ur_event_handle_t e, ur_profiling_info_t key) {
    uint64_t t = 0;
    EXPECT_EQ(UR_RESULT_SUCCESS, urEventGetProfilingInfo(e, key, sizeof t, &t, nullptr)) << error();
    return t;
  };
  ur_event_handle_t first = nullptr, second = nullptr;
  UR_ASSERT_OK(urEnqueueTimestampRecordingExp(queue, false, 0, nullptr, &first)) << error();
  auto *a = static_cast<uint32_t *>(shared(4 << 20));
  const uint32_t nine = 9;
  UR_ASSERT_OK(urEnqueueUSMFill(queue, a, 4, &nine, 4 << 20, 0, nullptr, nullptr));
  UR_ASSERT_OK(urEnqueueTimestampRecordingExp(queue, true, 0, nullptr, &second));
  EXPECT_EQ(UR_COMMAND_TIMESTAMP_RECORDING_EXP, event_info<ur_command_t>(second, UR_EVENT_INFO_COMMAND_TYPE));
  const uint64_t t1 = time(first, UR_PROFILING_INFO_COMMAND_START);
  const uint64_t t2 = time(second, UR_PROFILING_INFO_COMMAND_START);
  EXPECT_GT(t1, 0u);
  EXPECT_EQ(t1, time(first, UR_PROFILING_INFO_COMMAND_END));
  EXPECT_LT(t1, t2) << "the second recording ran after the fill";
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urEnqueueTimestampRecordingExp(queue, false, 0, nullptr, nullptr));
  UR_EXPECT_OK(urEventRelease(first));
  UR_EXPECT_OK(urEventRelease(second));
  UR_EXPECT_OK(urUSMFree(context, a));
}

TEST_F(UrQueue, BadHostTasksGetTheSpecsCodes) {
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urEnqueueHostTaskExp(queue, nullptr, nullptr, nullptr, 0, nullptr, nullptr));
  ur_exp_host_task_properties_t props{UR_STRUCTURE_TYPE_EXP_HOST_TASK_PROPERTIES, nullptr, 0x10};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION,
            urEnqueueHostTaskExp(queue, [](void *) {}, nullptr, &props, 0, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE,
            urEnqueueHostTaskExp(nullptr, [](void *) {}, nullptr, nullptr, 0, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST,
            urEnqueueHostTaskExp(queue, [](void *) {}, nullptr, nullptr, 1, nullptr, nullptr));
}

} // namespace
} // namespace zeal_ur_test
