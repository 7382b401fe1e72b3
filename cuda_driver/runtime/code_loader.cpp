// The code loader (code_loader.hpp).
#include "cuda_driver/runtime/code_loader.hpp"
#include "cuda_driver/runtime/cuda_call.hpp"
#include "cuda_driver/runtime/module.hpp"

#include "ze_driver/timed_wait.hpp"

namespace zeal::cuda {

bool PendingLoad::wait(uint64_t timeout) {
  std::unique_lock lock(mutex);
  return ze::wait_for_ns(finished, lock, timeout, [this] { return done; });
}

CodeLoader::~CodeLoader() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void CodeLoader::run(std::function<void()> job) {
  std::lock_guard lock(mutex_);
  jobs_.push_back(std::move(job));
  if (!thread_.joinable()) thread_ = std::thread([this] { work(); });
  wake_.notify_one();
}

void CodeLoader::work() {
  device_.make_current();
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
    if (jobs_.empty()) return; // stopping, with nothing left
    std::function<void()> job = std::move(jobs_.front());
    jobs_.pop_front();
    lock.unlock();
    job();
    lock.lock();
  }
}

std::shared_ptr<PendingLoad> CodeLoader::load(std::string ptx, std::string what) {
  auto pending = std::make_shared<PendingLoad>();
  loading_.fetch_add(1, std::memory_order_acq_rel);
  run([this, pending, ptx = std::move(ptx), what = std::move(what)] {
    CUmodule module = nullptr;
    std::string log;
    const ze_result_t result = load_cuda_module(device_, ptx.c_str(), what, module, log);
    {
      std::lock_guard lock(pending->mutex);
      if (pending->abandoned) {
        if (module != nullptr) checked(device_.api().cuModuleUnload(module), "cuModuleUnload");
      } else {
        pending->result = result;
        pending->module = module;
        pending->log = std::move(log);
      }
      pending->done = true;
    }
    loading_.fetch_sub(1, std::memory_order_acq_rel);
    pending->finished.notify_all();
  });
  return pending;
}

void CodeLoader::unload(CUmodule module) {
  run([this, module] { checked(device_.api().cuModuleUnload(module), "cuModuleUnload"); });
}

} // namespace zeal::cuda
