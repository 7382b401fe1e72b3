// Sub-groups on zeal's CPU driver: a work-group reduction by sub_group_reduce_add vs a local-memory tree, and shuffles.
#include <fmt/format.h>
#include <level_zero/ze_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

constexpr uint32_t group = 256, subgroup = 16;
constexpr size_t reduce_n = size_t{1} << 20;  // ints
constexpr size_t shuffle_n = size_t{1} << 18; // uints
constexpr uint32_t shuffle_steps = 32;
constexpr int rounds = 7;

[[noreturn]] void fail(const std::string &what) { throw std::runtime_error(what); }

void ze(ze_result_t result, const char *call) {
  if (result != ZE_RESULT_SUCCESS) fail(fmt::format("{} failed: 0x{:x}", call, unsigned(result)));
}

std::vector<char> read_file(const char *path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) fail(fmt::format("cannot open {}", path));
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// The CPU driver through the Level Zero loader: one immediate list, one event, the bench module.
class Driver {
public:
  Driver() {
    setenv("ZE_ENABLE_ALT_DRIVERS", ZEAL_CPU_DRIVER_PATH, 0); // an explicit setting wins
    ze(zeInit(0), "zeInit");
    uint32_t count = 1;
    ze(zeDriverGet(&count, &driver_), "zeDriverGet");
    count = 1;
    ze(zeDeviceGet(driver_, &count, &device_), "zeDeviceGet");
    ze_context_desc_t context_desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    ze(zeContextCreate(driver_, &context_desc, &context_), "zeContextCreate");
    ze_command_queue_desc_t queue{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0,
                                  ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze(zeCommandListCreateImmediate(context_, device_, &queue, &list_), "zeCommandListCreateImmediate");
    ze_event_pool_desc_t pool{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    ze(zeEventPoolCreate(context_, &pool, 1, &device_, &pool_), "zeEventPoolCreate");
    ze_event_desc_t event{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
    ze(zeEventCreate(pool_, &event, &done_), "zeEventCreate");
    std::vector<char> spirv = read_file(ZEAL_BENCH_SPIRV);
    ze_module_desc_t module{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV, spirv.size(),
                            reinterpret_cast<const uint8_t *>(spirv.data()), "", nullptr};
    ze(zeModuleCreate(context_, device_, &module, &module_, nullptr), "zeModuleCreate");
  }
  Driver(const Driver &) = delete;
  Driver &operator=(const Driver &) = delete;
  ~Driver() { // best effort at exit: the figures are already printed
    for (ze_kernel_handle_t k : kernels_) zeKernelDestroy(k);
    for (void *p : allocations_) zeMemFree(context_, p);
    zeModuleDestroy(module_);
    zeEventDestroy(done_);
    zeEventPoolDestroy(pool_);
    zeCommandListDestroy(list_);
    zeContextDestroy(context_);
  }

  template <class T>
  T *alloc(size_t n) {
    ze_host_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
    void *p = nullptr;
    ze(zeMemAllocHost(context_, &desc, n * sizeof(T), 64, &p), "zeMemAllocHost");
    allocations_.push_back(p);
    return static_cast<T *>(p);
  }

  ze_kernel_handle_t kernel(const char *name, std::vector<std::pair<size_t, const void *>> args) {
    ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
    ze_kernel_handle_t k = nullptr;
    ze(zeKernelCreate(module_, &desc, &k), "zeKernelCreate");
    kernels_.push_back(k);
    ze(zeKernelSetGroupSize(k, group, 1, 1), "zeKernelSetGroupSize");
    for (uint32_t i = 0; i < args.size(); ++i) {
      ze(zeKernelSetArgumentValue(k, i, args[i].first, args[i].second), "zeKernelSetArgumentValue");
    }
    ze_kernel_properties_t props{};
    props.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
    ze(zeKernelGetProperties(k, &props), "zeKernelGetProperties");
    if (props.maxSubgroupSize != subgroup) fail(fmt::format("{} runs with sub-group size {}", name, props.maxSubgroupSize));
    return k;
  }

  // Wall time of one launch of `groups` work-groups, appended and waited for.
  double launch(ze_kernel_handle_t k, size_t groups) {
    ze_group_count_t count{uint32_t(groups), 1, 1};
    auto start = Clock::now();
    ze(zeCommandListAppendLaunchKernel(list_, k, &count, done_, 0, nullptr), "zeCommandListAppendLaunchKernel");
    ze(zeEventHostSynchronize(done_, UINT64_MAX), "zeEventHostSynchronize");
    double t = std::chrono::duration<double>(Clock::now() - start).count();
    ze(zeEventHostReset(done_), "zeEventHostReset");
    return t;
  }

private:
  ze_driver_handle_t driver_ = nullptr;
  ze_device_handle_t device_ = nullptr;
  ze_context_handle_t context_ = nullptr;
  ze_command_list_handle_t list_ = nullptr;
  ze_event_pool_handle_t pool_ = nullptr;
  ze_event_handle_t done_ = nullptr;
  ze_module_handle_t module_ = nullptr;
  std::vector<ze_kernel_handle_t> kernels_;
  std::vector<void *> allocations_;
};

// Runs the kernels in a rotating order, `rounds` times after one warm-up each; returns per-kernel times.
std::vector<std::vector<double>> alternate(Driver &d, const std::vector<std::pair<ze_kernel_handle_t, size_t>> &runs) {
  std::vector<std::vector<double>> times(runs.size());
  for (const auto &[k, groups] : runs) d.launch(k, groups);
  for (int r = 0; r < rounds; ++r) {
    for (size_t i = 0; i < runs.size(); ++i) {
      size_t s = (i + size_t(r)) % runs.size();
      times[s].push_back(d.launch(runs[s].first, runs[s].second));
    }
  }
  return times;
}

// Median of the per-round ratios slow/fast.
double paired_ratio(const std::vector<double> &fast, const std::vector<double> &slow) {
  std::vector<double> ratios;
  for (size_t i = 0; i < fast.size(); ++i) ratios.push_back(slow[i] / fast[i]);
  return median(ratios);
}

void check(bool ok, const std::string &what) {
  if (!ok) fail(fmt::format("wrong result: {}", what));
}

// The butterfly kernel on the host, one sub-group of 16 at a time.
std::vector<uint32_t> butterfly_reference(const uint32_t *in) {
  std::vector<uint32_t> x(in, in + shuffle_n), next(shuffle_n);
  for (uint32_t k = 0; k < shuffle_steps; ++k) {
    for (size_t i = 0; i < shuffle_n; ++i) next[i] = x[i] * 3u + x[i ^ (size_t{1} << (k % 4))];
    x.swap(next);
  }
  return x;
}

void row(const char *what, double seconds, double elements, const std::string &note = "") {
  std::printf("%-44s %9.3f ms %10.1f M elem/s  %s\n", what, seconds * 1e3, elements / seconds / 1e6, note.c_str());
}

} // namespace

int main() try {
  Driver d;
  const size_t reduce_groups = reduce_n / group, shuffle_groups = shuffle_n / group;
  int *in = d.alloc<int>(reduce_n), *sg_out = d.alloc<int>(reduce_groups), *tree_out = d.alloc<int>(reduce_groups);
  uint32_t *bits = d.alloc<uint32_t>(shuffle_n), *shuffled = d.alloc<uint32_t>(shuffle_n);
  for (size_t i = 0; i < reduce_n; ++i) in[i] = int(i % 13) - 6;
  for (size_t i = 0; i < shuffle_n; ++i) bits[i] = uint32_t(i * 2654435761u);
  ze_kernel_handle_t sg = d.kernel("reduce_subgroup", {{sizeof(in), &in}, {sizeof(sg_out), &sg_out}});
  ze_kernel_handle_t tree = d.kernel("reduce_local", {{sizeof(in), &in}, {sizeof(tree_out), &tree_out},
                                                      {group * sizeof(int), nullptr}});
  ze_kernel_handle_t shuffle = d.kernel("shuffle_butterfly", {{sizeof(bits), &bits}, {sizeof(shuffled), &shuffled},
                                                              {sizeof(shuffle_steps), &shuffle_steps}});
  auto times = alternate(d, {{sg, reduce_groups}, {tree, reduce_groups}, {shuffle, shuffle_groups}});

  for (size_t g = 0; g < reduce_groups; ++g) {
    int want = 0;
    for (size_t i = g * group; i < (g + 1) * group; ++i) want += in[i];
    check(sg_out[g] == want, fmt::format("sub-group reduction, work-group {}", g));
    check(tree_out[g] == want, fmt::format("local-memory reduction, work-group {}", g));
  }
  std::vector<uint32_t> want = butterfly_reference(bits);
  check(std::equal(want.begin(), want.end(), shuffled), "shuffle butterfly");

  std::printf("zeal CPU driver, %u hardware threads, sub-group size %u, work-group %u; median of %d rounds\n\n",
              std::max(1u, std::thread::hardware_concurrency()), subgroup, group, rounds);
  row("reduction, sub_group_reduce_add + local", median(times[0]), double(reduce_n));
  row("reduction, local-memory tree + barriers", median(times[1]), double(reduce_n));
  std::printf("  ratio tree time / sub-group time (median of per-round ratios): %.2fx\n",
              paired_ratio(times[0], times[1]));
  row(fmt::format("shuffle_xor butterfly, {} steps", shuffle_steps).c_str(), median(times[2]), double(shuffle_n),
      fmt::format("{:.1f} M shuffles/s, {:.1f} ns per shuffle per work-item",
                  double(shuffle_n) * shuffle_steps / median(times[2]) / 1e6,
                  median(times[2]) * 1e9 / (double(shuffle_n) * shuffle_steps)));
  return 0;
} catch (const std::exception &error) {
  std::fprintf(stderr, "bench_cpu_compute_subgroups: %s\n", error.what());
  return 1;
}
