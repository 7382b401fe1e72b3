// Graphs captured from queues (urQueueBeginGraphCaptureExp ... urEnqueueGraphExp), as SYCL Graph's queue recording
// drives them: kernels, a USM copy and a fill captured from in-order and out-of-order queues (events as the edges
// of the latter), nothing run while capturing, the instance replayed a thousand times; a fork and join across two
// queues; the DOT dump; UR's codes for what cannot be captured.
#include "ur_program_fixture.hpp"

#include <cstdio>
#include <fstream>
#include <iterator>

namespace zeal_ur_test {
namespace {

class UrGraph : public UrGraphKernels {
protected:
  void TearDown() override {
    for (ur_queue_handle_t q : queues) {
      UR_EXPECT_OK(urQueueRelease(q));
    }
    UrGraphKernels::TearDown();
  }
  ur_queue_handle_t make_queue(bool in_order) {
    const ur_queue_flags_t flags = in_order ? 0 : ur_queue_flags_t{UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE};
    ur_queue_properties_t props{UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, nullptr, flags};
    ur_queue_handle_t q = nullptr;
    EXPECT_EQ(UR_RESULT_SUCCESS, urQueueCreate(context, device, &props, &q)) << error();
    if (q != nullptr) queues.push_back(q);
    return q;
  }
  // A 1-D launch on `q` after `wait`, its event where asked.
  ur_result_t launch(ur_queue_handle_t q, ur_kernel_handle_t k, size_t global,
                     const std::vector<ur_exp_kernel_arg_properties_t> &args, std::vector<ur_event_handle_t> wait,
                     ur_event_handle_t *event) {
    return urEnqueueKernelLaunchWithArgsExp(q, k, 1, nullptr, &global, nullptr, static_cast<uint32_t>(args.size()),
                                            args.data(), nullptr, static_cast<uint32_t>(wait.size()),
                                            wait.empty() ? nullptr : wait.data(), event);
  }
  static bool capturing(ur_queue_handle_t q) {
    bool on = false;
    EXPECT_EQ(UR_RESULT_SUCCESS, urQueueIsGraphCaptureEnabledExp(q, &on));
    return on;
  }

  std::vector<ur_queue_handle_t> queues;
};

// init -> square -> copy -> accumulate, with a fill of `sum` before the first replay only (captured separately):
// on an in-order queue by its order, on an out-of-order queue by the events of the captured commands.
TEST_F(UrGraph, ACapturedGraphRunsOnlyWhenItsInstanceIsEnqueuedAndReplaysAThousandTimes) {
  constexpr size_t n = 256;
  for (bool in_order : {true, false}) {
    SCOPED_TRACE(in_order ? "in-order queue" : "out-of-order queue");
    ur_queue_handle_t q = make_queue(in_order);
    ASSERT_NE(nullptr, q);
    int *a = shared<int>(n), *b = shared<int>(n), *c = shared<int>(n);
    auto *sum = shared<int64_t>(n);
    ASSERT_TRUE(a && b && c && sum);
    std::fill(a, a + n, -1);
    std::fill(sum, sum + n, 0);
    int seed = 3, k = 5;

    EXPECT_FALSE(capturing(q));
    UR_ASSERT_OK(urQueueBeginGraphCaptureExp(q)) << error();
    EXPECT_TRUE(capturing(q));
    ur_event_handle_t e_init = nullptr, e_square = nullptr, e_copy = nullptr, e_acc = nullptr;
    UR_ASSERT_OK(launch(q, init, n, {pointer(0, a), value(1, &seed)}, {}, &e_init)) << error();
    UR_ASSERT_OK(launch(q, square, n, {pointer(0, a), pointer(1, b)}, {e_init}, &e_square)) << error();
    UR_ASSERT_OK(urEnqueueUSMMemcpy(q, false, c, b, n * sizeof(int), 1, &e_square, &e_copy)) << error();
    UR_ASSERT_OK(launch(q, accumulate, n, {pointer(0, c), pointer(1, sum), value(2, &k)}, {e_copy}, &e_acc))
        << error();
    // Captured events stand for their commands inside the graph; outside it they are complete.
    ur_event_status_t status{};
    UR_EXPECT_OK(urEventGetInfo(e_acc, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr));
    EXPECT_EQ(UR_EVENT_STATUS_COMPLETE, status);
    ur_exp_graph_handle_t graph = nullptr;
    UR_ASSERT_OK(urQueueEndGraphCaptureExp(q, &graph)) << error();
    ASSERT_NE(nullptr, graph);
    EXPECT_FALSE(capturing(q));
    bool empty = true;
    UR_EXPECT_OK(urGraphIsEmptyExp(graph, &empty));
    EXPECT_FALSE(empty);
    UR_ASSERT_OK(urQueueFinish(q));
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(-1, a[i]) << "capturing ran nothing; item " << i;

    ur_exp_executable_graph_handle_t instance = nullptr;
    UR_ASSERT_OK(urGraphInstantiateGraphExp(graph, &instance)) << error();
    constexpr int kRuns = 1000;
    for (int r = 0; r < kRuns; ++r) UR_ASSERT_OK(urEnqueueGraphExp(q, instance, 0, nullptr, nullptr)) << error();
    ur_event_handle_t done = nullptr;
    UR_ASSERT_OK(urEnqueueGraphExp(q, instance, 0, nullptr, &done));
    UR_ASSERT_OK(urEventWait(1, &done));
    UR_ASSERT_OK(urQueueFinish(q));
    for (size_t i = 0; i < n; ++i) {
      const int64_t x = seed + static_cast<int64_t>(i);
      ASSERT_EQ((kRuns + 1) * (x * x + k), sum[i]) << "item " << i;
    }
    for (ur_event_handle_t e : {e_init, e_square, e_copy, e_acc, done}) {
      UR_EXPECT_OK(urEventRelease(e));
    }
    UR_EXPECT_OK(urGraphExecutableGraphDestroyExp(instance));
    UR_EXPECT_OK(urGraphDestroyExp(graph));
  }
}

// SYCL's recording across queues: a second queue waiting for an event of the capture joins it; the first queue's
// barrier waits for the second's command, and ending the capture ends both.
TEST_F(UrGraph, AQueueThatWaitsForACapturedEventJoinsTheCapture) {
  constexpr size_t n = 128;
  ur_queue_handle_t q1 = make_queue(true), q2 = make_queue(false);
  ASSERT_TRUE(q1 && q2);
  int *a = shared<int>(n), *b = shared<int>(n), *c = shared<int>(n);
  ASSERT_TRUE(a && b && c);
  std::fill(b, b + n, 0);
  std::fill(c, c + n, 0);
  int seed = 10;
  ur_exp_graph_handle_t graph = nullptr;
  UR_ASSERT_OK(urGraphCreateExp(context, &graph));
  UR_ASSERT_OK(urQueueBeginCaptureIntoGraphExp(q1, graph)) << error();
  ur_event_handle_t fork = nullptr, join = nullptr;
  UR_ASSERT_OK(launch(q1, init, n, {pointer(0, a), value(1, &seed)}, {}, &fork));
  EXPECT_FALSE(capturing(q2));
  // A command a graph cannot hold that waits for a captured event is refused, and its queue does not join.
  const auto task = +[](void *) {};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_OPERATION, urEnqueueHostTaskExp(q2, task, nullptr, nullptr, 1, &fork, nullptr));
  EXPECT_FALSE(capturing(q2));
  UR_ASSERT_OK(launch(q2, square, n, {pointer(0, a), pointer(1, b)}, {fork}, &join)) << error();
  EXPECT_TRUE(capturing(q2)) << "q2 joined by waiting for a captured event";
  ur_exp_graph_handle_t of_q2 = nullptr;
  UR_ASSERT_OK(urQueueGetGraphExp(q2, &of_q2));
  EXPECT_EQ(graph, of_q2);
  UR_ASSERT_OK(urEnqueueEventsWaitWithBarrier(q1, 1, &join, nullptr));
  UR_ASSERT_OK(urEnqueueUSMMemcpy(q1, false, c, b, n * sizeof(int), 0, nullptr, nullptr));
  ur_exp_graph_handle_t ended = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_OPERATION, urQueueEndGraphCaptureExp(q2, &ended))
      << "only the queue that began the capture ends it";
  EXPECT_NE(std::string::npos, error().find("joined")) << error();
  UR_ASSERT_OK(urQueueEndGraphCaptureExp(q1, &ended));
  EXPECT_EQ(graph, ended);
  EXPECT_FALSE(capturing(q2));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_OPERATION, urQueueGetGraphExp(q2, &of_q2));
  EXPECT_EQ(nullptr, of_q2);

  ur_exp_executable_graph_handle_t instance = nullptr;
  UR_ASSERT_OK(urGraphInstantiateGraphExp(graph, &instance));
  UR_ASSERT_OK(urEnqueueGraphExp(q2, instance, 0, nullptr, nullptr)) << "an instance runs on any queue of the device";
  UR_ASSERT_OK(urQueueFinish(q2));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ((seed + int(i)) * (seed + int(i)), c[i]) << "item " << i;

  // The DOT dump: four commands, the square after the init, the copy after the barrier.
  const std::string path = ::testing::TempDir() + "zeal_graph_dump.dot";
  UR_ASSERT_OK(urGraphDumpContentsExp(graph, path.c_str())) << error();
  std::ifstream file(path);
  const std::string dot((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::remove(path.c_str());
  EXPECT_EQ(0u, dot.find("digraph")) << dot;
  EXPECT_NE(std::string::npos, dot.find("n0 [label=\"0: kernel launch\"]")) << dot;
  EXPECT_NE(std::string::npos, dot.find("n0 -> n1;")) << dot;
  EXPECT_NE(std::string::npos, dot.find("n1 -> n2;")) << dot;
  EXPECT_NE(std::string::npos, dot.find("n2 -> n3;")) << dot;
  EXPECT_NE(std::string::npos, dot.find("3: USM copy")) << dot;
  EXPECT_EQ(UR_RESULT_ERROR_UNKNOWN, urGraphDumpContentsExp(graph, "/no/such/folder/graph.dot"));
  EXPECT_NE(std::string::npos, error().find("/no/such/folder/graph.dot")) << error();

  for (ur_event_handle_t e : {fork, join}) {
    UR_EXPECT_OK(urEventRelease(e));
  }
  UR_EXPECT_OK(urGraphExecutableGraphDestroyExp(instance));
  UR_EXPECT_OK(urGraphDestroyExp(graph));
}

TEST_F(UrGraph, GraphsHaveIncreasingIdsAndCallTheirDestructionCallbacksOnce) {
  ur_exp_graph_handle_t g1 = nullptr, g2 = nullptr;
  UR_ASSERT_OK(urGraphCreateExp(context, &g1));
  UR_ASSERT_OK(urGraphCreateExp(context, &g2));
  uint64_t id1 = 0, id2 = 0;
  UR_EXPECT_OK(urGraphGetIdExp(g1, &id1));
  UR_EXPECT_OK(urGraphGetIdExp(g2, &id2));
  EXPECT_LT(id1, id2);
  int calls = 0;
  const auto count = +[](void *data) { ++*static_cast<int *>(data); };
  UR_EXPECT_OK(urGraphSetDestructionCallbackExp(g1, count, &calls));
  UR_EXPECT_OK(urGraphSetDestructionCallbackExp(g1, count, &calls));
  UR_EXPECT_OK(urGraphDestroyExp(g1));
  EXPECT_EQ(2, calls);
  UR_EXPECT_OK(urGraphDestroyExp(g2));
  EXPECT_EQ(2, calls);
}

TEST_F(UrGraph, WhatCannotBeCapturedGetsUrCodesAndSentences) {
  constexpr size_t n = 64;
  ur_queue_handle_t q = make_queue(true);
  ASSERT_NE(nullptr, q);
  int *a = shared<int>(n), *b = shared<int>(n);
  ASSERT_TRUE(a && b);
  ur_exp_graph_handle_t graph = nullptr;
  ur_exp_executable_graph_handle_t instance = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_OPERATION, urQueueEndGraphCaptureExp(q, &graph)) << "not capturing";
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_OPERATION, urQueueGetGraphExp(q, &graph));
  UR_ASSERT_OK(urGraphCreateExp(context, &graph));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ARGUMENT, urGraphInstantiateGraphExp(graph, &instance));
  EXPECT_NE(std::string::npos, error().find("no commands")) << error();
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urQueueBeginCaptureIntoGraphExp(q, nullptr));
  UR_ASSERT_OK(urQueueBeginCaptureIntoGraphExp(q, graph));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_OPERATION, urQueueBeginGraphCaptureExp(q)) << "capturing already";
  EXPECT_NE(std::string::npos, error().find("already")) << error();
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_OPERATION, urEnqueueUSMMemcpy(q, true, a, b, n * sizeof(int), 0, nullptr, nullptr))
      << "a blocking copy would wait for a run that is not coming";
  EXPECT_NE(std::string::npos, error().find("blocking")) << error();
  const auto task = +[](void *) {};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_OPERATION, urEnqueueHostTaskExp(q, task, nullptr, nullptr, 0, nullptr, nullptr));
  EXPECT_NE(std::string::npos, error().find("cannot be captured")) << error();
  // A command's own checks are made when it is captured, and a refused command leaves nothing behind.
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, urEnqueueUSMMemcpy(q, false, a, b, 4 * n * sizeof(int), 0, nullptr, nullptr));
  EXPECT_NE(UR_RESULT_SUCCESS, launch(q, square, n, {pointer(0, a)}, {}, nullptr)) << "argument 1 never set";
  bool empty = false;
  UR_EXPECT_OK(urGraphIsEmptyExp(graph, &empty));
  EXPECT_TRUE(empty);
  UR_ASSERT_OK(urEnqueueUSMMemcpy(q, false, a, b, n * sizeof(int), 0, nullptr, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ARGUMENT, urGraphInstantiateGraphExp(graph, &instance)) << "still capturing";
  EXPECT_EQ(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, native_of(urGraphGetNativeHandleExp, graph).result);

  // Destroying a graph that is being captured ends the capture: the queue runs its commands again.
  UR_ASSERT_OK(urGraphDestroyExp(graph));
  EXPECT_FALSE(capturing(q));
  std::fill(b, b + n, 7);
  UR_ASSERT_OK(urEnqueueUSMMemcpy(q, true, a, b, n * sizeof(int), 0, nullptr, nullptr));
  EXPECT_EQ(7, a[n - 1]);

  // A graph that holds commands cannot be captured into again; an instance has a native handle (its list).
  UR_ASSERT_OK(urQueueBeginGraphCaptureExp(q));
  UR_ASSERT_OK(urEnqueueUSMMemcpy(q, false, a, b, n * sizeof(int), 0, nullptr, nullptr));
  UR_ASSERT_OK(urQueueEndGraphCaptureExp(q, &graph));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ARGUMENT, urQueueBeginCaptureIntoGraphExp(q, graph));
  EXPECT_NE(std::string::npos, error().find("empty graph")) << error();
  UR_ASSERT_OK(urGraphInstantiateGraphExp(graph, &instance));
  EXPECT_TRUE(has_native_handle(urGraphExecutableGraphGetNativeHandleExp, instance));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_GRAPH, urEnqueueGraphExp(q, reinterpret_cast<ur_exp_executable_graph_handle_t>(graph),
                                                             0, nullptr, nullptr))
      << "a graph is not an instance";
  UR_EXPECT_OK(urGraphExecutableGraphDestroyExp(instance));
  UR_EXPECT_OK(urGraphDestroyExp(graph));
}

} // namespace
} // namespace zeal_ur_test
