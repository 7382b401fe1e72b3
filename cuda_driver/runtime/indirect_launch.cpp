// Indirect launches through a gate on the stream and the device's launcher thread (indirect_launch.hpp).
#include "cuda_driver/runtime/indirect_launch.hpp"
#include "cuda_driver/runtime/command_list.hpp"
#include "cuda_driver/runtime/cuda_call.hpp"
#include "cuda_driver/runtime/stream_feeder.hpp"

#include "common/log.hpp"

#include <algorithm>
#include <chrono>
#include <map>

namespace zeal::cuda {

IndirectLauncher &IndirectLauncher::of(const Device &device) {
  static std::mutex mutex;
  static auto *launchers = new std::map<const Device *, std::unique_ptr<IndirectLauncher>>(); // never destroyed
  std::lock_guard lock(mutex);
  std::unique_ptr<IndirectLauncher> &launcher = (*launchers)[&device];
  if (launcher == nullptr) launcher = std::make_unique<IndirectLauncher>(device);
  return *launcher;
}

// Under mutex_: the launcher's stream and its thread, once.
ze_result_t IndirectLauncher::start() {
  if (thread_.joinable()) return ZE_RESULT_SUCCESS;
  if (stream_ == nullptr)
    if (ze_result_t r = new_stream(device_, stream_); r != ZE_RESULT_SUCCESS) return r;
  thread_ = std::thread([this] { run(); });
  return ZE_RESULT_SUCCESS;
}

// Under mutex_: a gate word no job holds, from a new page of them when none is free.
ze_result_t IndirectLauncher::free_gate(size_t &gate) {
  if (free_gates_.empty()) {
    constexpr size_t page = 4096, stride = 64; // a word per cache line
    void *words = nullptr;
    device_.make_current();
    if (ze_result_t r = checked(device_.api().cuMemHostAlloc(&words, page,
                                                             CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP),
                                "cuMemHostAlloc");
        r != ZE_RESULT_SUCCESS)
      return r;
    for (size_t at = 0; at < page; at += stride) {
      auto *word = reinterpret_cast<uint32_t *>(static_cast<char *>(words) + at);
      *word = 0;
      free_gates_.push_back(gates_.size());
      gates_.push_back({word, 0});
    }
  }
  gate = free_gates_.back();
  free_gates_.pop_back();
  return ZE_RESULT_SUCCESS;
}

ze_result_t IndirectLauncher::submit(CUstream stream, const IndirectLaunches &work) {
  std::lock_guard lock(mutex_);
  if (ze_result_t r = start(); r != ZE_RESULT_SUCCESS) return r;
  const DriverApi &api = device_.api();
  Job job;
  job.work = work;
  if (ze_result_t r = free_gate(job.gate); r != ZE_RESULT_SUCCESS) return r;
  GateWord &gate = gates_[job.gate];
  job.word = gate.word;
  job.ticket = gate.ticket + 1;
  ze_result_t r = checked(api.cuEventCreate(&job.reached, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  if (r == ZE_RESULT_SUCCESS) r = checked(api.cuEventRecord(job.reached, stream), "cuEventRecord");
  if (r == ZE_RESULT_SUCCESS) {
    note_stream_wait();
    r = checked(api.cuStreamWaitValue32_v2(stream, CUdeviceptr(gate.word), job.ticket, CU_STREAM_WAIT_VALUE_GEQ),
                "cuStreamWaitValue32");
  }
  if (r != ZE_RESULT_SUCCESS) {
    if (job.reached != nullptr) api.cuEventDestroy_v2(job.reached);
    free_gates_.push_back(job.gate);
    return r;
  }
  gate.ticket = job.ticket;
  jobs_.push_back(std::move(job));
  wake_.notify_one();
  return ZE_RESULT_SUCCESS;
}

// Launches the jobs whose streams have reached their gates, in the order found; sleeps on the condition while there
// are none, and polls while some wait for their streams: every 20 us at first, backing off to every millisecond.
void IndirectLauncher::run() {
  device_.make_current();
  std::unique_lock lock(mutex_);
  unsigned idle = 0;
  for (;;) {
    wake_.wait(lock, [this] { return !jobs_.empty(); });
    bool launched = false;
    for (size_t i = 0; i < jobs_.size();) {
      CUresult reached = device_.api().cuEventQuery(jobs_[i].reached);
      if (reached == CUDA_ERROR_NOT_READY) {
        ++i;
        continue;
      }
      Job job = std::move(jobs_[i]);
      jobs_.erase(jobs_.begin() + std::ptrdiff_t(i));
      lock.unlock();
      launch(job); // a failed query (a lost device) still opens the gate
      lock.lock();
      free_gates_.push_back(job.gate);
      launched = true;
    }
    idle = launched ? 0 : idle + 1;
    if (!launched && !jobs_.empty()) {
      lock.unlock();
      std::this_thread::sleep_for(std::chrono::microseconds(std::min(1000u, 20u << std::min(idle, 6u))));
      lock.lock();
    }
  }
}

void IndirectLauncher::launch(const Job &job) {
  const DriverApi &api = device_.api();
  const auto &launches = job.work.launches;
  ze_result_t r = checked(api.cuEventQuery(job.reached), "cuEventQuery");
  api.cuEventDestroy_v2(job.reached);
  uint32_t runs = uint32_t(launches.size());
  std::vector<ze_group_count_t> groups(launches.size());
  if (r == ZE_RESULT_SUCCESS && job.work.count_at != nullptr)
    r = checked(api.cuMemcpyAsync(CUdeviceptr(&runs), CUdeviceptr(job.work.count_at), sizeof runs, stream_),
                "cuMemcpyAsync");
  if (r == ZE_RESULT_SUCCESS)
    r = checked(api.cuMemcpyAsync(CUdeviceptr(groups.data()), CUdeviceptr(job.work.groups_at),
                                  groups.size() * sizeof(ze_group_count_t), stream_),
                "cuMemcpyAsync");
  if (r == ZE_RESULT_SUCCESS) r = checked(api.cuStreamSynchronize(stream_), "cuStreamSynchronize");
  for (uint32_t i = 0; r == ZE_RESULT_SUCCESS && i < std::min<uint32_t>(runs, uint32_t(launches.size())); ++i) {
    const ze_group_count_t &g = groups[i];
    if (g.groupCountX == 0 || g.groupCountY == 0 || g.groupCountZ == 0) continue;
    Launch launch = *launches[i];
    launch.set_groups(g);
    r = launch.run(stream_);
  }
  if (r != ZE_RESULT_SUCCESS)
    zeal::logger("zeal-cuda").error("an indirect launch failed ({:#x}); the commands after it go on", unsigned(r));
  // The gate opens whatever happened: the application's stream must not wait for ever.
  checked(api.cuStreamWriteValue32_v2(stream_, CUdeviceptr(job.word), job.ticket, 0),
          "cuStreamWriteValue32");
}

} // namespace zeal::cuda
