// UR's graph capture (urQueueBeginGraphCaptureExp, urQueue*GraphExp, urGraph*Exp, urEnqueueGraphExp) over the
// Graph object: what a queue captures, and how a graph's references pass between the capture and the application.
#include "adapter/ur/capture.hpp"

#include "adapter/core/queue.hpp"

namespace zeal::adapter::ur {

Result<Graph *> capture_target(Queue &queue, std::span<Event *const> waits, bool join) {
  if (Graph *graph = queue.capture()) return graph;
  Ref<Graph> joined = Graph::capture_making(waits);
  if (!joined) return static_cast<Graph *>(nullptr);
  if (!join) return joined.get(); // a refusal names it; the capture holds it
  if (Status s = joined->join(queue); !s.ok()) return std::move(s).error();
  return joined.get(); // the capture holds the graph while the queue is in it
}

Failure cannot_capture(const Graph &graph) {
  return fail(UR_RESULT_ERROR_INVALID_OPERATION,
              fmt::format("the queue captures into graph {}, which takes kernel launches, copies, fills, USM hints, "
                          "barriers and event waits; this command cannot be captured",
                          graph.id()));
}

Outcome capture_command(Graph &graph, Queue &queue, Command kind, std::span<Event *const> waits,
                        ur_event_handle_t *event, bool blocking, Graph::Record record) {
  if (blocking)
    return fail(UR_RESULT_ERROR_INVALID_OPERATION,
                fmt::format("the queue captures into graph {}: a blocking command would wait for a run of the graph "
                            "that has not been enqueued",
                            graph.id()));
  auto captured = graph.capture(queue, kind, waits, event != nullptr, record);
  if (!captured.ok()) return std::move(captured).error();
  return_event(std::move(captured).value(), event);
  return {};
}

namespace {

// The graph a queue's capture began with: an explicit one (hGraph, which must be empty), or one made for it. A
// queue that captures already cannot begin again: INVALID_OPERATION.
Outcome begin_capture(Queue &queue, Graph &graph, bool made_by_capture) {
  if (Graph *other = queue.capture())
    return fail(UR_RESULT_ERROR_INVALID_OPERATION,
                fmt::format("the queue captures into graph {} already; end that capture first", other->id()));
  return with_code(UR_RESULT_ERROR_INVALID_ARGUMENT, graph.begin(queue, made_by_capture));
}

ur_result_t begin_graph_capture(ur_queue_handle_t handle) {
  return run([&]() -> Outcome {
    Queue *queue = nullptr;
    if (Outcome o = check_handle(handle, queue); !o.ok()) return o;
    auto made = Graph::create(queue->context());
    if (!made.ok()) return std::move(made).error();
    // The graph's first reference is the capture's, handed to whoever ends it.
    Graph *graph = made.value();
    Outcome begun = begin_capture(*queue, *graph, true);
    if (!begun.ok()) graph->release();
    return begun;
  });
}

ur_result_t begin_capture_into_graph(ur_queue_handle_t queue_handle, ur_exp_graph_handle_t graph_handle) {
  return run([&]() -> Outcome {
    Queue *queue = nullptr;
    Graph *graph = nullptr;
    if (Outcome o = check_handle(queue_handle, queue); !o.ok()) return o;
    if (Outcome o = check_handle(graph_handle, graph); !o.ok()) return o;
    if (Outcome o = begin_capture(*queue, *graph, false); !o.ok()) return o;
    graph->retain(); // the capture's reference, dropped when it ends
    return {};
  });
}

// Only the queue that began a capture ends it, and the queues that joined it with it.
ur_result_t end_graph_capture(ur_queue_handle_t handle, ur_exp_graph_handle_t *out) {
  return run([&]() -> Outcome {
    Queue *queue = nullptr;
    if (Outcome o = check_handle(handle, queue); !o.ok()) return o;
    if (out == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urQueueEndGraphCaptureExp: phGraph is null");
    Graph *graph = queue->capture();
    if (graph == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_OPERATION, "urQueueEndGraphCaptureExp: the queue is not capturing a graph");
    auto made_by_capture = graph->end(*queue);
    if (!made_by_capture.ok()) return with_code(UR_RESULT_ERROR_INVALID_OPERATION, std::move(made_by_capture).error());
    *out = to_ur<ur_exp_graph_handle_t>(graph);
    // A graph the capture made is the caller's now; an explicit one is the caller's already.
    if (!made_by_capture.value()) graph->release();
    return {};
  });
}

ur_result_t is_graph_capture_enabled(ur_queue_handle_t handle, bool *out) {
  return run([&]() -> Outcome {
    Queue *queue = nullptr;
    if (Outcome o = check_handle(handle, queue); !o.ok()) return o;
    if (out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urQueueIsGraphCaptureEnabledExp: pResult is null");
    *out = queue->capture() != nullptr;
    return {};
  });
}

ur_result_t get_graph(ur_queue_handle_t handle, ur_exp_graph_handle_t *out) {
  return run([&]() -> Outcome {
    Queue *queue = nullptr;
    if (Outcome o = check_handle(handle, queue); !o.ok()) return o;
    if (out == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urQueueGetGraphExp: phGraph is null");
    Graph *graph = queue->capture();
    *out = graph != nullptr ? to_ur<ur_exp_graph_handle_t>(graph) : nullptr;
    if (graph == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_OPERATION, "urQueueGetGraphExp: the queue is not capturing a graph");
    return {};
  });
}

ur_result_t graph_create(ur_context_handle_t handle, ur_exp_graph_handle_t *out) {
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(handle, context); !o.ok()) return o;
    if (out == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urGraphCreateExp: phGraph is null");
    auto made = Graph::create(*context);
    if (!made.ok()) return std::move(made).error();
    *out = to_ur<ur_exp_graph_handle_t>(made.value());
    return {};
  });
}

ur_result_t instantiate(ur_exp_graph_handle_t handle, ur_exp_executable_graph_handle_t *out) {
  return run([&]() -> Outcome {
    Graph *graph = nullptr;
    if (Outcome o = check_handle(handle, graph); !o.ok()) return o;
    if (out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urGraphInstantiateGraphExp: phExecGraph is null");
    auto made = graph->instantiate();
    if (!made.ok()) return with_code(UR_RESULT_ERROR_INVALID_ARGUMENT, std::move(made).error());
    *out = to_ur<ur_exp_executable_graph_handle_t>(made.value());
    return {};
  });
}

ur_result_t graph_destroy(ur_exp_graph_handle_t handle) {
  return run([&]() -> Outcome {
    Graph *graph = nullptr;
    if (Outcome o = check_handle(handle, graph); !o.ok()) return o;
    // A graph destroyed while it is captured ends the capture: its queues run their commands again. The capture's
    // reference of a graph it made is the one the caller got from urQueueGetGraphExp.
    const std::optional<bool> made_by_capture = graph->stop();
    if (made_by_capture.has_value() && !*made_by_capture) graph->release();
    graph->release();
    return {};
  });
}

ur_result_t is_empty(ur_exp_graph_handle_t handle, bool *out) {
  return run([&]() -> Outcome {
    Graph *graph = nullptr;
    if (Outcome o = check_handle(handle, graph); !o.ok()) return o;
    if (out == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urGraphIsEmptyExp: pResult is null");
    *out = graph->empty();
    return {};
  });
}

ur_result_t get_id(ur_exp_graph_handle_t handle, uint64_t *out) {
  return run([&]() -> Outcome {
    Graph *graph = nullptr;
    if (Outcome o = check_handle(handle, graph); !o.ok()) return o;
    if (out == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urGraphGetIdExp: pGraphId is null");
    *out = graph->id();
    return {};
  });
}

ur_result_t set_destruction_callback(ur_exp_graph_handle_t handle, ur_exp_graph_destruction_callback_t callback,
                                     void *data) {
  return run([&]() -> Outcome {
    Graph *graph = nullptr;
    if (Outcome o = check_handle(handle, graph); !o.ok()) return o;
    if (callback == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urGraphSetDestructionCallbackExp: pfnCallback is null");
    graph->on_destruction(callback, data);
    return {};
  });
}

// UR's tests want UNKNOWN for a path that cannot be written.
ur_result_t dump_contents(ur_exp_graph_handle_t handle, const char *path) {
  return run([&]() -> Outcome {
    Graph *graph = nullptr;
    if (Outcome o = check_handle(handle, graph); !o.ok()) return o;
    if (path == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urGraphDumpContentsExp: filePath is null");
    return with_code(UR_RESULT_ERROR_UNKNOWN, graph->dump(path));
  });
}

// A captured graph is zeal's own; Level Zero 1.4 has no graph object to hand out.
ur_result_t graph_native_handle(ur_exp_graph_handle_t handle, ur_native_handle_t *out) {
  return run([&]() -> Outcome {
    Graph *graph = nullptr;
    if (Outcome o = check_handle(handle, graph); !o.ok()) return o;
    if (out == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urGraphGetNativeHandleExp: phNativeGraph is null");
    return fail(UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                fmt::format("urGraphGetNativeHandleExp: graph {} is zeal's own record; Level Zero 1.4 has no graph "
                            "object behind it",
                            graph->id()));
  });
}

ur_result_t executable_destroy(ur_exp_executable_graph_handle_t handle) { return release<ExecutableGraph>(handle); }

ur_result_t executable_native_handle(ur_exp_executable_graph_handle_t handle, ur_native_handle_t *out) {
  return native_handle<ExecutableGraph>(handle, out, "urGraphExecutableGraphGetNativeHandleExp");
}

ur_result_t enqueue_graph(ur_queue_handle_t queue_handle, ur_exp_executable_graph_handle_t graph_handle,
                          uint32_t num_wait, const ur_event_handle_t *wait, ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    Queue *queue = nullptr;
    ExecutableGraph *graph = nullptr;
    if (Outcome o = check_handle(queue_handle, queue); !o.ok()) return o;
    if (Outcome o = check_handle(graph_handle, graph); !o.ok()) return o;
    return enqueue_command(*queue, num_wait, wait, event, false,
                           [&](Queue &q, std::span<Event *const> w) { return graph->enqueue(q, w); });
  });
}

} // namespace

void implement(ur_queue_exp_dditable_t &t) {
  t.pfnBeginGraphCaptureExp = begin_graph_capture;
  t.pfnBeginCaptureIntoGraphExp = begin_capture_into_graph;
  t.pfnEndGraphCaptureExp = end_graph_capture;
  t.pfnIsGraphCaptureEnabledExp = is_graph_capture_enabled;
  t.pfnGetGraphExp = get_graph;
}

void implement(ur_graph_exp_dditable_t &t) {
  t.pfnCreateExp = graph_create;
  t.pfnInstantiateGraphExp = instantiate;
  t.pfnDestroyExp = graph_destroy;
  t.pfnExecutableGraphDestroyExp = executable_destroy;
  t.pfnIsEmptyExp = is_empty;
  t.pfnGetIdExp = get_id;
  t.pfnSetDestructionCallbackExp = set_destruction_callback;
  t.pfnDumpContentsExp = dump_contents;
  t.pfnGetNativeHandleExp = graph_native_handle;
  t.pfnExecutableGraphGetNativeHandleExp = executable_native_handle;
}

void implement_graphs(ur_enqueue_exp_dditable_t &t) { t.pfnGraphExp = enqueue_graph; }

} // namespace zeal::adapter::ur
