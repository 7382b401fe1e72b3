// Indirect launches, made by a stream feeder's thread once the stream has run what is before them
// (indirect_launch.hpp).
#include "cuda_driver/runtime/indirect_launch.hpp"
#include "cuda_driver/runtime/command_list.hpp"
#include "cuda_driver/runtime/cuda_call.hpp"

#include <algorithm>
#include <map>
#include <mutex>

namespace zeal::cuda {

namespace {

// Pinned host memory that the counts are copied into, a block per launch in progress, kept for the next (a copy into
// pageable memory would itself wait for the stream, on CUDA's terms). Blocks live as long as the process, as the
// driver does.
class StagingBlocks {
public:
  struct Block {
    void *memory = nullptr;
    size_t bytes = 0;
  };
  static StagingBlocks &of(const Device &device) {
    static std::mutex mutex;
    static auto *all = new std::map<const Device *, std::unique_ptr<StagingBlocks>>(); // never destroyed
    std::lock_guard lock(mutex);
    std::unique_ptr<StagingBlocks> &blocks = (*all)[&device];
    if (blocks == nullptr) blocks = std::make_unique<StagingBlocks>();
    return *blocks;
  }
  // A free block of at least `bytes`, or a new one.
  ze_result_t take(const Device &device, size_t bytes, Block &block) {
    {
      std::lock_guard lock(mutex_);
      auto fits = std::find_if(free_.begin(), free_.end(), [&](const Block &b) { return b.bytes >= bytes; });
      if (fits != free_.end()) {
        block = *fits;
        free_.erase(fits);
        return ZE_RESULT_SUCCESS;
      }
    }
    block.bytes = std::max<size_t>(bytes, 4096);
    return checked(device.api().cuMemHostAlloc(&block.memory, block.bytes, 0), "cuMemHostAlloc");
  }
  void give_back(const Block &block) {
    std::lock_guard lock(mutex_);
    free_.push_back(block);
  }

private:
  std::mutex mutex_;
  std::vector<Block> free_;
};

// The kernel count (when the command has one) and the group counts, as the memory holds them once the stream has run
// what was enqueued before: copied in stream order into `block` (the count first, in a slot as aligned as a group
// count), then waited for.
ze_result_t read_counts(const Device &device, CUstream stream, const IndirectLaunches &work,
                        const StagingBlocks::Block &block, uint32_t &runs, std::vector<ze_group_count_t> &groups) {
  const DriverApi &api = device.api();
  auto *count = static_cast<uint32_t *>(block.memory);
  auto *staged = static_cast<ze_group_count_t *>(block.memory) + 1;
  ze_result_t r = ZE_RESULT_SUCCESS;
  if (work.count_at != nullptr)
    r = checked(api.cuMemcpyAsync(CUdeviceptr(count), CUdeviceptr(work.count_at), sizeof *count, stream),
                "cuMemcpyAsync");
  if (r == ZE_RESULT_SUCCESS)
    r = checked(api.cuMemcpyAsync(CUdeviceptr(staged), CUdeviceptr(work.groups_at),
                                  groups.size() * sizeof(ze_group_count_t), stream),
                "cuMemcpyAsync");
  if (r == ZE_RESULT_SUCCESS) r = wait_for_stream(device, stream, UINT64_MAX);
  if (r != ZE_RESULT_SUCCESS) return r;
  if (work.count_at != nullptr) runs = std::min<uint32_t>(*count, runs);
  std::copy(staged, staged + groups.size(), groups.begin());
  return ZE_RESULT_SUCCESS;
}

} // namespace

ze_result_t launch_indirect(const Device &device, CUstream stream, const IndirectLaunches &work) {
  device.make_current();
  const auto &launches = work.launches;
  StagingBlocks &staging = StagingBlocks::of(device);
  StagingBlocks::Block block;
  if (ze_result_t r = staging.take(device, (launches.size() + 1) * sizeof(ze_group_count_t), block);
      r != ZE_RESULT_SUCCESS)
    return r;
  uint32_t runs = uint32_t(launches.size());
  std::vector<ze_group_count_t> groups(launches.size());
  ze_result_t r = read_counts(device, stream, work, block, runs, groups);
  staging.give_back(block);
  for (uint32_t i = 0; r == ZE_RESULT_SUCCESS && i < runs; ++i) {
    const ze_group_count_t &g = groups[i];
    if (g.groupCountX == 0 || g.groupCountY == 0 || g.groupCountZ == 0) continue;
    Launch launch = *launches[i];
    launch.set_groups(g);
    r = launch.run(stream);
  }
  return r;
}

} // namespace zeal::cuda
