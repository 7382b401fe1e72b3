// Events on the CUDA driver: a word in pinned host memory the device can see. A stream signals it with
// cuStreamWriteValue32 and waits for it with cuStreamWaitValue32; the host reads and writes it directly, so host and
// device signals, waits across queues and host synchronisation all meet in the same place. While no stream waits
// on a slot's word, a stream's signal is a CUDA event recorded instead (cuEventRecord costs the host about a
// tenth of cuStreamWriteValue32: an in-order queue's chain of events is one of those per command), which host
// queries and later waits of other streams read.
//
// A recorded signal is right only while waits are enqueued in the order the application appended them: a wait
// reads the slot's latest record, and cuStreamWaitEvent waits for the record as it was at the wait's enqueue. So a
// slot leaves recording for good (its "word mode") when a command that uses it is enqueued later than it was
// appended, by a stream's feeder (stream_feeder.hpp): Event::use_word. And while the host's signal is the slot's
// last (no reset since), signals write the word: a record would make later waits wait for it although the event is
// signalled already.
#pragma once

#include "cuda_driver/runtime/context.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace zeal::cuda {

class EventPool;

// What every event made at one slot of a pool shares (several may be: Level Zero lets an application make a slot's
// event again).
struct EventSlot {
  uint32_t *word = nullptr;                     // pinned, mapped
  CUdeviceptr device_word = 0;                  // the word's address on the device
  std::atomic<CUstream> signal_stream{nullptr}; // the stream whose last operation on the slot was its signal
  std::atomic<bool> recorded{false};            // the last signal was recorded in `recorded_event`, not written
  std::atomic<bool> word_waited{false};         // a stream has waited on the word: signals write it from then on
  std::atomic<bool> host_signalled{false};      // the host signalled it last, with no reset since
  // A device signal is enqueued, with no reset enqueued (or done by the host) since: a wait enqueued now waits for
  // something already on a stream (see Event::wait_on).
  std::atomic<bool> signal_enqueued{false};
  bool shared = false; // of an IPC pool: another process may signal it, which only the word shows
  std::mutex switching;                         // a recorded signal against Event::use_word
  std::once_flag made;
  CUevent recorded_event = nullptr;             // made at the slot's first recorded signal
  // After Event::use_word: recorded on the bridge stream after the word is written for the last record. A reset
  // enqueued while it is pending waits for it, so that the late write does not undo the reset.
  CUevent bridged = nullptr;
  std::atomic<bool> bridge_pending{false};
  // Threads inside signal_on or wait_on for the slot: a stream's feeder may still be in one after the signal it
  // enqueued has run and the host has seen it, so an event of the slot, or its pool, goes only once none is.
  std::atomic<int> users{0};
  void wait_unused() const;
  // A reset enqueued or done by the host, or the slot made anew: no signal is known, recorded or the host's.
  void forget_signals() {
    host_signalled.store(false);
    signal_enqueued.store(false);
    recorded.store(false);
    signal_stream.store(nullptr);
  }
};

class Event : public _ze_event_handle_t {
public:
  Event(EventPool &pool, uint32_t index, EventSlot &slot) : pool_(pool), index_(index), slot_(slot) {}
  static Event *from(ze_event_handle_t h) { return static_cast<Event *>(h); }
  EventPool &pool() const { return pool_; }
  uint32_t index() const { return index_; }

  bool signalled() const;
  void host_signal() {
    {
      std::lock_guard lock(slot_.switching);
      slot_.host_signalled.store(true);
      slot_.recorded.store(false);
      slot_.signal_enqueued.store(false);
    }
    slot_.signal_stream.store(nullptr);
    std::atomic_ref<uint32_t>(*slot_.word).store(1, std::memory_order_release);
  }
  void host_reset();
  // Enqueued on a stream: the device signals (1) or resets (0) the event, or waits until it is signalled. A wait on
  // the stream whose last enqueued operation on the event is its signal is stream order already, and is left out.
  ze_result_t signal_on(const Device &device, CUstream stream, uint32_t value = 1);
  ze_result_t wait_on(const Device &device, CUstream stream) const;
  // Whether the event's next signal is not enqueued yet (nor given by the host): a stream that waited for it now
  // would wait for something no stream holds, which CUDA lets block its loads, its pageable copies and a full
  // stream's enqueues. Such a wait is made on the host by the stream's feeder (wait_on), never on the stream.
  bool signal_unknown() const;
  // Whether wait_on(stream) would enqueue a wait now (not when `stream` signalled the slot last; null: any stream).
  bool would_wait_on(CUstream stream) const { return stream == nullptr || slot_.signal_stream.load() != stream; }
  // Puts the slot in word mode for good (event.hpp's header), before a command that uses it is handed to a feeder:
  // when its last signal was recorded, `device`'s bridge stream writes the word once that record is done, and waits
  // go to the word from now on.
  ze_result_t use_word(const Device &device);
  // For an event of a timestamp pool: where the command's start and end are written (device nanoseconds), as the
  // host reads them and as the device writes them; null for others.
  uint64_t *timestamps() const;
  uint64_t *device_timestamps() const;
  // Waits on the host for at most `timeout` ns (UINT64_MAX: for ever); ZE_RESULT_NOT_READY when it ran out.
  ze_result_t host_wait(uint64_t timeout) const;

private:
  EventPool &pool_;
  uint32_t index_;
  EventSlot &slot_;
};

class EventPool : public _ze_event_pool_handle_t {
public:
  // The pool keeps the driver, not the context: applications destroy a context before its pools (as
  // level-zero-tests does), and Intel's driver lets them.
  // `words`: cuMemHostAlloc's (`fd` < 0 and not `shared`), or a memory file's mapping, registered with CUDA, made
  // here for ZE_EVENT_POOL_FLAG_IPC (`fd` its descriptor) or opened from another process's handle (`shared`, `fd`
  // -1). `device_words`: their address on the device.
  EventPool(Driver &driver, uint32_t count, ze_event_pool_flags_t flags, void *words, CUdeviceptr device_words,
            int fd, bool opened);
  ~EventPool();
  static EventPool *from(ze_event_pool_handle_t h) { return static_cast<EventPool *>(h); }
  Driver &driver() const { return driver_; }
  uint32_t count() const { return count_; }
  bool timestamps() const { return (flags_ & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP) != 0; }
  // The handle another process opens this pool with (zeEventPoolGetIpcHandle); false, with the sentence, for a pool
  // not made for IPC or opened from a handle.
  bool ipc_handle(ze_ipc_event_pool_handle_t &out, std::string &why) const;
  bool opened() const { return opened_; }
  // The bytes of a pool of `count` events, a whole number of pages when they are a memory file's.
  static size_t words_size(uint32_t count);
  // Makes an event of the pool's `index`-th slot, reset. A slot may have several (as on Intel's driver, where
  // level-zero-tests makes one per test round without destroying the last): they are the same event.
  Event *create(uint32_t index);
  void forget(const Event *event);

private:
  Driver &driver_;
  uint32_t count_;
  ze_event_pool_flags_t flags_;
  void *words_;
  int fd_;       // the memory file of a pool made for IPC; -1 otherwise
  bool opened_;  // opened from another process's handle: its words are that process's
  std::mutex mutex_; // events made and destroyed from several threads
  std::vector<std::unique_ptr<Event>> events_;
  std::unique_ptr<EventSlot[]> slots_;
};

} // namespace zeal::cuda
