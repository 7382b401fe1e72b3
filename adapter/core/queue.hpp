// A zeal queue: an immediate command list; in order by chaining each command on the previous one's event.
#pragma once

#include "adapter/core/commands.hpp"
#include "adapter/core/event.hpp"
#include "adapter/core/function_ref.hpp"
#include "adapter/core/host_tasks.hpp"
#include "adapter/core/image.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace zeal::adapter {

class Graph;

class Queue : public Object {
public:
  static constexpr Kind kKind = Kind::Queue;

  // flags: known ZEAL_QUEUE_FLAG_* bits (each face checks its own flags); the device must be one of the context's.
  static Result<Queue *> create(Context &context, Device &device, uint32_t flags);
  // A queue over an immediate command list made elsewhere (a native handle). `owned`: the queue destroys the
  // list when it goes; otherwise its maker does. Level Zero lists are not thread-safe, so the maker and this
  // queue must not append to it at the same time.
  static Result<Queue *> adopt(Context &context, Device &device, ze_command_list_handle_t list, uint32_t flags,
                               bool owned);
  ~Queue() override;

  Context &context() const { return *context_; }
  Device &device() const { return device_; }
  uint32_t flags() const { return flags_; }
  // The immediate command list the queue appends to (its native handle).
  ze_command_list_handle_t ze() const { return list_.get(); }
  bool profiling() const { return (flags_ & ZEAL_QUEUE_FLAG_PROFILING) != 0; }

  // The commands both faces enqueue, each checked here once. `wait`: events the command waits for besides,
  // in order, the previous command.
  Result<Ref<Event>> copy(void *dst, const void *src, size_t size, std::span<Event *const> wait,
                          Command command = Command::Copy);
  using Pitched = adapter::Pitched;
  // A rectangular copy; check_copy_rect (commands.hpp) says what it takes.
  Result<Ref<Event>> copy_rect(Pitched dst, Pitched src, size_t width, size_t height, size_t depth,
                               std::span<Event *const> wait, Command command);
  // `height` rows of `width` bytes, `pitch` apart from `first`, each filled with the pattern from its first byte
  // (so `width` must be a whole number of patterns); the checks of fill() otherwise.
  Result<Ref<Event>> fill_rect(void *first, size_t pitch, const void *pattern, size_t pattern_size, size_t width,
                               size_t height, std::span<Event *const> wait, Command command);
  // A pattern of any size dividing `size`; the pattern is copied.
  Result<Ref<Event>> fill(void *ptr, const void *pattern, size_t pattern_size, size_t size,
                          std::span<Event *const> wait, Command command = Command::Fill);
  // A region of `image` to host memory (`to_host`) or from it; the host side's rows and slices are `pitches` apart.
  Result<Ref<Event>> image_host_copy(Image &image, const zeal_image_region_t &region, void *host,
                                     Image::HostPitches pitches, bool to_host, std::span<Event *const> wait);
  // `region` of `src` to `dst` at `dst_origin`; their pixels must be of one size.
  Result<Ref<Event>> image_copy(Image &src, Image &dst, const zeal_image_region_t &region,
                                const std::array<size_t, 3> &dst_origin, std::span<Event *const> wait);
  // Waits for `wait`, or for every command before it when `wait` is empty, and orders every later command
  // after it (a barrier), or only signals (any other `command`: a marker, a prefetch or advice, which are hints
  // a CPU's shared memory has no use for).
  // `also_signal`: a signalable event (Event::create_signalable) the command signals too, reset first.
  Result<Ref<Event>> barrier(Command command, std::span<Event *const> wait, Event *also_signal = nullptr);
  // Calls `function(data)` on the host once `wait` (and, in order, the previous command) is complete; later
  // commands in the queue's order wait for it to return. A queue's host tasks run one at a time, in the order they
  // were enqueued, on a thread of the queue's. Level Zero 1.4 has no host-function command: a barrier signals an
  // event the queue's host-task thread waits for, and the command's event is signalled from the host.
  Result<Ref<Event>> host_task(HostFunction function, void *data, std::span<Event *const> wait);
  // Calls `enqueue()`, which appends Level Zero commands of its own to the queue's immediate list (its native
  // handle), between a barrier after `wait` (and, in order, the previous command) and a barrier after everything
  // appended before it, which signals the command's event: UR's urEnqueueNativeCommandExp. The function runs on
  // the calling thread while the queue's appends are held, so it must not enqueue to this queue through zeal.
  Result<Ref<Event>> native(FunctionRef<void()> enqueue, std::span<Event *const> wait);
  // Writes the device's global timestamp when it runs (zeCommandListAppendWriteGlobalTimestamp); the event's
  // profiling start and end are that time (UR's urEnqueueTimestampRecordingExp), on any queue.
  Result<Ref<Event>> record_timestamp(std::span<Event *const> wait);

  // Appends one command. `append` receives the command list, the signal event and
  // the wait list (the caller's events, plus the previous command's when in order).
  using Append = FunctionRef<ze_result_t(ze_command_list_handle_t list, ze_event_handle_t signal,
                                         uint32_t num_wait, ze_event_handle_t *wait)>;
  Result<Ref<Event>> submit(Command command, std::span<Event *const> wait, const char *call, Append append);
  // INVALID_SIZE, its sentence beginning with `what`, when `ptr` is in a USM allocation of the queue's context
  // that does not hold `size` bytes from it (other memory the adapter cannot see the end of passes).
  Status check_extent(const void *ptr, size_t size, const char *what) const;
  // Events of every command not yet known complete, for a barrier on an out-of-order queue.
  std::vector<Ref<Event>> outstanding();
  // Whether every command enqueued so far has completed (UR's QUEUE_INFO_EMPTY).
  bool idle();
  // The graph the queue's commands are captured into instead of running (adapter/core/graph.hpp), or null. The graph
  // sets it, and holds the queue while it does.
  Graph *capture() const { return capture_.load(std::memory_order_acquire); }
  bool set_capture(Graph *from, Graph *to) { return capture_.compare_exchange_strong(from, to); }
  bool in_order() const { return (flags_ & ZEAL_QUEUE_FLAG_OUT_OF_ORDER) == 0; }
  Status finish();

private:
  Queue(Context &context, Device &device, uint32_t flags, ZeCommandList list)
      : Object(kKind), context_(&context), device_(device), flags_(flags), list_(std::move(list)) {
    pending_.reserve(kMaxInFlight + 1);
    finishing_.reserve(kMaxInFlight + 1);
    Event::reserve_storage(kMaxInFlight + 16);
  }
  // A command made of `between` (the caller's own appends, or none) between a barrier after `wait` (and, in order,
  // the previous command) that signals `opening` (or nothing) and a barrier after every earlier command of the
  // list that signals the command's event: barrier()'s `also_signal` and native().
  Result<Ref<Event>> bracketed(Command command, std::span<Event *const> wait, ze_event_handle_t opening,
                               FunctionRef<void()> between);
  // The queue over `list`, registered with its context (so that freeing memory waits for it).
  static Queue *make(Context &context, Device &device, ze_command_list_handle_t list, uint32_t flags, bool owned);
  void forget_completed();
  // How many commands the queue remembers before it drops completed ones.
  static constexpr size_t kForgetAt = 64;
  // At most this many commands in flight: a host running ahead of the device
  // waits for the oldest, which bounds memory (and keeps launches allocation-free).
  static constexpr size_t kMaxInFlight = 192;
public:
  static constexpr size_t max_in_flight() { return kMaxInFlight; }

private:

  Ref<Context> context_;
  Device &device_;
  uint32_t flags_;
  ZeCommandList list_;
  bool owns_list_ = true;
  // Level Zero command lists are not thread-safe; appends are serialised here.
  std::mutex mutex_;
  // API 1.4 has neither zeCommandListHostSynchronize nor an in-order flag, so the
  // queue keeps the events of its commands: the last orders the next command,
  // all of them are what queueFinish waits for. Capacity is kept, never regrown.
  std::vector<Ref<Event>> pending_;
  std::mutex finish_mutex_; // one finish at a time owns finishing_
  std::vector<Ref<Event>> finishing_;
  std::atomic<Graph *> capture_{nullptr};
  // Started by the first host task (under mutex_); last, so that it goes first, after the destructor's finish.
  std::unique_ptr<HostTasks> host_tasks_;
};

} // namespace zeal::adapter
