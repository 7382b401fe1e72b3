// Events on the CUDA driver: a word in pinned host memory the device can see. A stream signals it with
// cuStreamWriteValue32 and waits for it with cuStreamWaitValue32; the host reads and writes it directly, so host and
// device signals, waits across queues and host synchronisation all meet in the same place.
#pragma once

#include "cuda_driver/runtime/context.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace zeal::cuda {

class EventPool;

class Event : public _ze_event_handle_t {
public:
  Event(EventPool &pool, uint32_t index, uint32_t *word, std::atomic<CUstream> &signal_stream)
      : pool_(pool), index_(index), word_(word), signal_stream_(signal_stream) {}
  static Event *from(ze_event_handle_t h) { return static_cast<Event *>(h); }
  EventPool &pool() const { return pool_; }
  uint32_t index() const { return index_; }

  bool signalled() const { return std::atomic_ref<uint32_t>(*word_).load(std::memory_order_acquire) != 0; }
  void host_signal() {
    signal_stream_.store(nullptr);
    std::atomic_ref<uint32_t>(*word_).store(1, std::memory_order_release);
  }
  void host_reset() {
    signal_stream_.store(nullptr);
    std::atomic_ref<uint32_t>(*word_).store(0, std::memory_order_release);
  }
  // Enqueued on a stream: the device sets the word (1 signals, 0 resets), or waits until it is set. A wait on the
  // stream whose last enqueued operation on the event is its signal is stream order already, and is left out: an
  // in-order queue's chain of events (the adapter's) then costs one write per command, not a write and a wait.
  ze_result_t signal_on(const Device &device, CUstream stream, uint32_t value = 1);
  ze_result_t wait_on(const Device &device, CUstream stream) const;
  // For an event of a timestamp pool: where the command's start and end are written (device nanoseconds); null
  // for others.
  uint64_t *timestamps() const;
  // Waits on the host for at most `timeout` ns (UINT64_MAX: for ever); ZE_RESULT_NOT_READY when it ran out.
  ze_result_t host_wait(uint64_t timeout) const;

private:
  EventPool &pool_;
  uint32_t index_;
  uint32_t *word_; // pinned, mapped: the same address on the device (unified addressing)
  std::atomic<CUstream> &signal_stream_; // the slot's: the stream whose last operation on it was its signal
};

class EventPool : public _ze_event_pool_handle_t {
public:
  // The pool keeps the driver, not the context: applications destroy a context before its pools (as
  // level-zero-tests does), and Intel's driver lets them.
  EventPool(Driver &driver, const ze_event_pool_desc_t &desc, void *words);
  ~EventPool();
  static EventPool *from(ze_event_pool_handle_t h) { return static_cast<EventPool *>(h); }
  Driver &driver() const { return driver_; }
  uint32_t count() const { return count_; }
  bool timestamps() const { return timestamps_; }
  // Makes an event of the pool's `index`-th slot, reset. A slot may have several (as on Intel's driver, where
  // level-zero-tests makes one per test round without destroying the last): they are the same event.
  Event *create(uint32_t index);
  void forget(const Event *event);

private:
  Driver &driver_;
  uint32_t count_;
  bool timestamps_;
  void *words_;
  std::mutex mutex_; // events made and destroyed from several threads
  std::vector<std::unique_ptr<Event>> events_;
  std::unique_ptr<std::atomic<CUstream>[]> signal_streams_; // one per slot, shared by its events
};

} // namespace zeal::cuda
