// Queues, USM, copies and fills, USM pools and virtual memory through UR's loader: what a SYCL runtime's USM
// code calls, the results checked, and the UR codes for bad input. (Ordering, events and host work:
// ur_queue_order_test.cpp.)
#include "ur_queue_fixture.hpp"


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
  ASSERT_TRUE(has_native_handle(urQueueGetNativeHandle, q, nullptr)) << "the Level Zero immediate command list";
  UR_EXPECT_OK(urQueueFlush(q));
  UR_EXPECT_OK(urQueueFinish(q));
  UR_EXPECT_OK(urQueueRetain(q));
  EXPECT_EQ(2u, queue_info<uint32_t>(q, UR_QUEUE_INFO_REFERENCE_COUNT));
  UR_EXPECT_OK(urQueueRelease(q));
  UR_EXPECT_OK(urQueueRelease(q));
}

// A queue over another's native handle (not owned) works and, released, leaves the list to its maker.

TEST_F(UrQueue, AQueueFromANativeHandleSharesTheCommandList) {
  auto native = native_of(urQueueGetNativeHandle, queue, nullptr);
  UR_ASSERT_OK(native.result);
  ur_queue_handle_t adopted = nullptr;
  UR_ASSERT_OK(urQueueCreateWithNativeHandle(native.handle, context, device, nullptr, &adopted)) << error();
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
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER,
            urQueueCreateWithNativeHandle(native.handle, context, device, nullptr, nullptr));
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

// urEnqueueNativeCommandExp (SYCL's enqueue_native_command): the function appends Level Zero commands to the

// queue's own list, ordered after the wait list and before whatever waits for the command's event.

// Another thread's finish (urQueueFinish, or freeing memory, which waits for every queue of the context) while a

// command is still running must leave the queue's order whole: a command enqueued meanwhile still waits for it.

// (The finish used to take the running commands from the queue, and the next command then waited for nothing.)

// Callbacks for SUBMITTED, RUNNING and COMPLETE each run once; the event may be released before they do.

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

// On out-of-order queues of eight threads, a host task waits for the events it is given, and one queue's tasks

// never run two at once (the counter is not atomic, as in UR's own test).

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

// A timestamp recording, on a queue that does not profile: one device time, its start and end, between the

// commands around it.

// (Codes only: under UR's validation layer the layer answers these before the adapter.)

} // namespace
} // namespace zeal_ur_test
