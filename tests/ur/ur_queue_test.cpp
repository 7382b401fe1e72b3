// Queues, USM, copies, fills, markers, barriers and events through UR's loader: what a SYCL runtime's USM code
// calls, the results checked, and the UR codes for bad input.
#include "ur_fixture.hpp"

#include <level_zero/ze_api.h>

#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <thread>
#include <atomic>
#include <vector>

namespace zeal_ur_test {
namespace {

class UrQueue : public UrQueueFace {
protected:

  ur_queue_handle_t make_queue(ur_queue_flags_t flags) {
    ur_queue_properties_t props{UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, nullptr, flags};
    ur_queue_handle_t q = nullptr;
    EXPECT_EQ(UR_RESULT_SUCCESS, urQueueCreate(context, device, &props, &q));
    return q;
  }
  ur_result_t create_queue(ur_queue_flags_t flags) {
    ur_queue_properties_t props{UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, nullptr, flags};
    ur_queue_handle_t q = nullptr;
    ur_result_t r = urQueueCreate(context, device, &props, &q);
    if (q != nullptr) urQueueRelease(q);
    return r;
  }
  template <class T>
  T queue_info(ur_queue_handle_t q, ur_queue_info_t key) {
    return info_value<T>([&](size_t size, void *value, size_t *ret) { return urQueueGetInfo(q, key, size, value, ret); });
  }
  template <class T>
  T event_info(ur_event_handle_t e, ur_event_info_t key) {
    return info_value<T>([&](size_t size, void *value, size_t *ret) { return urEventGetInfo(e, key, size, value, ret); });
  }
  void *shared(size_t size) {
    void *p = nullptr;
    EXPECT_EQ(UR_RESULT_SUCCESS, urUSMSharedAlloc(context, device, nullptr, nullptr, size, &p));
    return p;
  }
};

TEST_F(UrQueue, AQueueAnswersWhatItWasCreatedWith) {
  ur_queue_handle_t q = make_queue(UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE | UR_QUEUE_FLAG_PROFILING_ENABLE |
                                   UR_QUEUE_FLAG_SUBMISSION_BATCHED);
  ASSERT_NE(nullptr, q);
  EXPECT_EQ(context, queue_info<ur_context_handle_t>(q, UR_QUEUE_INFO_CONTEXT));
  EXPECT_EQ(device, queue_info<ur_device_handle_t>(q, UR_QUEUE_INFO_DEVICE));
  EXPECT_EQ(ur_queue_flags_t{UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE | UR_QUEUE_FLAG_PROFILING_ENABLE},
            queue_info<ur_queue_flags_t>(q, UR_QUEUE_INFO_FLAGS))
      << "the properties zeal keeps; a submission hint is not one";
  EXPECT_EQ(1u, queue_info<uint32_t>(q, UR_QUEUE_INFO_REFERENCE_COUNT));
  EXPECT_TRUE(queue_info<ur_bool_t>(q, UR_QUEUE_INFO_EMPTY));
  size_t size = 0;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_QUEUE, urQueueGetInfo(q, UR_QUEUE_INFO_SIZE, 0, nullptr, &size))
      << "SIZE is for device-side queues only";
  ur_native_handle_t native = 0;
  UR_ASSERT_OK(urQueueGetNativeHandle(q, nullptr, &native));
  EXPECT_NE(0u, native) << "the Level Zero immediate command list";
  UR_EXPECT_OK(urQueueFlush(q));
  UR_EXPECT_OK(urQueueFinish(q));
  UR_EXPECT_OK(urQueueRetain(q));
  EXPECT_EQ(2u, queue_info<uint32_t>(q, UR_QUEUE_INFO_REFERENCE_COUNT));
  UR_EXPECT_OK(urQueueRelease(q));
  UR_EXPECT_OK(urQueueRelease(q));
}

// A queue over another's native handle (not owned) works and, released, leaves the list to its maker.
TEST_F(UrQueue, AQueueFromANativeHandleSharesTheCommandList) {
  ur_native_handle_t native = 0;
  UR_ASSERT_OK(urQueueGetNativeHandle(queue, nullptr, &native));
  ur_queue_handle_t adopted = nullptr;
  UR_ASSERT_OK(urQueueCreateWithNativeHandle(native, context, device, nullptr, &adopted)) << error();
  EXPECT_EQ(context, queue_info<ur_context_handle_t>(adopted, UR_QUEUE_INFO_CONTEXT));
  auto *a = static_cast<uint32_t *>(shared(64 * 4));
  const uint32_t five = 5, six = 6;
  UR_ASSERT_OK(urEnqueueUSMFill(adopted, a, 4, &five, 64 * 4, 0, nullptr, nullptr));
  UR_ASSERT_OK(urQueueFinish(adopted));
  EXPECT_EQ(5u, a[63]);
  UR_ASSERT_OK(urQueueRelease(adopted));
  // The original queue's list is still alive.
  UR_ASSERT_OK(urEnqueueUSMFill(queue, a, 4, &six, 64 * 4, 0, nullptr, nullptr));
  UR_ASSERT_OK(urQueueFinish(queue));
  EXPECT_EQ(6u, a[0]);
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urQueueCreateWithNativeHandle(native, context, device, nullptr, nullptr));
  UR_EXPECT_OK(urUSMFree(context, a));
}

// A null native event asks for an event of the context with no command, complete from the start (Intel's adapter
// does the same; UR's conformance tests fill wait lists with such events).
TEST_F(UrQueue, ANullNativeEventIsACompleteEventOfTheContext) {
  ur_event_handle_t done = nullptr;
  UR_ASSERT_OK(urEventCreateWithNativeHandle(0, context, nullptr, &done)) << error();
  ur_event_status_t status = UR_EVENT_STATUS_QUEUED;
  UR_ASSERT_OK(urEventGetInfo(done, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr));
  EXPECT_EQ(UR_EVENT_STATUS_COMPLETE, status);
  ur_context_handle_t owner = nullptr;
  UR_ASSERT_OK(urEventGetInfo(done, UR_EVENT_INFO_CONTEXT, sizeof(owner), &owner, nullptr));
  EXPECT_EQ(context, owner);
  // A command waiting for it runs.
  ur_event_handle_t after = nullptr;
  UR_ASSERT_OK(urEnqueueEventsWait(queue, 1, &done, &after)) << error();
  UR_ASSERT_OK(urEventWait(1, &after));
  UR_EXPECT_OK(urEventRelease(after));
  UR_EXPECT_OK(urEventRelease(done));
}

TEST_F(UrQueue, BadQueuePropertiesGetTheSpecsCodes) {
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION, create_queue(0x10000000));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_QUEUE_PROPERTIES,
            create_queue(UR_QUEUE_FLAG_PRIORITY_LOW | UR_QUEUE_FLAG_PRIORITY_HIGH));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_QUEUE_PROPERTIES,
            create_queue(UR_QUEUE_FLAG_SUBMISSION_BATCHED | UR_QUEUE_FLAG_SUBMISSION_IMMEDIATE));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_QUEUE_PROPERTIES,
            create_queue(UR_QUEUE_FLAG_ON_DEVICE | UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE));
  EXPECT_EQ("urQueueCreate: device-side queues (ON_DEVICE) are not supported by zeal", error());
  ur_queue_handle_t q = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urQueueCreate(nullptr, device, nullptr, &q));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urQueueCreate(context, nullptr, nullptr, &q));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urQueueCreate(context, device, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urQueueFinish(nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urQueueRelease(nullptr));
}

TEST_F(UrQueue, UsmAllocationsDescribeThemselves) {
  void *host = nullptr, *dev = nullptr, *shr = nullptr;
  UR_ASSERT_OK(urUSMHostAlloc(context, nullptr, nullptr, 256, &host));
  UR_ASSERT_OK(urUSMDeviceAlloc(context, device, nullptr, nullptr, 256, &dev));
  ur_usm_desc_t aligned{UR_STRUCTURE_TYPE_USM_DESC, nullptr, 0, 4096};
  UR_ASSERT_OK(urUSMSharedAlloc(context, device, &aligned, nullptr, 1000, &shr));
  EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(shr) % 4096);
  auto type = [&](const void *p) {
    ur_usm_type_t t{};
    EXPECT_EQ(UR_RESULT_SUCCESS, urUSMGetMemAllocInfo(context, p, UR_USM_ALLOC_INFO_TYPE, sizeof t, &t, nullptr));
    return t;
  };
  EXPECT_EQ(UR_USM_TYPE_HOST, type(host));
  EXPECT_EQ(UR_USM_TYPE_DEVICE, type(dev));
  EXPECT_EQ(UR_USM_TYPE_SHARED, type(shr));
  int on_stack = 0;
  EXPECT_EQ(UR_USM_TYPE_UNKNOWN, type(&on_stack));
  // An interior pointer finds its allocation.
  const char *inside = static_cast<const char *>(shr) + 700;
  void *base = nullptr;
  size_t size = 0;
  ur_device_handle_t owner = nullptr;
  UR_ASSERT_OK(urUSMGetMemAllocInfo(context, inside, UR_USM_ALLOC_INFO_BASE_PTR, sizeof base, &base, nullptr));
  UR_ASSERT_OK(urUSMGetMemAllocInfo(context, inside, UR_USM_ALLOC_INFO_SIZE, sizeof size, &size, nullptr));
  UR_ASSERT_OK(urUSMGetMemAllocInfo(context, inside, UR_USM_ALLOC_INFO_DEVICE, sizeof owner, &owner, nullptr));
  EXPECT_EQ(shr, base);
  EXPECT_EQ(1000u, size);
  EXPECT_EQ(device, owner);
  UR_ASSERT_OK(urUSMGetMemAllocInfo(context, host, UR_USM_ALLOC_INFO_DEVICE, sizeof owner, &owner, nullptr));
  EXPECT_EQ(nullptr, owner) << "host memory belongs to no device";
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE,
            urUSMGetMemAllocInfo(context, &on_stack, UR_USM_ALLOC_INFO_SIZE, sizeof size, &size, nullptr));
  ur_usm_pool_handle_t pool = reinterpret_cast<ur_usm_pool_handle_t>(&on_stack);
  UR_ASSERT_OK(urUSMGetMemAllocInfo(context, host, UR_USM_ALLOC_INFO_POOL, sizeof pool, &pool, nullptr));
  EXPECT_EQ(nullptr, pool) << "memory of no pool";
  for (void *p : {host, dev, shr}) UR_EXPECT_OK(urUSMFree(context, p));
}

TEST_F(UrQueue, BadUsmRequestsGetTheSpecsCodes) {
  void *p = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_USM_SIZE, urUSMDeviceAlloc(context, device, nullptr, nullptr, 0, &p));
  if (zeal_sees_bad_input()) {
    EXPECT_EQ("USM allocation: size is 0", error());
  }
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_USM_SIZE, urUSMHostAlloc(context, nullptr, nullptr, SIZE_MAX / 2, &p));
  EXPECT_NE(std::string::npos, error().find("allocates at once")) << error();
  ur_usm_desc_t odd{UR_STRUCTURE_TYPE_USM_DESC, nullptr, 0, 24};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE, urUSMSharedAlloc(context, device, &odd, nullptr, 64, &p));
  if (zeal_sees_bad_input()) {
    EXPECT_EQ("USM allocation: alignment 24 is not a power of two", error());
  }
  ur_usm_desc_t hints{UR_STRUCTURE_TYPE_USM_DESC, nullptr, 0x80000000u, 0};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION, urUSMSharedAlloc(context, device, &hints, nullptr, 64, &p));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urUSMHostAlloc(context, nullptr, nullptr, 64, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urUSMDeviceAlloc(context, nullptr, nullptr, nullptr, 64, &p));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urUSMFree(context, nullptr));
  int not_usm = 0;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_MEM_OBJECT, urUSMFree(context, &not_usm));
  EXPECT_NE(std::string::npos, error().find("was not allocated")) << error();
}

TEST_F(UrQueue, FillThenCopyGivesThePattern) {
  constexpr size_t n = 4096;
  auto *dev = static_cast<uint32_t *>(nullptr);
  UR_ASSERT_OK(urUSMDeviceAlloc(context, device, nullptr, nullptr, n * 4, reinterpret_cast<void **>(&dev)));
  const uint32_t pattern = 0xC0FFEE01u;
  ur_event_handle_t filled = nullptr;
  UR_ASSERT_OK(urEnqueueUSMFill(queue, dev, sizeof pattern, &pattern, n * 4, 0, nullptr, &filled));
  EXPECT_EQ(UR_COMMAND_USM_FILL, event_info<ur_command_t>(filled, UR_EVENT_INFO_COMMAND_TYPE));
  EXPECT_EQ(queue, event_info<ur_queue_handle_t>(filled, UR_EVENT_INFO_COMMAND_QUEUE));
  EXPECT_EQ(context, event_info<ur_context_handle_t>(filled, UR_EVENT_INFO_CONTEXT));
  std::vector<uint32_t> host(n, 0);
  // Blocking: the data is there when the call returns.
  UR_ASSERT_OK(urEnqueueUSMMemcpy(queue, true, host.data(), dev, n * 4, 1, &filled, nullptr));
  EXPECT_EQ(UR_EVENT_STATUS_COMPLETE, event_info<ur_event_status_t>(filled, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(pattern, host[i]) << "element " << i;
  UR_EXPECT_OK(urEventRelease(filled));
  UR_EXPECT_OK(urUSMFree(context, dev));
}

// urUSMContextMemcpyExp: a blocking copy with no queue, between device memory and host memory of the context.
TEST_F(UrQueue, AContextCopiesWithoutAQueue) {
  EXPECT_TRUE(info_value<ur_bool_t>([&](size_t size, void *value, size_t *ret) {
    return urDeviceGetInfo(device, UR_DEVICE_INFO_USM_CONTEXT_MEMCPY_SUPPORT_EXP, size, value, ret);
  }));
  constexpr size_t n = 1024;
  void *dev = nullptr;
  UR_ASSERT_OK(urUSMDeviceAlloc(context, device, nullptr, nullptr, n * 4, &dev));
  std::vector<uint32_t> in(n), out(n, 0);
  for (size_t i = 0; i < n; ++i) in[i] = uint32_t(i * 2654435761u);
  UR_ASSERT_OK(urUSMContextMemcpyExp(context, dev, in.data(), n * 4)) << error();
  UR_ASSERT_OK(urUSMContextMemcpyExp(context, out.data(), dev, n * 4)) << error();
  EXPECT_EQ(in, out);
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, urUSMContextMemcpyExp(context, out.data(), dev, 2 * n * 4))
      << "past the end of the device allocation";
  EXPECT_NE(std::string::npos, error().find("past the end")) << error();
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, urUSMContextMemcpyExp(context, out.data(), dev, 0));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urUSMContextMemcpyExp(context, nullptr, dev, 4));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urUSMContextMemcpyExp(nullptr, out.data(), dev, 4));
  UR_EXPECT_OK(urUSMFree(context, dev));
}

// urEventCreateExp: an event no command owns, signalled in place by each barrier it is given to; another queue's
// command waits for it. With UR_EXP_EVENT_FLAG_IPC_EXP its state is shared through an IPC handle.
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

// urEnqueueNativeCommandExp (SYCL's enqueue_native_command): the function appends Level Zero commands to the
// queue's own list, ordered after the wait list and before whatever waits for the command's event.
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
    ur_native_handle_t list = 0;
    if (urQueueGetNativeHandle(q, nullptr, &list) != UR_RESULT_SUCCESS) return;
    (void)zeCommandListAppendMemoryCopy(reinterpret_cast<ze_command_list_handle_t>(list), copy->dst, copy->src, n,
                                        nullptr, 0, nullptr);
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

// Another thread's finish (urQueueFinish, or freeing memory, which waits for every queue of the context) while a
// command is still running must leave the queue's order whole: a command enqueued meanwhile still waits for it.
// (The finish used to take the running commands from the queue, and the next command then waited for nothing.)
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
  ur_native_handle_t native = 0;
  UR_ASSERT_OK(urEventGetNativeHandle(barrier, &native));
  EXPECT_NE(0u, native);
  for (ur_event_handle_t e : {fill, marker, barrier, prefetch, advise}) UR_EXPECT_OK(urEventRelease(e));
  UR_EXPECT_OK(urUSMFree(context, a));
  UR_EXPECT_OK(urQueueRelease(q));
}

// Callbacks for SUBMITTED, RUNNING and COMPLETE each run once; the event may be released before they do.
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

// UR asks only that a USM fill's pattern divide its size: one Level Zero cannot fill with (not a power of two, or
// longer than 128 bytes) is laid down by copies of patterns staged on the host. Buffer fills keep UR's power of two.
TEST_F(UrQueue, FillPatternsOfAnyLengthDividingTheSize) {
  for (size_t pattern_size : {size_t(3), size_t(10), size_t(256), size_t(1024)}) {
    SCOPED_TRACE(pattern_size);
    const size_t size = pattern_size * 100 + pattern_size; // longer than one 64 KiB stage for the longest
    std::vector<uint8_t> pattern(pattern_size);
    for (size_t i = 0; i < pattern_size; ++i) pattern[i] = uint8_t(i * 7 + 1);
    auto *a = static_cast<uint8_t *>(shared(size + 1));
    a[size] = 0xEE;
    UR_ASSERT_OK(urEnqueueUSMFill(queue, a, pattern_size, pattern.data(), size, 0, nullptr, nullptr)) << error();
    UR_ASSERT_OK(urQueueFinish(queue));
    size_t wrong = 0;
    for (size_t i = 0; i < size; ++i) wrong += a[i] != pattern[i % pattern_size];
    EXPECT_EQ(0u, wrong);
    EXPECT_EQ(0xEE, a[size]) << "the fill wrote past its end";
    // Rows of a 2-D fill, each from the pattern's start.
    const size_t width = pattern_size * 2, pitch = width + 5, height = 3;
    auto *rows = static_cast<uint8_t *>(shared(pitch * height));
    std::memset(rows, 0xEE, pitch * height);
    if (std::has_single_bit(pattern_size)) {
      UR_ASSERT_OK(urEnqueueUSMFill2D(queue, rows, pitch, pattern_size, pattern.data(), width, height, 0, nullptr,
                                      nullptr))
          << error();
      UR_ASSERT_OK(urQueueFinish(queue));
      for (size_t r = 0; r < height; ++r) {
        for (size_t i = 0; i < width; ++i) EXPECT_EQ(pattern[i % pattern_size], rows[r * pitch + i]) << r << "," << i;
        if (r + 1 < height) {
          EXPECT_EQ(0xEE, rows[r * pitch + width]) << "the gap after row " << r;
        }
      }
    }
    UR_EXPECT_OK(urUSMFree(context, rows));
    UR_EXPECT_OK(urUSMFree(context, a));
  }
}

TEST_F(UrQueue, BadCommandsGetTheSpecsCodes) {
  auto *a = static_cast<uint8_t *>(shared(64));
  const uint8_t pattern[3] = {1, 2, 3};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, urEnqueueUSMFill(queue, a, 3, pattern, 64, 0, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, urEnqueueUSMFill(queue, a, 1, pattern, 65, 0, nullptr, nullptr));
  if (zeal_sees_bad_input()) {
    EXPECT_NE(std::string::npos, error().find("run past the end of its USM allocation")) << error();
  }
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, urEnqueueUSMFill(queue, a, 1, pattern, 0, 0, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urEnqueueUSMFill(queue, a, 1, nullptr, 8, 0, nullptr, nullptr));
  uint8_t host[128];
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, urEnqueueUSMMemcpy(queue, true, host, a + 32, 64, 0, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, urEnqueueUSMMemcpy(queue, true, host, a, 0, 0, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urEnqueueUSMMemcpy(queue, true, nullptr, a, 8, 0, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST, urEnqueueUSMMemcpy(queue, true, host, a, 8, 2, nullptr, nullptr));
  ur_event_handle_t e = nullptr;
  UR_ASSERT_OK(urEnqueueEventsWait(queue, 0, nullptr, &e));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST, urEnqueueUSMMemcpy(queue, true, host, a, 8, 0, &e, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urEventWait(1, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE, urEventWait(0, &e));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION, urEnqueueUSMPrefetch(queue, a, 8, 0x80000000u, 0, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urEventRelease(nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urEnqueueEventsWait(nullptr, 0, nullptr, nullptr));
  UR_EXPECT_OK(urEventRelease(e));
  UR_EXPECT_OK(urUSMFree(context, a));
}

// UR requires urUSMFree to wait for commands that may use the memory: freeing right after a large fill must
// not let the fill write into freed memory (ASan would see it).
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

// Eight threads, each with its own queue and memory, plus one queue they share: every result checked.
TEST_F(UrQueue, EightThreadsFillAndCopyAtOnce) {
  constexpr int kThreads = 8;
  constexpr int kRounds = 50;
  constexpr size_t n = 1024;
  const int failures = failures_across_threads(kThreads, [&](int t, ur_queue_handle_t own) {
    void *dev = nullptr;
    if (urUSMDeviceAlloc(context, device, nullptr, nullptr, n * 4, &dev) != UR_RESULT_SUCCESS) return 1;
    int wrong = 0;
    std::vector<uint32_t> host(n);
    for (int r = 0; r < kRounds; ++r) {
      const uint32_t value = static_cast<uint32_t>(t * 1000 + r);
      ur_queue_handle_t q = r % 2 == 0 ? own : queue;
      ur_event_handle_t e = nullptr;
      if (urEnqueueUSMFill(q, dev, 4, &value, n * 4, 0, nullptr, &e) != UR_RESULT_SUCCESS ||
          urEnqueueUSMMemcpy(q, true, host.data(), dev, n * 4, 1, &e, nullptr) != UR_RESULT_SUCCESS)
        ++wrong;
      if (e != nullptr) urEventRelease(e);
      for (uint32_t v : host)
        if (v != value) {
          ++wrong;
          break;
        }
    }
    urUSMFree(context, dev);
    return wrong;
  });
  EXPECT_EQ(0, failures);
}

// SYCL's host_task: a host function in the queue's order, between the commands before and after it.
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

// On out-of-order queues of eight threads, a host task waits for the events it is given, and one queue's tasks
// never run two at once (the counter is not atomic, as in UR's own test).
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

// A USM pool keeps a freed block for the next allocation of its kind, device and size class, says which
// allocations are its own, and leaves the ones still allocated to the context when it goes.
TEST_F(UrQueue, UsmPoolsKeepFreedBlocks) {
  EXPECT_TRUE(info_value<ur_bool_t>([&](size_t size, void *value, size_t *ret) {
    return urDeviceGetInfo(device, UR_DEVICE_INFO_USM_POOL_SUPPORT, size, value, ret);
  }));
  ur_usm_pool_desc_t desc{UR_STRUCTURE_TYPE_USM_POOL_DESC, nullptr, 0};
  ur_usm_pool_handle_t pool = nullptr;
  UR_ASSERT_OK(urUSMPoolCreate(context, &desc, &pool)) << error();
  auto pool_info = [&](ur_usm_pool_info_t key, auto sample) {
    return info_value<decltype(sample)>(
        [&](size_t size, void *value, size_t *ret) { return urUSMPoolGetInfo(pool, key, size, value, ret); });
  };
  EXPECT_EQ(context, pool_info(UR_USM_POOL_INFO_CONTEXT, ur_context_handle_t{}));
  EXPECT_EQ(1u, pool_info(UR_USM_POOL_INFO_REFERENCE_COUNT, uint32_t{}));
  auto alloc_info = [&](void *p, ur_usm_alloc_info_t key, auto sample) {
    return info_value<decltype(sample)>(
        [&](size_t size, void *value, size_t *ret) { return urUSMGetMemAllocInfo(context, p, key, size, value, ret); });
  };
  void *first = nullptr;
  UR_ASSERT_OK(urUSMSharedAlloc(context, device, nullptr, pool, 100, &first));
  EXPECT_EQ(pool, alloc_info(first, UR_USM_ALLOC_INFO_POOL, ur_usm_pool_handle_t{}));
  EXPECT_EQ(100u, alloc_info(first, UR_USM_ALLOC_INFO_SIZE, size_t{}));
  UR_ASSERT_OK(urUSMFree(context, first));
  EXPECT_EQ(UR_USM_TYPE_UNKNOWN, alloc_info(first, UR_USM_ALLOC_INFO_TYPE, ur_usm_type_t{})) << "freed, if kept";
  EXPECT_NE(UR_RESULT_SUCCESS, urUSMFree(context, first)) << "freed twice";
  void *again = nullptr;
  UR_ASSERT_OK(urUSMSharedAlloc(context, device, nullptr, pool, 120, &again));
  EXPECT_EQ(first, again) << "the same size class (128 bytes) takes the kept block";
  EXPECT_EQ(120u, alloc_info(again, UR_USM_ALLOC_INFO_SIZE, size_t{}));
  void *device_block = nullptr;
  UR_ASSERT_OK(urUSMDeviceAlloc(context, device, nullptr, pool, 100, &device_block));
  EXPECT_NE(first, device_block);
  void *plain = nullptr;
  UR_ASSERT_OK(urUSMSharedAlloc(context, device, nullptr, nullptr, 100, &plain));
  EXPECT_EQ(nullptr, alloc_info(plain, UR_USM_ALLOC_INFO_POOL, ur_usm_pool_handle_t{}));
  UR_ASSERT_OK(urUSMFree(context, device_block));
  UR_ASSERT_OK(urUSMPoolRetain(pool));
  EXPECT_EQ(2u, pool_info(UR_USM_POOL_INFO_REFERENCE_COUNT, uint32_t{}));
  UR_ASSERT_OK(urUSMPoolRelease(pool));
  UR_ASSERT_OK(urUSMPoolRelease(pool));
  // The block still allocated outlives its pool and is freed as the context's own.
  std::memset(again, 7, 120);
  EXPECT_EQ(nullptr, alloc_info(again, UR_USM_ALLOC_INFO_POOL, ur_usm_pool_handle_t{}));
  UR_EXPECT_OK(urUSMFree(context, again));
  UR_EXPECT_OK(urUSMFree(context, plain));
}

// ZERO_INITIALIZE_BLOCK: every block handed out reads zeros, a kept one too, of every kind.
TEST_F(UrQueue, ZeroInitialisingPoolsZeroKeptBlocks) {
  ur_usm_pool_desc_t desc{UR_STRUCTURE_TYPE_USM_POOL_DESC, nullptr, UR_USM_POOL_FLAG_ZERO_INITIALIZE_BLOCK};
  ur_usm_pool_handle_t pool = nullptr;
  UR_ASSERT_OK(urUSMPoolCreate(context, &desc, &pool));
  constexpr size_t n = 256;
  std::vector<uint8_t> host(n, 1);
  for (int kind = 0; kind < 3; ++kind) {
    for (int round = 0; round < 2; ++round) {
      void *p = nullptr;
      const ur_result_t made = kind == 0   ? urUSMHostAlloc(context, nullptr, pool, n, &p)
                               : kind == 1 ? urUSMSharedAlloc(context, device, nullptr, pool, n, &p)
                                           : urUSMDeviceAlloc(context, device, nullptr, pool, n, &p);
      UR_ASSERT_OK(made);
      UR_ASSERT_OK(urEnqueueUSMMemcpy(queue, true, host.data(), p, n, 0, nullptr, nullptr));
      EXPECT_EQ(std::vector<uint8_t>(n, 0), host) << "kind " << kind << " round " << round;
      const uint8_t pattern = 0xab;
      UR_ASSERT_OK(urEnqueueUSMFill(queue, p, 1, &pattern, n, 0, nullptr, nullptr));
      UR_ASSERT_OK(urQueueFinish(queue));
      UR_ASSERT_OK(urUSMFree(context, p));
    }
  }
  UR_EXPECT_OK(urUSMPoolRelease(pool));
}

TEST_F(UrQueue, BadUsmPoolRequestsGetTheSpecsCodes) {
  ur_usm_pool_handle_t pool = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urUSMPoolCreate(context, nullptr, &pool));
  ur_usm_pool_desc_t desc{UR_STRUCTURE_TYPE_USM_POOL_DESC, nullptr, 0x100};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION, urUSMPoolCreate(context, &desc, &pool));
  desc.flags = 0;
  UR_ASSERT_OK(urUSMPoolCreate(context, &desc, &pool));
  ur_context_handle_t other = nullptr;
  UR_ASSERT_OK(urContextCreate(1, &device, nullptr, &other));
  void *p = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE, urUSMSharedAlloc(other, device, nullptr, pool, 64, &p))
      << "a pool of another context";
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urUSMPoolRelease(nullptr));
  UR_EXPECT_OK(urContextRelease(other));
  UR_EXPECT_OK(urUSMPoolRelease(pool));
}

// Virtual memory: a reservation mapped onto physical memory holds what commands write there, and answers its
// access mode; unmapped and freed, its addresses are the context's again.
TEST_F(UrQueue, VirtualMemoryMapsPhysicalMemory) {
  EXPECT_TRUE(info_value<ur_bool_t>([&](size_t size, void *value, size_t *ret) {
    return urDeviceGetInfo(device, UR_DEVICE_INFO_VIRTUAL_MEMORY_SUPPORT, size, value, ret);
  }));
  const size_t page = info_value<size_t>([&](size_t size, void *value, size_t *ret) {
    return urVirtualMemGranularityGetInfo(context, device, 1, UR_VIRTUAL_MEM_GRANULARITY_INFO_MINIMUM, size, value,
                                          ret);
  });
  ASSERT_GT(page, 0u);
  const size_t size = 4 * page;
  ur_physical_mem_handle_t physical = nullptr;
  UR_ASSERT_OK(urPhysicalMemCreate(context, device, size, nullptr, &physical)) << error();
  EXPECT_EQ(size, info_value<size_t>([&](size_t s, void *v, size_t *r) {
              return urPhysicalMemGetInfo(physical, UR_PHYSICAL_MEM_INFO_SIZE, s, v, r);
            }));
  EXPECT_EQ(device, info_value<ur_device_handle_t>([&](size_t s, void *v, size_t *r) {
              return urPhysicalMemGetInfo(physical, UR_PHYSICAL_MEM_INFO_DEVICE, s, v, r);
            }));
  void *base = nullptr;
  UR_ASSERT_OK(urVirtualMemReserve(context, nullptr, size, &base)) << error();
  UR_ASSERT_OK(urVirtualMemMap(context, base, size, physical, 0, UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE)) << error();
  const uint32_t pattern = 0x5a5a1234;
  UR_ASSERT_OK(urEnqueueUSMFill(queue, base, sizeof pattern, &pattern, size, 0, nullptr, nullptr)) << error();
  std::vector<uint32_t> host(size / 4);
  UR_ASSERT_OK(urEnqueueUSMMemcpy(queue, true, host.data(), base, size, 0, nullptr, nullptr));
  EXPECT_EQ(std::vector<uint32_t>(size / 4, pattern), host);
  auto access = [&] {
    return info_value<ur_virtual_mem_access_flags_t>([&](size_t s, void *v, size_t *r) {
      return urVirtualMemGetInfo(context, base, size, UR_VIRTUAL_MEM_INFO_ACCESS_MODE, s, v, r);
    });
  };
  EXPECT_EQ(ur_virtual_mem_access_flags_t{UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE}, access());
  UR_ASSERT_OK(urVirtualMemSetAccess(context, base, size, UR_VIRTUAL_MEM_ACCESS_FLAG_READ_ONLY));
  EXPECT_EQ(ur_virtual_mem_access_flags_t{UR_VIRTUAL_MEM_ACCESS_FLAG_READ_ONLY}, access());
  UR_ASSERT_OK(urVirtualMemUnmap(context, base, size));
  UR_ASSERT_OK(urVirtualMemFree(context, base, size));
  UR_ASSERT_OK(urPhysicalMemRelease(physical));

  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, urPhysicalMemCreate(context, device, page + 1, nullptr, &physical));
  EXPECT_NE(std::string::npos, error().find("pages")) << error();
  ur_physical_mem_properties_t props{UR_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES, nullptr, 0x100};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION, urPhysicalMemCreate(context, device, page, &props, &physical));
}

// EMPTY answers whether every command enqueued has completed, on in-order and out-of-order queues alike; an event
// made again from one of the queue's events' native handle answers with that queue.
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
    ur_native_handle_t native = 0;
    UR_ASSERT_OK(urEventGetNativeHandle(filled, &native));
    ur_event_handle_t again = nullptr;
    UR_ASSERT_OK(urEventCreateWithNativeHandle(native, context, nullptr, &again));
    EXPECT_EQ(q, event_info<ur_queue_handle_t>(again, UR_EVENT_INFO_COMMAND_QUEUE));
    UR_EXPECT_OK(urEventRelease(again));
    UR_EXPECT_OK(urEventRelease(filled));
    UR_EXPECT_OK(urUSMFree(context, a));
    UR_EXPECT_OK(urQueueRelease(q));
  }
}

// A timestamp recording, on a queue that does not profile: one device time, its start and end, between the
// commands around it.
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

// (Codes only: under UR's validation layer the layer answers these before the adapter.)
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
