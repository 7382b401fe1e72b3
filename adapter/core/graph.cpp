// Graphs captured from queues, over a command buffer that is never run itself: its commands are checked when
// captured, and each instance is a finalized copy of them.
#include "adapter/core/graph.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdio>

namespace zeal::adapter {
namespace {

std::atomic<uint64_t> next_id{1};

// The graphs being captured now, for queues that wait for an event of a capture (Graph::capture_making). Never
// locked together with a graph's own mutex, except in that order.
std::mutex capturing_mutex;
std::vector<Graph *> capturing_graphs;
std::atomic<size_t> capturing_count{0};

void start_listing(Graph *graph) {
  std::lock_guard lock(capturing_mutex);
  capturing_graphs.push_back(graph);
  capturing_count.store(capturing_graphs.size(), std::memory_order_release);
}

void stop_listing(Graph *graph) {
  std::lock_guard lock(capturing_mutex);
  std::erase(capturing_graphs, graph);
  capturing_count.store(capturing_graphs.size(), std::memory_order_release);
}

const char *command_name(Command command) {
  switch (command) {
  case Command::Launch: return "kernel launch";
  case Command::Copy: return "USM copy";
  case Command::Fill: return "USM fill";
  case Command::Barrier: return "barrier";
  case Command::Marker: return "events wait";
  case Command::Prefetch: return "USM prefetch";
  case Command::Advise: return "USM advice";
  case Command::Read: return "buffer read";
  case Command::Write: return "buffer write";
  case Command::CopyBuffer: return "buffer copy";
  case Command::FillBuffer: return "buffer fill";
  case Command::Map: return "buffer map";
  case Command::Unmap: return "unmap";
  case Command::ReadRect: return "buffer rectangle read";
  case Command::WriteRect: return "buffer rectangle write";
  case Command::CopyBufferRect: return "buffer rectangle copy";
  case Command::Copy2D: return "USM 2-D copy";
  case Command::Fill2D: return "USM 2-D fill";
  case Command::HostTask: return "host task";
  case Command::CommandBuffer: return "command buffer";
  case Command::Timestamp: return "timestamp";
  case Command::Native: return "native command";
  case Command::ImageRead: return "image read";
  case Command::ImageWrite: return "image write";
  case Command::ImageCopy: return "image copy";
  }
  return "command";
}

} // namespace

Graph::Graph(Context &context) : Object(kKind), context_(&context), id_(next_id.fetch_add(1)) {}

Result<Graph *> Graph::create(Context &context) { return new Graph(context); }

Graph::~Graph() {
  for (const auto &[callback, data] : callbacks_) callback(data);
}

bool Graph::empty() const {
  std::lock_guard lock(mutex_);
  return !buffer_ || buffer_->command_count() == 0;
}

Graph::Capturing *Graph::capturing_entry(const Queue &queue) {
  for (Capturing &c : queues_)
    if (c.queue.get() == &queue) return &c;
  return nullptr;
}

Status Graph::begin(Queue &queue, bool made_by_capture) {
  {
    std::lock_guard lock(mutex_);
    if (!queues_.empty())
      return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                        fmt::format("graph {} is being captured from another queue already", id_));
    if (buffer_ && buffer_->command_count() != 0)
      return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                        fmt::format("graph {} holds {} commands already; a capture begins with an empty graph", id_,
                                    buffer_->command_count()));
    if (&queue.context() != context_.get())
      return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                        fmt::format("graph {} belongs to another context than the queue", id_));
    if (!queue.set_capture(nullptr, this))
      return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, "the queue captures into a graph already");
    queues_.push_back({Ref<Queue>(&queue), std::nullopt, {}});
    made_by_capture_ = made_by_capture;
  }
  start_listing(this);
  return {};
}

Status Graph::join(Queue &queue) {
  std::lock_guard lock(mutex_);
  if (queues_.empty())
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, fmt::format("graph {} is not being captured", id_));
  if (capturing_entry(queue) != nullptr) return {};
  if (&queue.context() != context_.get())
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("a queue of another context waits for an event of graph {}'s capture", id_));
  if (!queue.set_capture(nullptr, this))
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("a queue capturing into another graph waits for an event of graph {}'s capture", id_));
  queues_.push_back({Ref<Queue>(&queue), std::nullopt, {}});
  return {};
}

Result<bool> Graph::end(Queue &queue) {
  {
    std::lock_guard lock(mutex_);
    if (queues_.empty() || queues_.front().queue.get() != &queue)
      return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                        capturing_entry(queue) != nullptr
                            ? fmt::format("the queue joined graph {}'s capture; the queue that began it ends it", id_)
                            : fmt::format("the queue did not begin a capture into graph {}", id_));
  }
  return stop().value_or(false);
}

std::optional<bool> Graph::stop() {
  bool made = false;
  {
    std::lock_guard lock(mutex_);
    if (queues_.empty()) return std::nullopt;
    for (Capturing &c : queues_) c.queue->set_capture(this, nullptr);
    queues_.clear();
    made = std::exchange(made_by_capture_, false);
  }
  stop_listing(this);
  return made;
}

Ref<Graph> Graph::capture_making(std::span<Event *const> events) {
  if (events.empty() || capturing_count.load(std::memory_order_acquire) == 0) return {};
  std::lock_guard listing(capturing_mutex);
  for (Graph *g : capturing_graphs) {
    std::lock_guard lock(g->mutex_);
    for (const Event *e : events)
      if (g->node_of_.contains(e)) return Ref<Graph>(g);
  }
  return {};
}

Result<Ref<Event>> Graph::capture(Queue &queue, Command command, std::span<Event *const> wait, bool want_event,
                                  Record record) {
  std::lock_guard lock(mutex_);
  Capturing *c = capturing_entry(queue);
  if (c == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, fmt::format("the queue does not capture into graph {}", id_));
  if (!buffer_) {
    auto made = CommandBuffer::create(*context_, queue.device(), {});
    if (!made.ok()) return std::move(made).error();
    buffer_ = Ref<CommandBuffer>(made.value(), false);
  } else if (&buffer_->device() != &queue.device()) {
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("graph {} holds commands of device '{}'; a queue of device '{}' cannot add to it",
                                  id_, buffer_->device().name(), queue.device().name()));
  }
  std::vector<SyncPoint> points;
  std::vector<Event *> others;
  for (Event *e : wait) {
    auto node = node_of_.find(e);
    if (node != node_of_.end()) points.push_back(node->second);
    else others.push_back(e);
  }
  if (c->last) points.push_back(*c->last);
  const bool waits_for_all = (command == Command::Barrier || command == Command::Marker) && wait.empty();
  if (!queue.in_order() && waits_for_all) points.insert(points.end(), c->since_last.begin(), c->since_last.end());
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());

  auto made = record(*buffer_, {points, others, want_event});
  if (!made.ok()) return std::move(made).error();
  const SyncPoint point = made.value()->sync_point();
  if (queue.in_order() || command == Command::Barrier) {
    c->last = point;
    c->since_last.clear();
  } else {
    c->since_last.push_back(point);
  }
  if (!want_event) return Ref<Event>();
  Event *event = made.value()->signal();
  node_of_.emplace(event, point);
  return Ref<Event>(event);
}

Result<ExecutableGraph *> Graph::instantiate() {
  std::lock_guard lock(mutex_);
  if (!queues_.empty())
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("graph {} is still being captured: end the capture first", id_));
  if (!buffer_ || buffer_->command_count() == 0)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("graph {} has no commands to instantiate", id_));
  auto copy = buffer_->copy();
  if (!copy.ok()) return std::move(copy).error();
  Ref<CommandBuffer> instance(copy.value(), false);
  if (Status s = instance->finalize(); !s.ok()) return std::move(s).error();
  return new ExecutableGraph(std::move(instance));
}

Status Graph::dump(const std::string &path) const {
  std::string dot = fmt::format("digraph zeal_graph_{} {{\n", id_);
  {
    std::lock_guard lock(mutex_);
    if (buffer_)
      buffer_->each_command([&](const BufferCommand &c) {
        const SyncPoint i = c.sync_point();
        dot += fmt::format("  n{} [label=\"{}: {}{}\"];\n", i, i, command_name(c.command()),
                           c.wait_count() != 0 ? fmt::format(" (waits for {} events outside)", c.wait_count()) : "");
        for (SyncPoint d : c.deps()) dot += fmt::format("  n{} -> n{};\n", d, i);
      });
  }
  dot += "}\n";
  std::FILE *file = std::fopen(path.c_str(), "w");
  if (file == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("graph {}: cannot write its contents to '{}'", id_, path));
  const bool written = std::fwrite(dot.data(), 1, dot.size(), file) == dot.size();
  if (std::fclose(file) != 0 || !written)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("graph {}: writing its contents to '{}' failed", id_, path));
  return {};
}

void Graph::on_destruction(DestructionCallback callback, void *data) {
  std::lock_guard lock(mutex_);
  callbacks_.emplace_back(callback, data);
}

} // namespace zeal::adapter
