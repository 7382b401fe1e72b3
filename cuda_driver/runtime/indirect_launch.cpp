// Indirect launches through a gate on the stream and the device's launcher thread (indirect_launch.hpp).
#include "cuda_driver/runtime/indirect_launch.hpp"
#include "cuda_driver/runtime/command_list.hpp"
#include "cuda_driver/runtime/cuda_call.hpp"

#include "common/log.hpp"

#include <algorithm>
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

// Under mutex_: the ticket word, the launcher's stream and its thread, once.
ze_result_t IndirectLauncher::start() {
  if (thread_.joinable()) return ZE_RESULT_SUCCESS;
  device_.make_current();
  const DriverApi &api = device_.api();
  if (ticket_word_ == nullptr) {
    void *word = nullptr;
    if (ze_result_t r = checked(api.cuMemHostAlloc(&word, 64, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP),
                                "cuMemHostAlloc");
        r != ZE_RESULT_SUCCESS)
      return r;
    ticket_word_ = static_cast<uint32_t *>(word);
    *ticket_word_ = 0;
  }
  if (stream_ == nullptr)
    if (ze_result_t r = new_stream(device_, stream_); r != ZE_RESULT_SUCCESS) return r;
  thread_ = std::thread([this] { run(); });
  return ZE_RESULT_SUCCESS;
}

ze_result_t IndirectLauncher::submit(CUstream stream, const IndirectLaunches &work) {
  std::lock_guard lock(mutex_);
  if (ze_result_t r = start(); r != ZE_RESULT_SUCCESS) return r;
  const DriverApi &api = device_.api();
  Job job;
  job.work = work;
  if (ze_result_t r = checked(api.cuEventCreate(&job.reached, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
      r != ZE_RESULT_SUCCESS)
    return r;
  // The ticket is taken only once the gate is in the stream: a ticket without its job would keep later gates shut.
  job.ticket = next_ticket_ + 1;
  ze_result_t r = checked(api.cuEventRecord(job.reached, stream), "cuEventRecord");
  if (r == ZE_RESULT_SUCCESS)
    r = checked(api.cuStreamWaitValue32_v2(stream, CUdeviceptr(ticket_word_), job.ticket, CU_STREAM_WAIT_VALUE_GEQ),
                "cuStreamWaitValue32");
  if (r != ZE_RESULT_SUCCESS) {
    api.cuEventDestroy_v2(job.reached);
    return r;
  }
  next_ticket_ = job.ticket;
  jobs_.push_back(std::move(job));
  wake_.notify_one();
  return ZE_RESULT_SUCCESS;
}

void IndirectLauncher::run() {
  device_.make_current();
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return !jobs_.empty(); });
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    launch(job);
  }
}

void IndirectLauncher::launch(const Job &job) {
  const DriverApi &api = device_.api();
  const auto &launches = job.work.launches;
  ze_result_t r = checked(api.cuEventSynchronize(job.reached), "cuEventSynchronize");
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
  checked(api.cuStreamWriteValue32_v2(stream_, CUdeviceptr(ticket_word_), job.ticket, 0), "cuStreamWriteValue32");
}

} // namespace zeal::cuda
