// The stream feeder (stream_feeder.hpp).
#include "cuda_driver/runtime/stream_feeder.hpp"
#include "cuda_driver/runtime/code_loader.hpp"
#include "cuda_driver/runtime/command_list.hpp"
#include "cuda_driver/runtime/cuda_call.hpp"

#include "common/log.hpp"
#include "ze_driver/timed_wait.hpp"

#include <chrono>

namespace zeal::cuda {

StreamFeeder::~StreamFeeder() {
  device_.remove_feeder(this);
  wait_enqueued(UINT64_MAX);
  if (thread_.joinable()) {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    work_.notify_all();
    thread_.join();
  }
  device_.make_current();
  for (const Marker &m : markers_) device_.api().cuEventDestroy_v2(m.event);
  for (CUevent e : spare_) device_.api().cuEventDestroy_v2(e);
}

namespace {

thread_local uint64_t waits_enqueued = 0;
thread_local bool feeder_thread = false;

} // namespace

void note_stream_wait() { ++waits_enqueued; }

bool on_feeder_thread() { return feeder_thread; }

void StreamFeeder::look_at_markers() {
  const DriverApi &api = device_.api();
  while (!markers_.empty() && api.cuEventQuery(markers_.front().event) == CUDA_SUCCESS) {
    done_ = markers_.front().at;
    spare_.push_back(markers_.front().event);
    markers_.pop_front();
  }
}

bool StreamFeeder::direct(const WorkTraits &traits) {
  const uint64_t commands = traits.commands;
  const bool waits = traits.waits;
  if (traits.host_waits || traits.syncs) return false;
  if (traits.drains) {
    if (waits) return false;
    if (done_ < waits_at_) look_at_markers();
    return done_ >= waits_at_;
  }
  // `done_` only grows: a pending count from an old `done_` is too high, never too low.
  auto nothing_stalls = [&] { return !waits && done_ >= waits_at_; };
  auto few_pending = [&] { return count_ - done_ + commands <= kDirectCommands; };
  if (nothing_stalls() || few_pending()) return true;
  look_at_markers();
  return nothing_stalls() || few_pending();
}

ze_result_t StreamFeeder::enqueue(const Work &work, uint64_t commands) {
  const uint64_t waits_before = waits_enqueued;
  const ze_result_t result = work(stream_);
  count_ += commands;
  const bool waited = waits_enqueued != waits_before;
  if (waited) waits_at_ = count_;
  if (!waited && count_ - marked_ < kMarkEvery) return result;
  marked_ = count_;
  if (markers_.size() >= kMostMarkers) look_at_markers();
  const DriverApi &api = device_.api();
  CUevent event = nullptr;
  if (!spare_.empty()) {
    event = spare_.back();
    spare_.pop_back();
  } else if (api.cuEventCreate(&event, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS) {
    return result; // no marker: the next one tells
  }
  if (api.cuEventRecord(event, stream_) != CUDA_SUCCESS) {
    spare_.push_back(event);
    return result;
  }
  markers_.push_back({event, count_});
  return result;
}

ze_result_t StreamFeeder::submit(Work work, const WorkTraits &traits, const char *what,
                                 const std::function<ze_result_t()> &deferring) {
  std::unique_lock lock(mutex_);
  // While a module loads (code_loader.hpp), a launch of its kernels waits for the load where it is enqueued.
  if (pending_.empty() && !enqueueing_ && !device_.loader().loading()) {
    device_.make_current();
    if (direct(traits)) {
      enqueueing_ = true;
      lock.unlock();
      const ze_result_t result = enqueue(work, traits.commands);
      lock.lock();
      enqueueing_ = false;
      if (!pending_.empty()) work_.notify_one(); // not from this thread: it was busy here
      enqueued_.notify_all();
      return result;
    }
  }
  if (ze_result_t r = deferring(); r != ZE_RESULT_SUCCESS) return r;
  pending_.push_back({std::move(work), traits.commands, what});
  if (!thread_.joinable()) thread_ = std::thread([this] { feed(); });
  work_.notify_one();
  return ZE_RESULT_SUCCESS;
}

void StreamFeeder::feed() {
  feeder_thread = true;
  device_.make_current();
  std::unique_lock lock(mutex_);
  for (;;) {
    work_.wait(lock, [this] { return stopping_ || (!pending_.empty() && !enqueueing_); });
    if (pending_.empty()) return; // stopping, with nothing left
    Pending next = std::move(pending_.front());
    pending_.pop_front();
    enqueueing_ = true;
    lock.unlock();
    if (ze_result_t r = enqueue(next.work, next.commands); r != ZE_RESULT_SUCCESS)
      zeal::logger("zeal-cuda").error("{}: enqueueing it on its stream failed ({:#x})", next.what, unsigned(r));
    lock.lock();
    enqueueing_ = false;
    if (pending_.empty()) enqueued_.notify_all();
  }
}

bool StreamFeeder::may_stall() {
  std::lock_guard lock(mutex_);
  if (enqueueing_ || !pending_.empty()) return true;
  device_.make_current();
  look_at_markers();
  return done_ < waits_at_;
}

ze_result_t StreamFeeder::wait_enqueued(uint64_t timeout) {
  std::unique_lock lock(mutex_);
  return ze::wait_for_ns(enqueued_, lock, timeout, [this] { return pending_.empty() && !enqueueing_; })
             ? ZE_RESULT_SUCCESS
             : ZE_RESULT_NOT_READY;
}

ze_result_t StreamFeeder::synchronize(uint64_t timeout) {
  const auto start = std::chrono::steady_clock::now();
  if (ze_result_t r = wait_enqueued(timeout); r != ZE_RESULT_SUCCESS) return r;
  if (timeout != UINT64_MAX) {
    const auto spent = uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    std::chrono::steady_clock::now() - start).count());
    timeout = spent >= timeout ? 0 : timeout - spent;
  }
  return wait_for_stream(device_, stream_, timeout);
}

} // namespace zeal::cuda
