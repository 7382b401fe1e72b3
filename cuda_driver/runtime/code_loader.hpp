// Loading and unloading CUDA modules without waiting for the host. CUDA loads and unloads code (cuModuleLoadData,
// cuModuleUnload) only when no stream of the context waits: while a stream waits for an event the host signals
// later, a load on the application's thread would wait for a signal that thread has not given yet. So when a
// stream of the device may be stalled (StreamFeeder::may_stall), a module's own PTX is loaded, and a module
// unloaded, by the device's code loader thread instead, and zeModuleCreate returns with the load pending
// (Module::load_image): its kernels are made without their CUDA function, a launch finds it when it is enqueued,
// and the streams' feeders enqueue everything while a load is pending (the launch waits for the load there, not on
// the application's thread).
#pragma once

#include "cuda_driver/runtime/context.hpp"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace zeal::cuda {

// A load the code loader runs: what it gives, once it is done.
struct PendingLoad {
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  bool abandoned = false; // its module went first: the loader unloads what it loaded
  ze_result_t result = ZE_RESULT_SUCCESS;
  CUmodule module = nullptr;
  std::string log;
  // Waits for at most `timeout` ns (UINT64_MAX: until it is done); whether it is done.
  bool wait(uint64_t timeout);
};

class CodeLoader {
public:
  explicit CodeLoader(const Device &device) : device_(device) {}
  ~CodeLoader(); // once every job has run
  CodeLoader(const CodeLoader &) = delete;
  CodeLoader &operator=(const CodeLoader &) = delete;

  // Loads `ptx` (CUDA's JIT) on the loader's thread; `what` names it in a failure's sentence.
  std::shared_ptr<PendingLoad> load(std::string ptx, std::string what);
  // Unloads `module` on the loader's thread.
  void unload(CUmodule module);
  // Loads not done yet: while there are, the streams' feeders enqueue everything (stream_feeder.hpp).
  bool loading() const { return loading_.load(std::memory_order_acquire) != 0; }

private:
  void run(std::function<void()> job);
  void work();

  const Device &device_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::atomic<int> loading_{0};
  std::thread thread_;
};

} // namespace zeal::cuda
