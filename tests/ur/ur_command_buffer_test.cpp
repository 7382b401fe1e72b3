// Command buffers through UR's loader as DPC++'s SYCL Graph drives them: a graph of kernels and a USM copy
// recorded once with sync points, replayed a thousand times, its launches updated (arguments, range, kernel);
// in-order buffers of buffer commands; runs of one buffer from several threads; UR's codes for bad calls.
#include "ur_program_fixture.hpp"

#include <atomic>
#include <thread>

namespace zeal_ur_test {
namespace {

class UrCommandBuffer : public UrGraphKernels {
protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(UrGraphKernels::SetUp());
    UR_ASSERT_OK(urQueueCreate(context, device, nullptr, &queue));
  }
  void TearDown() override {
    for (ur_exp_command_buffer_handle_t b : buffers) {
      UR_EXPECT_OK(urCommandBufferReleaseExp(b));
    }
    if (queue != nullptr) {
      UR_EXPECT_OK(urQueueRelease(queue));
    }
    UrGraphKernels::TearDown();
  }
  ur_exp_command_buffer_handle_t make(bool updatable, bool in_order) {
    ur_exp_command_buffer_desc_t desc{UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC, nullptr, updatable, in_order, false};
    ur_exp_command_buffer_handle_t b = nullptr;
    EXPECT_EQ(UR_RESULT_SUCCESS, urCommandBufferCreateExp(context, device, &desc, &b)) << error();
    if (b != nullptr) buffers.push_back(b);
    return b;
  }
  // A 1-D launch with arguments, after `deps`; its sync point and (for an updatable buffer) its handle.
  ur_result_t launch(ur_exp_command_buffer_handle_t b, ur_kernel_handle_t k, size_t global, size_t local,
                     const std::vector<ur_exp_kernel_arg_properties_t> &args, std::vector<uint32_t> deps,
                     uint32_t *point, ur_exp_command_buffer_command_handle_t *command = nullptr) {
    return urCommandBufferAppendKernelLaunchWithArgsExp(
        b, k, 1, nullptr, &global, local != 0 ? &local : nullptr, static_cast<uint32_t>(args.size()), args.data(), 0,
        nullptr, static_cast<uint32_t>(deps.size()), deps.empty() ? nullptr : deps.data(), 0, nullptr, point, nullptr,
        command);
  }
  // What the graph leaves in sum[i] after `runs` runs with `seed` and `k`.
  static int64_t graph_sum(size_t i, int seed, int k, int64_t runs) {
    const int64_t a = seed + static_cast<int64_t>(i);
    return runs * (a * a + k);
  }

  // The graph SYCL would record: init -> square -> copy -> accumulate, each after the one before by sync point.
  struct Graph {
    ur_exp_command_buffer_handle_t buffer = nullptr;
    ur_exp_command_buffer_command_handle_t init = nullptr, accumulate = nullptr;
    int64_t *sum = nullptr;
  };
  static constexpr size_t kItems = 1024;
  void record_graph(Graph &g, int seed, int k, bool updatable) {
    int *a = shared<int>(kItems), *b = shared<int>(kItems), *c = shared<int>(kItems);
    g.sum = shared<int64_t>(kItems);
    ASSERT_TRUE(a && b && c && g.sum);
    std::fill(g.sum, g.sum + kItems, 0);
    g.buffer = make(updatable, false);
    ASSERT_NE(nullptr, g.buffer);
    uint32_t s_init = 0, s_square = 0, s_copy = 0, s_acc = 0;
    UR_ASSERT_OK(launch(g.buffer, init, kItems, 64, {pointer(0, a), value(1, &seed)}, {}, &s_init,
                        updatable ? &g.init : nullptr))
        << error();
    UR_ASSERT_OK(launch(g.buffer, square, kItems, 0, {pointer(0, a), pointer(1, b)}, {s_init}, &s_square)) << error();
    UR_ASSERT_OK(urCommandBufferAppendUSMMemcpyExp(g.buffer, c, b, kItems * sizeof(int), 1, &s_square, 0, nullptr,
                                                   &s_copy, nullptr, nullptr))
        << error();
    UR_ASSERT_OK(launch(g.buffer, accumulate, kItems, 32, {pointer(0, c), pointer(1, g.sum), value(2, &k)}, {s_copy},
                        &s_acc, updatable ? &g.accumulate : nullptr))
        << error();
    EXPECT_EQ(3u, s_acc);
    UR_ASSERT_OK(urCommandBufferFinalizeExp(g.buffer)) << error();
  }

  ur_queue_handle_t queue = nullptr;
  std::vector<ur_exp_command_buffer_handle_t> buffers;
};

TEST_F(UrCommandBuffer, TheDeviceAnswersWhatItSupports) {
  EXPECT_TRUE(info_value<ur_bool_t>([&](size_t size, void *value, size_t *ret) {
    return urDeviceGetInfo(device, UR_DEVICE_INFO_COMMAND_BUFFER_SUPPORT_EXP, size, value, ret);
  }));
  const auto caps = info_value<ur_device_command_buffer_update_capability_flags_t>([&](size_t size, void *value,
                                                                                        size_t *ret) {
    return urDeviceGetInfo(device, UR_DEVICE_INFO_COMMAND_BUFFER_UPDATE_CAPABILITIES_EXP, size, value, ret);
  });
  EXPECT_EQ(ur_device_command_buffer_update_capability_flags_t{
                UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_KERNEL_ARGUMENTS |
                UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_LOCAL_WORK_SIZE |
                UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_GLOBAL_WORK_SIZE |
                UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_GLOBAL_WORK_OFFSET |
                UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_KERNEL_HANDLE |
                UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_EVENTS},
            caps);
  EXPECT_TRUE(info_value<ur_bool_t>([&](size_t size, void *value, size_t *ret) {
    return urDeviceGetInfo(device, UR_DEVICE_INFO_COMMAND_BUFFER_EVENT_SUPPORT_EXP, size, value, ret);
  }));
  ur_exp_command_buffer_handle_t b = make(true, true);
  ASSERT_NE(nullptr, b);
  const auto desc = info_value<ur_exp_command_buffer_desc_t>([&](size_t size, void *value, size_t *ret) {
    return urCommandBufferGetInfoExp(b, UR_EXP_COMMAND_BUFFER_INFO_DESCRIPTOR, size, value, ret);
  });
  EXPECT_TRUE(desc.isUpdatable);
  EXPECT_TRUE(desc.isInOrder);
  EXPECT_FALSE(desc.enableProfiling);
  UR_EXPECT_OK(urCommandBufferRetainExp(b));
  EXPECT_EQ(2u, info_value<uint32_t>([&](size_t size, void *value, size_t *ret) {
              return urCommandBufferGetInfoExp(b, UR_EXP_COMMAND_BUFFER_INFO_REFERENCE_COUNT, size, value, ret);
            }));
  UR_EXPECT_OK(urCommandBufferReleaseExp(b));
  EXPECT_TRUE(has_native_handle(urCommandBufferGetNativeHandleExp, b)) << "the Level Zero command list";
}

// SYCL Graph: record once, replay a thousand times (every replay ran exactly once: the sums say so), update two
// arguments, replay again.
TEST_F(UrCommandBuffer, AGraphReplaysAThousandTimesThenTakesAnUpdate) {
  Graph g;
  ASSERT_NO_FATAL_FAILURE(record_graph(g, 3, 5, true));
  constexpr int kRuns = 1000;
  ur_event_handle_t last = nullptr;
  for (int r = 0; r < kRuns; ++r) {
    if (last != nullptr) {
      UR_ASSERT_OK(urEventRelease(last));
    }
    UR_ASSERT_OK(urEnqueueCommandBufferExp(queue, g.buffer, 0, nullptr, &last)) << error();
  }
  UR_ASSERT_OK(urEventWait(1, &last));
  EXPECT_EQ(UR_COMMAND_ENQUEUE_COMMAND_BUFFER_EXP, info_value<ur_command_t>([&](size_t size, void *value, size_t *ret) {
              return urEventGetInfo(last, UR_EVENT_INFO_COMMAND_TYPE, size, value, ret);
            }));
  UR_ASSERT_OK(urEventRelease(last));
  for (size_t i = 0; i < kItems; ++i) ASSERT_EQ(graph_sum(i, 3, 5, kRuns), g.sum[i]) << "item " << i;

  // New arguments for two launches: a seed and a constant.
  const int seed = 7, k = -2;
  ur_exp_command_buffer_update_value_arg_desc_t new_seed{UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_VALUE_ARG_DESC,
                                                         nullptr, 1, sizeof seed, nullptr, &seed};
  ur_exp_command_buffer_update_value_arg_desc_t new_k{UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_VALUE_ARG_DESC,
                                                      nullptr, 2, sizeof k, nullptr, &k};
  ur_exp_command_buffer_update_kernel_launch_desc_t updates[2] = {
      {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_KERNEL_LAUNCH_DESC, nullptr, g.init, nullptr, 0, 0, 1, 1, nullptr,
       nullptr, &new_seed, nullptr, nullptr, nullptr},
      {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_KERNEL_LAUNCH_DESC, nullptr, g.accumulate, nullptr, 0, 0, 1, 1,
       nullptr, nullptr, &new_k, nullptr, nullptr, nullptr}};
  UR_ASSERT_OK(urCommandBufferUpdateKernelLaunchExp(g.buffer, 2, updates)) << error();
  for (int r = 0; r < 10; ++r) UR_ASSERT_OK(urEnqueueCommandBufferExp(queue, g.buffer, 0, nullptr, nullptr));
  UR_ASSERT_OK(urQueueFinish(queue));
  for (size_t i = 0; i < kItems; ++i)
    ASSERT_EQ(graph_sum(i, 3, 5, kRuns) + graph_sum(i, seed, k, 10), g.sum[i]) << "item " << i;
}

// An in-order buffer of buffer commands: write, a kernel over buffers, read back, fill; replayed three times.
TEST_F(UrCommandBuffer, InOrderBufferCommandsReplay) {
  constexpr size_t n = 256;
  std::vector<int> in(n), out(n, -1);
  for (size_t i = 0; i < n; ++i) in[i] = static_cast<int>(i) - 100;
  ur_mem_handle_t a = nullptr, b = nullptr;
  UR_ASSERT_OK(urMemBufferCreate(context, UR_MEM_FLAG_READ_WRITE, n * sizeof(int), nullptr, &a));
  UR_ASSERT_OK(urMemBufferCreate(context, UR_MEM_FLAG_READ_WRITE, n * sizeof(int), nullptr, &b));
  ur_exp_command_buffer_handle_t cb = make(false, true);
  ASSERT_NE(nullptr, cb);
  UR_ASSERT_OK(urCommandBufferAppendMemBufferWriteExp(cb, a, 0, n * sizeof(int), in.data(), 0, nullptr, 0, nullptr,
                                                      nullptr, nullptr, nullptr))
      << error();
  UR_ASSERT_OK(launch(cb, square, n, 16, {buffer_arg(0, a), buffer_arg(1, b)}, {}, nullptr)) << error();
  UR_ASSERT_OK(urCommandBufferAppendMemBufferReadExp(cb, b, 0, n * sizeof(int), out.data(), 0, nullptr, 0, nullptr,
                                                     nullptr, nullptr, nullptr))
      << error();
  const int zero = 0;
  UR_ASSERT_OK(urCommandBufferAppendMemBufferFillExp(cb, a, &zero, sizeof zero, 0, n * sizeof(int), 0, nullptr, 0,
                                                     nullptr, nullptr, nullptr, nullptr))
      << error();
  UR_ASSERT_OK(urCommandBufferFinalizeExp(cb));
  for (int round = 0; round < 3; ++round) {
    std::fill(out.begin(), out.end(), -1);
    UR_ASSERT_OK(urEnqueueCommandBufferExp(queue, cb, 0, nullptr, nullptr));
    UR_ASSERT_OK(urQueueFinish(queue));
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(in[i] * in[i], out[i]) << "round " << round << " item " << i;
  }
  std::vector<int> after(n, -1);
  UR_ASSERT_OK(urEnqueueMemBufferRead(queue, a, true, 0, n * sizeof(int), after.data(), 0, nullptr, nullptr));
  EXPECT_EQ(std::vector<int>(n, 0), after) << "the fill ran last";
  UR_EXPECT_OK(urMemRelease(a));
  UR_EXPECT_OK(urMemRelease(b));
}

// Updates of the range: global size, local size and offset, and a global size alone (the adapter chooses the
// local size again).
TEST_F(UrCommandBuffer, UpdatesChangeTheRange) {
  constexpr size_t n = 160; // the last update runs items 16 to 143
  int *out = shared<int>(4 * n);
  ASSERT_NE(nullptr, out);
  ur_exp_command_buffer_handle_t cb = make(true, false);
  ASSERT_NE(nullptr, cb);
  ur_exp_command_buffer_command_handle_t command = nullptr;
  UR_ASSERT_OK(launch(cb, range, 64, 8, {pointer(0, out)}, {}, nullptr, &command)) << error();
  UR_ASSERT_OK(urCommandBufferFinalizeExp(cb));
  auto run = [&] {
    std::fill(out, out + 4 * n, 0);
    UR_ASSERT_OK(urEnqueueCommandBufferExp(queue, cb, 0, nullptr, nullptr));
    UR_ASSERT_OK(urQueueFinish(queue));
  };
  auto ran = [&](size_t from, size_t to, int global, int local, int offset) {
    for (size_t i = 0; i < n; ++i) {
      const bool inside = i >= from && i < to;
      ASSERT_EQ(inside ? 1 : 0, out[4 * i + 3]) << "item " << i;
      if (!inside) continue;
      ASSERT_EQ(global, out[4 * i]);
      if (local != 0) {
        ASSERT_EQ(local, out[4 * i + 1]);
      }
      ASSERT_EQ(offset, out[4 * i + 2]);
    }
  };
  ASSERT_NO_FATAL_FAILURE(run());
  ASSERT_NO_FATAL_FAILURE(ran(0, 64, 64, 8, 0));

  size_t global = 32, local = 4, offset = 16;
  ur_exp_command_buffer_update_kernel_launch_desc_t update{
      UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_KERNEL_LAUNCH_DESC, nullptr, command, nullptr, 0, 0, 0, 1, nullptr,
      nullptr, nullptr, &offset, &global, &local};
  UR_ASSERT_OK(urCommandBufferUpdateKernelLaunchExp(cb, 1, &update)) << error();
  ASSERT_NO_FATAL_FAILURE(run());
  ASSERT_NO_FATAL_FAILURE(ran(16, 48, 32, 4, 16));

  global = 128;
  update.pNewGlobalWorkOffset = nullptr;
  update.pNewLocalWorkSize = nullptr;
  UR_ASSERT_OK(urCommandBufferUpdateKernelLaunchExp(cb, 1, &update)) << error();
  ASSERT_NO_FATAL_FAILURE(run());
  ASSERT_NO_FATAL_FAILURE(ran(16, 144, 128, 0, 16)) << "the offset stays; the adapter chose the local size";
  const int chosen = out[4 * 16 + 1];
  EXPECT_TRUE(chosen > 0 && 128 % chosen == 0) << chosen;
}

// An update may switch a launch to one of the kernels registered with it, with that kernel's arguments.
TEST_F(UrCommandBuffer, AnUpdateSwitchesToAnAlternativeKernel) {
  constexpr size_t n = 64;
  int *a = shared<int>(n), *b = shared<int>(n);
  ASSERT_TRUE(a && b);
  for (size_t i = 0; i < n; ++i) a[i] = static_cast<int>(i);
  ur_exp_command_buffer_handle_t cb = make(true, true);
  ASSERT_NE(nullptr, cb);
  const std::vector<ur_exp_kernel_arg_properties_t> args{pointer(0, a), pointer(1, b)};
  size_t global = n;
  ur_exp_command_buffer_command_handle_t command = nullptr;
  UR_ASSERT_OK(urCommandBufferAppendKernelLaunchWithArgsExp(cb, square, 1, nullptr, &global, nullptr, 2, args.data(), 1,
                                                            &init, 0, nullptr, 0, nullptr, nullptr, nullptr, &command))
      << error();
  UR_ASSERT_OK(urCommandBufferFinalizeExp(cb));
  UR_ASSERT_OK(urEnqueueCommandBufferExp(queue, cb, 0, nullptr, nullptr));
  UR_ASSERT_OK(urQueueFinish(queue));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(static_cast<int>(i * i), b[i]);

  const int seed = 40;
  ur_exp_command_buffer_update_pointer_arg_desc_t to_b{UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_POINTER_ARG_DESC,
                                                       nullptr, 0, nullptr, &b};
  ur_exp_command_buffer_update_value_arg_desc_t with_seed{UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_VALUE_ARG_DESC,
                                                          nullptr, 1, sizeof seed, nullptr, &seed};
  ur_exp_command_buffer_update_kernel_launch_desc_t update{
      UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_KERNEL_LAUNCH_DESC, nullptr, command, init, 0, 1, 1, 1, nullptr,
      &to_b, &with_seed, nullptr, nullptr, nullptr};
  UR_ASSERT_OK(urCommandBufferUpdateKernelLaunchExp(cb, 1, &update)) << error();
  UR_ASSERT_OK(urEnqueueCommandBufferExp(queue, cb, 0, nullptr, nullptr));
  UR_ASSERT_OK(urQueueFinish(queue));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(seed + static_cast<int>(i), b[i]) << "graph_init wrote b";

  // Switched back, the first kernel has the arguments it had.
  ur_exp_command_buffer_update_kernel_launch_desc_t back{
      UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_KERNEL_LAUNCH_DESC, nullptr, command, square, 0, 0, 0, 1, nullptr,
      nullptr, nullptr, nullptr, nullptr, nullptr};
  UR_ASSERT_OK(urCommandBufferUpdateKernelLaunchExp(cb, 1, &back)) << error();
  UR_ASSERT_OK(urEnqueueCommandBufferExp(queue, cb, 0, nullptr, nullptr));
  UR_ASSERT_OK(urQueueFinish(queue));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(static_cast<int>(i * i), b[i]) << "graph_square again";

  // A kernel never registered is refused.
  update.hNewKernel = accumulate;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE, urCommandBufferUpdateKernelLaunchExp(cb, 1, &update));
  EXPECT_NE(std::string::npos, error().find("alternatives")) << error();
}

// Four threads replay one buffer on queues of their own: runs never overlap (the accumulation would lose sums).
TEST_F(UrCommandBuffer, RunsOfOneBufferFromFourThreadsNeverOverlap) {
  Graph g;
  ASSERT_NO_FATAL_FAILURE(record_graph(g, 1, 2, false));
  constexpr int kThreads = 4, kRuns = 25;
  const int failures = failures_across_threads(kThreads, [&](int, ur_queue_handle_t own) {
    int wrong = 0;
    for (int r = 0; r < kRuns; ++r)
      if (urEnqueueCommandBufferExp(own, g.buffer, 0, nullptr, nullptr) != UR_RESULT_SUCCESS) ++wrong;
    if (urQueueFinish(own) != UR_RESULT_SUCCESS) ++wrong;
    return wrong;
  });
  EXPECT_EQ(0, failures);
  for (size_t i = 0; i < kItems; ++i) ASSERT_EQ(graph_sum(i, 1, 2, kThreads * kRuns), g.sum[i]) << "item " << i;
}

// Releasing a buffer while its runs are in the queue is allowed: the release waits for them.
TEST_F(UrCommandBuffer, ReleasingARunningBufferWaitsForIt) {
  Graph g;
  ASSERT_NO_FATAL_FAILURE(record_graph(g, 2, 1, false));
  for (int r = 0; r < 20; ++r) UR_ASSERT_OK(urEnqueueCommandBufferExp(queue, g.buffer, 0, nullptr, nullptr));
  UR_ASSERT_OK(urCommandBufferReleaseExp(g.buffer));
  buffers.clear();
  for (size_t i = 0; i < kItems; ++i) ASSERT_EQ(graph_sum(i, 2, 1, 20), g.sum[i]) << "item " << i;
  UR_EXPECT_OK(urQueueFinish(queue));
}

// Commands wait for events of other work and signal events for it, at every run; both can be replaced.
TEST_F(UrCommandBuffer, CommandsWaitForAndSignalEventsAtEveryRun) {
  constexpr size_t n = 64;
  int *a = shared<int>(n), *b = shared<int>(n), *c = shared<int>(n);
  ASSERT_TRUE(a && b && c);
  ur_exp_command_buffer_handle_t cb = make(true, false);
  ASSERT_NE(nullptr, cb);
  // Outside the buffer: a fills `a` from the queue; the buffer squares it into `b` once the fill's event is
  // complete; a copy on the queue waits for the buffer's event to copy `b` into `c`.
  ur_queue_handle_t other = nullptr;
  ur_queue_properties_t props{UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, nullptr, UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE};
  UR_ASSERT_OK(urQueueCreate(context, device, &props, &other));
  int value = 6;
  ur_event_handle_t filled = nullptr;
  UR_ASSERT_OK(urEnqueueUSMFill(other, a, sizeof value, &value, n * sizeof(int), 0, nullptr, &filled));
  const std::vector<ur_exp_kernel_arg_properties_t> args{pointer(0, a), pointer(1, b)};
  size_t global = n;
  ur_event_handle_t squared = nullptr;
  ur_exp_command_buffer_command_handle_t command = nullptr;
  UR_ASSERT_OK(urCommandBufferAppendKernelLaunchWithArgsExp(cb, square, 1, nullptr, &global, nullptr, 2, args.data(), 0,
                                                            nullptr, 0, nullptr, 1, &filled, nullptr, &squared,
                                                            &command))
      << error();
  ASSERT_NE(nullptr, squared);
  UR_ASSERT_OK(urCommandBufferFinalizeExp(cb));
  // "Signalled by the completion of this command in the next execution": before the first, nothing to wait for.
  const auto complete = [](ur_event_handle_t e) {
    return UR_EVENT_STATUS_COMPLETE == info_value<ur_event_status_t>([&](size_t size, void *v, size_t *ret) {
             return urEventGetInfo(e, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, size, v, ret);
           });
  };
  ASSERT_TRUE(complete(squared)) << "so urEventWait would wait for a run that never comes";
  UR_ASSERT_OK(urEventWait(1, &squared));
  for (int round = 0; round < 3; ++round) {
    std::fill(c, c + n, 0);
    UR_ASSERT_OK(urEnqueueCommandBufferExp(queue, cb, 0, nullptr, nullptr));
    UR_ASSERT_OK(urEnqueueUSMMemcpy(other, false, c, b, n * sizeof(int), 1, &squared, nullptr));
    UR_ASSERT_OK(urQueueFinish(other));
    UR_ASSERT_OK(urQueueFinish(queue));
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(36, c[i]) << "round " << round << " item " << i;
  }
  EXPECT_EQ(UR_COMMAND_KERNEL_LAUNCH, info_value<ur_command_t>([&](size_t size, void *v, size_t *ret) {
              return urEventGetInfo(squared, UR_EVENT_INFO_COMMAND_TYPE, size, v, ret);
            }));

  // A new fill to wait for, and a new event to signal.
  value = 9;
  ur_event_handle_t refilled = nullptr;
  UR_ASSERT_OK(urEnqueueUSMFill(other, a, sizeof value, &value, n * sizeof(int), 0, nullptr, &refilled));
  UR_ASSERT_OK(urCommandBufferUpdateWaitEventsExp(command, 1, &refilled)) << error();
  ur_event_handle_t squared_again = nullptr;
  UR_ASSERT_OK(urCommandBufferUpdateSignalEventExp(command, &squared_again)) << error();
  ASSERT_NE(squared, squared_again);
  EXPECT_TRUE(complete(squared_again));
  UR_ASSERT_OK(urEnqueueCommandBufferExp(queue, cb, 0, nullptr, nullptr));
  UR_ASSERT_OK(urEnqueueUSMMemcpy(other, false, c, b, n * sizeof(int), 1, &squared_again, nullptr));
  UR_ASSERT_OK(urQueueFinish(other));
  UR_ASSERT_OK(urQueueFinish(queue));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(81, c[i]) << "item " << i;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST, urCommandBufferUpdateWaitEventsExp(command, 0, nullptr))
      << "as many events as the command was appended with";
  for (ur_event_handle_t e : {filled, squared, refilled, squared_again}) {
    UR_EXPECT_OK(urEventRelease(e));
  }
  UR_EXPECT_OK(urQueueRelease(other));
}

TEST_F(UrCommandBuffer, BadCallsGetTheSpecsCodes) {
  int *a = shared<int>(64);
  ASSERT_NE(nullptr, a);
  ur_exp_command_buffer_handle_t plain = make(false, false);
  ASSERT_NE(nullptr, plain);
  ur_exp_command_buffer_handle_t out = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urCommandBufferCreateExp(context, device, nullptr, &out));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urCommandBufferFinalizeExp(nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urCommandBufferRetainExp(nullptr));
  uint32_t point = 0;
  const uint32_t unknown = 5;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_SYNC_POINT_EXP,
            urCommandBufferAppendUSMMemcpyExp(plain, a, a + 32, 64, 1, &unknown, 0, nullptr, &point, nullptr, nullptr));
  EXPECT_NE(std::string::npos, error().find("sync point 5")) << error();
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_SYNC_POINT_WAIT_LIST_EXP,
            urCommandBufferAppendUSMMemcpyExp(plain, a, a + 32, 64, 1, nullptr, 0, nullptr, &point, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST,
            urCommandBufferAppendUSMMemcpyExp(plain, a, a + 32, 64, 0, nullptr, 1, nullptr, &point, nullptr, nullptr));
  ur_exp_command_buffer_command_handle_t command = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_OPERATION, launch(plain, init, 64, 0, {pointer(0, a), value(1, &unknown)}, {},
                                                      nullptr, &command))
      << "a command handle of a buffer that is not updatable";
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE,
            urCommandBufferAppendUSMMemcpyExp(plain, a, a + 32, 0, 0, nullptr, 0, nullptr, nullptr, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE,
            urCommandBufferAppendUSMMemcpyExp(plain, a, a + 32, 256, 0, nullptr, 0, nullptr, nullptr, nullptr, nullptr))
      << "past the end of the allocation";
  EXPECT_NE(std::string::npos, error().find("run past the end")) << error();
  // A launch with an argument never set is refused when appended, not when replayed.
  EXPECT_NE(UR_RESULT_SUCCESS, launch(plain, init, 64, 0, {pointer(0, a)}, {}, nullptr));
  EXPECT_NE(std::string::npos, error().find("argument 1")) << error();
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_OPERATION, urEnqueueCommandBufferExp(queue, plain, 0, nullptr, nullptr))
      << "not finalized";
  UR_ASSERT_OK(launch(plain, init, 64, 0, {pointer(0, a), value(1, &unknown)}, {}, &point)) << error();
  UR_ASSERT_OK(urCommandBufferFinalizeExp(plain));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_OPERATION, urCommandBufferFinalizeExp(plain));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_OPERATION,
            urCommandBufferAppendUSMMemcpyExp(plain, a, a + 32, 64, 0, nullptr, 0, nullptr, nullptr, nullptr, nullptr))
      << "finalized";
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST, urEnqueueCommandBufferExp(queue, plain, 1, nullptr, nullptr));

  // Updates: not of a buffer that is not updatable, not of another buffer's command, not to other dimensions
  // without a range.
  ur_exp_command_buffer_handle_t updatable = make(true, false);
  ASSERT_NE(nullptr, updatable);
  UR_ASSERT_OK(launch(updatable, init, 64, 0, {pointer(0, a), value(1, &unknown)}, {}, nullptr, &command));
  ur_exp_command_buffer_update_kernel_launch_desc_t update{
      UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_KERNEL_LAUNCH_DESC, nullptr, command, nullptr, 0, 0, 0, 1, nullptr,
      nullptr, nullptr, nullptr, nullptr, nullptr};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_OPERATION, urCommandBufferUpdateKernelLaunchExp(updatable, 1, &update))
      << "not finalized";
  UR_ASSERT_OK(urCommandBufferFinalizeExp(updatable));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_OPERATION, urCommandBufferUpdateKernelLaunchExp(plain, 1, &update));
  ur_exp_command_buffer_handle_t other = make(true, false);
  ASSERT_NE(nullptr, other);
  UR_ASSERT_OK(urCommandBufferFinalizeExp(other));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_COMMAND_HANDLE_EXP,
            urCommandBufferUpdateKernelLaunchExp(other, 1, &update));
  size_t global[2] = {8, 8};
  update.newWorkDim = 2;
  update.pNewGlobalWorkSize = global;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE, urCommandBufferUpdateKernelLaunchExp(updatable, 1, &update));
  update.newWorkDim = 1;
  update.pNewGlobalWorkSize = nullptr;
  update.hCommand = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urCommandBufferUpdateKernelLaunchExp(updatable, 1, &update));
}

} // namespace
} // namespace zeal_ur_test
