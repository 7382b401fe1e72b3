// What enqueues a queue's or an immediate list's commands on its CUDA stream. A stream holds about a thousand
// pending operations, and an enqueue on a full stream waits until the stream moves: a stream that waits for an
// event the host signals only later would make the application's thread wait for ever in zeCommandQueueExecute-
// CommandLists or zeCommandListAppend*. So the caller's thread enqueues the work itself when nothing can stall the
// stream before the work is in (no wait on an event pending on the stream, none in the work: a full
// stream then only makes the caller wait for the device, as CUDA's own launches do), or when few commands will be
// pending with it (kDirectCommands); otherwise the feeder's own thread enqueues, in order, and the caller goes on.
// Marker events, recorded after every command that waits and every kMarkEvery commands, tell how far the stream
// got. Work that waits for an event whose signal no stream holds yet goes to the feeder's thread, which waits for
// that signal on the host before it enqueues the stream's wait (Event::wait_on): a stream only ever waits for work
// some stream has, so CUDA's loads, pageable copies and full streams never wait for the host. What the feeder
// enqueues is enqueued later than the application appended it, so the events it uses leave recording first
// (event.hpp). Waits for the stream first wait until everything is enqueued. One thread submits to a feeder at a
// time (Level Zero lets one thread at a time use a queue or a command list).
#pragma once

#include "cuda_driver/runtime/context.hpp"

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace zeal::cuda {

// Whether the calling thread is a stream feeder's (which may wait on the host for what it enqueues).
bool on_feeder_thread();

// Called by whatever enqueues a wait on a stream (an event's): the feeder that enqueued
// the command then knows that the stream may stall there.
void note_stream_wait();

// What the feeder needs to know of work to decide who enqueues it.
struct WorkTraits {
  uint64_t commands = 1;
  bool waits = false;      // it may enqueue a wait on the stream
  bool drains = false;     // enqueueing it may wait until the stream has run what is before it (pageable copies)
  bool host_waits = false; // it waits for a signal not enqueued yet (Event::signal_unknown): only the feeder's
                           // thread, which may wait on the host, enqueues it
  bool syncs = false;      // it waits on the host until the stream has run what is before it (an indirect launch
                           // reads its group counts then): only the feeder's thread enqueues it
  // Adds `other`, enqueued after this work: its commands, and whatever either needs.
  void add(const WorkTraits &other) {
    commands += other.commands;
    waits = waits || other.waits;
    drains = drains || other.drains;
    host_waits = host_waits || other.host_waits;
    syncs = syncs || other.syncs;
  }
};

class StreamFeeder {
public:
  using Work = std::function<ze_result_t(CUstream)>;
  static constexpr uint64_t kDirectCommands = 128;
  static constexpr uint64_t kMarkEvery = 32;
  static constexpr size_t kMostMarkers = 64; // more, and the oldest are looked at as markers are recorded
  StreamFeeder(const Device &device, CUstream stream) : device_(device), stream_(stream) { device_.add_feeder(this); }
  ~StreamFeeder(); // once everything is enqueued
  StreamFeeder(const StreamFeeder &) = delete;
  StreamFeeder &operator=(const StreamFeeder &) = delete;

  // Enqueues `work` (`commands` commands) on the stream, now on this thread or later on the feeder's; what fails on
  // the feeder's thread is logged, naming `what`. `deferring` runs first when it goes to the feeder (the events
  // the work uses then leave recording: event.hpp); its failure is the answer, and nothing is enqueued.
  // Work that drains is enqueued by the caller's thread only while nothing pending on the stream, and no wait in the
  // work, can stall it; work that waits on the host (for a signal or for the stream), never.
  ze_result_t submit(Work work, const WorkTraits &traits, const char *what,
                     const std::function<ze_result_t()> &deferring);
  // Waits for at most `timeout` ns until everything submitted is enqueued; ZE_RESULT_NOT_READY when it is not.
  ze_result_t wait_enqueued(uint64_t timeout);
  // Waits for at most `timeout` ns until everything submitted is enqueued and the stream has run it
  // (wait_for_stream's answers).
  ze_result_t synchronize(uint64_t timeout);
  // Whether the stream may be stalled by a wait: one enqueued that it has not passed, or work not enqueued yet.
  bool may_stall();

private:
  struct Pending {
    Work work;
    uint64_t commands;
    const char *what;
  };
  struct Marker {
    CUevent event;
    uint64_t at; // commands enqueued before it
  };
  void feed();
  // With the mutex held and nothing enqueueing: whether the caller may enqueue the work itself.
  bool direct(const WorkTraits &traits);
  // Moves `done_` up to the newest marker the stream has passed.
  void look_at_markers();
  // Enqueues `work` (`commands` commands), on the thread that holds the stream (`enqueueing_`): counts them and
  // records a marker after a wait or when kMarkEvery more went in since the last.
  ze_result_t enqueue(const Work &work, uint64_t commands);

  const Device &device_;
  CUstream stream_;
  std::mutex mutex_;
  std::condition_variable work_, enqueued_;
  std::deque<Pending> pending_;
  bool enqueueing_ = false; // a thread (the caller's or the feeder's) is enqueueing on the stream
  bool stopping_ = false;
  // Owned by the thread that is enqueueing.
  uint64_t count_ = 0;     // commands enqueued on the stream
  uint64_t done_ = 0;      // of those, how many are known to be done
  uint64_t marked_ = 0;    // `count_` at the last marker
  uint64_t waits_at_ = 0;  // `count_` after the last command that waited
  std::deque<Marker> markers_;
  std::vector<CUevent> spare_;
  std::thread thread_;
};

} // namespace zeal::cuda
