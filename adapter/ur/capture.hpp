// UR enqueues that a graph captures (urQueueBeginGraphCaptureExp): while their queue captures, each is appended to
// the graph's command buffer by the same call its command-buffer append makes, instead of running.
#pragma once

#include "adapter/core/graph.hpp"
#include "adapter/ur/entry.hpp"

#include <type_traits>

namespace zeal::adapter::ur {

// A captured command: placed in `graph` after `waits` (Graph::capture); its event, when asked for, stands for it
// inside the graph. A blocking command cannot be captured (it would wait for a run that is not coming).
Outcome capture_command(Graph &graph, Queue &queue, Command kind, std::span<Event *const> waits,
                        ur_event_handle_t *event, bool blocking, Graph::Record record);

// enqueue_command (entry.hpp) for a command a graph captures: `run(queue, waits)` enqueues it, `record(buffer,
// deps)` appends it to a command buffer (CommandBuffer's call of the same kind).
template <class Run, class Record>
Outcome enqueue_or_capture(Queue &queue, uint32_t num_wait, const ur_event_handle_t *wait, ur_event_handle_t *event,
                           bool blocking, Command kind, Run &&run, Record &&record) {
  WaitList waits;
  if (Outcome o = wait_list(num_wait, wait, waits); !o.ok()) return o;
  Result<Graph *> graph = capture_target(queue, waits.events());
  if (!graph.ok()) return std::move(graph).error();
  if (graph.value() != nullptr)
    return capture_command(*graph.value(), queue, kind, waits.events(), event, blocking, record);
  return hand_out(run(queue, waits.events()), blocking, event);
}

// What a command made through `Sink` is: a queue's command's event, or a command buffer's command.
template <class Sink>
using Made = std::conditional_t<std::is_same_v<std::remove_cvref_t<Sink>, Queue>, Result<Ref<Event>>,
                                Result<BufferCommand *>>;

// The same with one body for both ways: `body(sink, deps)` makes the command through a Queue (deps: its wait list)
// or a CommandBuffer (deps: its Deps), whose calls of one kind take the same arguments; it returns Made<sink>.
template <class Body>
Outcome enqueue_or_capture(Queue &queue, uint32_t num_wait, const ur_event_handle_t *wait, ur_event_handle_t *event,
                           bool blocking, Command kind, Body &&body) {
  return enqueue_or_capture(
      queue, num_wait, wait, event, blocking, kind, [&](Queue &q, std::span<Event *const> w) { return body(q, w); },
      [&](CommandBuffer &b, const CommandBuffer::Deps &d) { return body(b, d); });
}

} // namespace zeal::adapter::ur
