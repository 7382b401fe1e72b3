// Graphs captured from queues (UR's urQueueBeginGraphCaptureExp ... urQueueEndGraphCaptureExp, SYCL Graph's
// queue recording): while a queue captures, each command enqueued to it is appended to the graph's command buffer
// instead of running, in the order and with the dependencies it would have had. An instance of the graph is a copy
// of that buffer, finalized; enqueueing the instance runs every captured command again.
#pragma once

#include "adapter/core/command_buffer.hpp"

#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

namespace zeal::adapter {

class ExecutableGraph;

class Graph : public Object {
public:
  static constexpr Kind kKind = Kind::Graph;
  using SyncPoint = CommandBuffer::SyncPoint;
  // Appends one captured command to the graph's buffer, placed after `deps`; the command's own checks are the
  // command buffer's (so a bad command is refused when it is captured, not when the graph runs).
  using Record = FunctionRef<Result<BufferCommand *>(CommandBuffer &buffer, const CommandBuffer::Deps &deps)>;
  using DestructionCallback = void (*)(void *data);

  static Result<Graph *> create(Context &context);
  // Calls the destruction callbacks, in the order they were set.
  ~Graph() override;

  Context &context() const { return *context_; }
  // Process-unique, increasing with each graph made.
  uint64_t id() const { return id_; }
  bool empty() const;

  // Starts capturing `queue`'s commands into the graph: INVALID_ARGUMENT when the queue captures already (into any
  // graph), the graph is being captured from another queue, or it holds commands. `made_by_capture`: the graph was made for this
  // capture (UR's urQueueBeginGraphCaptureExp), and its first reference passes to whoever ends it.
  Status begin(Queue &queue, bool made_by_capture);
  // Ends the capture `queue` began, and that of every queue that joined it; INVALID_ARGUMENT when `queue` did not
  // begin this graph's capture. True when the graph was made by the capture.
  Result<bool> end(Queue &queue);
  // Ends the capture, whichever queue began it (a graph destroyed while it is captured); nullopt when none was on,
  // else whether the capture made the graph.
  std::optional<bool> stop();
  // One command `queue` enqueues while it captures into this graph: placed after `wait` (events of the graph's
  // commands become dependencies inside it, other events are waited for at every run), after the queue's previous
  // command when it is in order, or its last barrier otherwise. `Barrier` commands order every later command of
  // the queue; a barrier or marker with no events waits for every earlier command of the queue. With `want_event`,
  // the event returned stands for the command inside the graph: commands captured later may wait for it, and
  // outside the graph it is complete.
  Result<Ref<Event>> capture(Queue &queue, Command command, std::span<Event *const> wait, bool want_event,
                             Record record);
  // The graph whose capture made one of `events`, when a queue that does not capture waits for it: the queue joins
  // that capture (a fork and join of SYCL's recording). Null when none did.
  static Ref<Graph> capture_making(std::span<Event *const> events);
  // Joins `queue` to this graph's capture, until the capture ends.
  Status join(Queue &queue);

  // An instance: a copy of the captured commands, finalized. INVALID_ARGUMENT for a graph with no commands or
  // one still being captured.
  Result<ExecutableGraph *> instantiate();
  // The graph in Graphviz's DOT language: one node per command, an edge per dependency. INVALID_ARGUMENT naming
  // the path when the file cannot be written.
  Status dump(const std::string &path) const;
  void on_destruction(DestructionCallback callback, void *data);

private:
  explicit Graph(Context &context);
  struct Capturing {
    Ref<Queue> queue;
    std::optional<SyncPoint> last;     // in order: the last command; out of order: the last barrier
    std::vector<SyncPoint> since_last; // out of order: the commands after the last barrier
  };
  Capturing *capturing_entry(const Queue &queue);

  Ref<Context> context_;
  uint64_t id_;
  mutable std::mutex mutex_;
  Ref<CommandBuffer> buffer_; // made by the first command, on its queue's device
  std::vector<Capturing> queues_; // the queue that began the capture first
  bool made_by_capture_ = false;
  std::unordered_map<const Event *, SyncPoint> node_of_;
  std::vector<std::pair<DestructionCallback, void *>> callbacks_;
};

// An instance of a graph, run as one command of a queue (urEnqueueGraphExp).
class ExecutableGraph : public Object {
public:
  static constexpr Kind kKind = Kind::ExecutableGraph;
  explicit ExecutableGraph(Ref<CommandBuffer> buffer) : Object(kKind), buffer_(std::move(buffer)) {}
  // Runs the graph's commands in `queue`'s order once `wait` completes; runs of one instance never overlap.
  Result<Ref<Event>> enqueue(Queue &queue, std::span<Event *const> wait) { return buffer_->enqueue(queue, wait); }
  // The Level Zero command list the commands are recorded in.
  ze_command_list_handle_t ze() const { return buffer_->ze(); }

private:
  Ref<CommandBuffer> buffer_;
};

} // namespace zeal::adapter
