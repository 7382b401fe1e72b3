// Several host threads using the driver at once: each allocates, builds, and launches on its own list.
#include "test_support.hpp"

#include <atomic>
#include <thread>

namespace zeal::cpu::test {
namespace {

using Concurrency = CpuDriver;

TEST_F(Concurrency, ThreadsAllocateBuildAndLaunchAtOnce) {
  const std::vector<uint8_t> spirv = read_kernel("vector_add.spv");
  constexpr int threads = 4, rounds = 3;
  constexpr uint32_t n = 32 * 50;
  std::atomic<int> failures{0};
  auto work = [&](int t) {
    ze_module_desc_t mdesc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV, spirv.size(),
                           spirv.data(), "", nullptr};
    ze_module_handle_t module = nullptr;
    if (zeModuleCreate(context, device, &mdesc, &module, nullptr) != ZE_RESULT_SUCCESS) return void(++failures);
    ze_kernel_desc_t kdesc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "fill_value"};
    ze_kernel_handle_t kernel = nullptr;
    ze_command_queue_desc_t qdesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0,
                                  ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t list = nullptr;
    ze_host_mem_alloc_desc_t hdesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
    int *out = nullptr;
    bool ok = zeKernelCreate(module, &kdesc, &kernel) == ZE_RESULT_SUCCESS &&
              zeCommandListCreateImmediate(context, device, &qdesc, &list) == ZE_RESULT_SUCCESS &&
              zeMemAllocHost(context, &hdesc, n * sizeof(int), 0, reinterpret_cast<void **>(&out)) ==
                  ZE_RESULT_SUCCESS &&
              zeKernelSetGroupSize(kernel, 32, 1, 1) == ZE_RESULT_SUCCESS &&
              zeKernelSetArgumentValue(kernel, 0, sizeof(out), &out) == ZE_RESULT_SUCCESS;
    for (int r = 0; ok && r < rounds; ++r) {
      int value = t * 100 + r;
      ze_group_count_t groups{n / 32, 1, 1};
      ok = zeKernelSetArgumentValue(kernel, 1, sizeof(value), &value) == ZE_RESULT_SUCCESS &&
           zeCommandListAppendLaunchKernel(list, kernel, &groups, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS;
      // Destroying waits for the list's work, so a fresh list per round doubles as synchronization.
      ok = ok && zeCommandListDestroy(list) == ZE_RESULT_SUCCESS &&
           zeCommandListCreateImmediate(context, device, &qdesc, &list) == ZE_RESULT_SUCCESS;
      for (uint32_t i = 0; ok && i < n; ++i) ok = out[i] == value;
    }
    if (!ok) ++failures;
    if (out != nullptr) zeMemFree(context, out);
    if (list != nullptr) zeCommandListDestroy(list);
    if (kernel != nullptr) zeKernelDestroy(kernel);
    zeModuleDestroy(module);
  };
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) workers.emplace_back(work, t);
  for (std::thread &t : workers) t.join();
  EXPECT_EQ(0, failures.load());
}

} // namespace
} // namespace zeal::cpu::test
