// A command buffer: commands recorded once into a Level Zero regular command list, then run many times in a
// queue's order (UR's urCommandBuffer*, what SYCL Graph records a graph into).
#pragma once

#include "adapter/core/commands.hpp"
#include "adapter/core/kernel.hpp"
#include "adapter/core/queue.hpp"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace zeal::adapter {

class CommandBuffer;

// A kernel launch as a command buffer keeps it: the range, and every argument apart from what is set on the
// kernel later. Updates change it, and the buffer records its list again.
struct RecordedLaunch {
  Ref<Kernel> kernel;
  uint32_t work_dim = 1;
  std::array<size_t, 3> offset{0, 0, 0};
  std::array<size_t, 3> global{1, 1, 1};
  std::array<size_t, 3> local{0, 0, 0}; // all 0: the kernel chooses, whenever the list is recorded
  std::vector<Kernel::StoredArg> args;
  // The kernels (of the face's kind) an update may switch the launch to, its own among them.
  std::vector<Ref<Object>> alternatives;
  // The arguments each kernel the launch switched away from had then, which it gets back if switched to again.
  std::vector<std::pair<Ref<Kernel>, std::vector<Kernel::StoredArg>>> earlier_args;
};

// One command of a buffer; a kernel launch's is the handle updates name.
class BufferCommand : public Object {
public:
  static constexpr Kind kKind = Kind::BufferCommand;
  using SyncPoint = uint32_t;
  // The Level Zero appends of the command, signalling `signal` once done and waiting for `wait`; called each
  // time the buffer's list is recorded.
  using Append = std::function<Status(ze_command_list_handle_t list, ze_event_handle_t signal, uint32_t num_wait,
                                      ze_event_handle_t *wait)>;

  BufferCommand(CommandBuffer &owner, SyncPoint point, Command command, std::vector<SyncPoint> deps, Append append)
      : Object(kKind), owner_(&owner), point_(point), command_(command), deps_(std::move(deps)),
        append_(std::move(append)) {}

  CommandBuffer &owner() const { return *owner_; }
  SyncPoint sync_point() const { return point_; }
  // The event the command signals at every run (reset as a run starts), or null when none was asked for.
  Event *signal() const { return signal_.get(); }
  size_t wait_count() const { return waits_.size(); }
  Command command() const { return command_; }
  const std::vector<SyncPoint> &deps() const { return deps_; }
  // The launch, for a launch command; null otherwise.
  RecordedLaunch *launch() { return launch_ ? &*launch_ : nullptr; }
  Status append(ze_command_list_handle_t list, ze_event_handle_t signal, uint32_t n, ze_event_handle_t *wait) const;

private:
  friend class CommandBuffer;
  CommandBuffer *owner_;
  SyncPoint point_;
  Command command_;
  std::vector<SyncPoint> deps_;
  Append append_;                        // every command but a launch
  std::optional<RecordedLaunch> launch_; // a launch, recorded from here each time
  std::vector<Ref<Event>> waits_;        // events of other work the command waits for at every run
  Ref<Event> signal_;                    // what the command signals besides its place in the buffer's order
  // Events handed out for the command before the last update of its signal: each was promised the command's
  // next run, so runs signal them too while the application holds them.
  std::vector<Ref<Event>> earlier_signals_;
};

class CommandBuffer : public Object {
public:
  static constexpr Kind kKind = Kind::CommandBuffer;
  using SyncPoint = BufferCommand::SyncPoint;
  // What a command waits for and signals besides its order in the buffer.
  struct Deps {
    std::span<const SyncPoint> points; // earlier commands it waits for (ignored in order)
    std::span<Event *const> events;    // events of other work, waited for at every run
    bool signal = false;               // an event the command signals at every run (BufferCommand::signal)
  };
  struct Options {
    bool updatable = false; // launches may change after finalize
    bool in_order = false;  // each command waits for the one before; sync points are ignored
    bool profiling = false;
  };

  static Result<CommandBuffer *> create(Context &context, Device &device, Options options);
  // Waits for the buffer's last run: releasing a buffer that is running is allowed, and blocks.
  ~CommandBuffer() override;

  Context &context() const { return *context_; }
  Device &device() const { return device_; }
  const Options &options() const { return options_; }
  bool finalized() const;
  size_t command_count() const;
  // Each command, in order (under the buffer's lock: `visit` must not call the buffer).
  void each_command(FunctionRef<void(const BufferCommand &)> visit) const;
  // The regular command list (its native handle), recorded at finalize.
  ze_command_list_handle_t ze() const { return list_.get(); }

  // The commands, each checked as the queue's command of its kind is, and placed after `deps`. A buffer that is
  // finalized takes no more. Each returns the command.
  Result<BufferCommand *> launch(RecordedLaunch launch, const Deps &deps);
  Result<BufferCommand *> copy(void *dst, const void *src, size_t size, const Deps &deps,
                               Command command = Command::Copy);
  Result<BufferCommand *> copy_rect(Pitched dst, Pitched src, size_t width, size_t height, size_t depth,
                                    const Deps &deps, Command command);
  // `height` runs of `width` bytes, `pitch` apart (height 1: one run), as Queue::fill_rect.
  Result<BufferCommand *> fill_rect(void *first, size_t pitch, const void *pattern, size_t pattern_size, size_t width,
                                    size_t height, const Deps &deps, Command command = Command::Fill);
  // A prefetch or advice: hints, so only an order.
  Result<BufferCommand *> marker(const Deps &deps, Command command);

  // Records the list; no command may be appended after.
  Status finalize();
  // A buffer of the same commands and options, not finalized, whose commands signal no events of their own (a
  // graph's instances are copies of the buffer it was captured into).
  Result<CommandBuffer *> copy() const;
  // Runs the buffer in `queue`'s order once `wait` completes: its event completes when every command has. Runs of
  // one buffer never overlap, on any queue.
  Result<Ref<Event>> enqueue(Queue &queue, std::span<Event *const> wait);
  // Changes a launch of an updatable, finalized buffer; the list is recorded again before the next run.
  // `change` edits the recorded launch; it is checked by recording it.
  Status update(BufferCommand &command, FunctionRef<Status(RecordedLaunch &)> change);
  // A new event for a command that signals one (updatable, finalized buffers), signalled from the next run on;
  // the events handed out before it are signalled by the runs too, while the application holds them.
  Result<Ref<Event>> renew_signal(BufferCommand &command);
  // New events of other work for a command to wait for, as many as it had.
  Status replace_waits(BufferCommand &command, std::span<Event *const> events);

private:
  CommandBuffer(Context &context, Device &device, Options options, ZeCommandList list)
      : Object(kKind), context_(&context), device_(device), options_(options), list_(std::move(list)) {}
  Result<BufferCommand *> add(Command command, const Deps &deps, BufferCommand::Append append,
                              std::optional<RecordedLaunch> launch = std::nullopt);
  // A command's event for others to wait for, complete until the first run that includes it.
  Result<Ref<Event>> make_signal(Command command) const;
  // The checks of updates to events: an updatable, finalized buffer's command.
  Status check_event_update(const BufferCommand &command, const char *what) const;
  // The event command `i` signals in the list: the one asked for, else its own.
  ze_event_handle_t event_of(size_t i) const;
  // Records every command into the list (reset first), each signalling its own event.
  Status record();
  Status append_launch(const RecordedLaunch &launch, ze_command_list_handle_t list, ze_event_handle_t signal,
                       uint32_t n, ze_event_handle_t *wait) const;
  friend class BufferCommand;

  Ref<Context> context_;
  Device &device_;
  Options options_;
  ZeCommandList list_;
  ZeCommandQueue queue_; // where the list runs; made at finalize
  mutable std::mutex mutex_;
  bool finalized_ = false;
  bool stale_ = false;   // an update since the list was recorded
  bool signals_ = false; // some command signals an event of its own (BufferCommand::signal)
  std::vector<std::unique_ptr<BufferCommand>> commands_;
  // The list's events: each command's, the start a run waits for and the end it signals.
  std::vector<Ref<Event>> events_;
  Ref<Event> start_;
  Ref<Event> end_;
  Ref<Event> last_run_; // the event of the last run, which the next waits for
  // Events an update replaced: the running list may still signal them, so they live until it is recorded again.
  std::vector<Ref<Event>> retired_;
};

} // namespace zeal::adapter
