// bench_adapter_launch: host time per launch through the adapter vs a hand-written Level Zero sequence on the
// same driver and kernel (median of paired rounds), and heap allocations per steady-state launch. On zeal's CUDA
// driver (an NVIDIA device) the same rounds also launch the module's PTX with cuLaunchKernel: what the zeal API
// and the UR face add over CUDA's own path (issue 49's target: at most 2 us).
#include "cuda_driver/cuda_api.hpp"
#include "tests/support/allocation_counter.hpp"
#include "tests/support/launch_1d.hpp"
#include "tests/support/zeal_launch_objects.hpp"
#include "tests/support/ze_setup.hpp"

#include <zeal/zeal_adapter.h>

#include <level_zero/ze_api.h>

#ifdef ZEAL_BENCH_UR
#include "tests/support/ur_session.hpp"
#endif

#include <fmt/format.h>

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kBatch = 100; // below every in-flight bound (the adapter's 192, the ring's 127): host time only
constexpr int kRounds = 301;

[[noreturn]] void die(const std::string &what) {
  std::fprintf(stderr, "bench_adapter_launch: %s\n", what.c_str());
  std::exit(1);
}

void check(ze_result_t r, const char *call) {
  if (r != ZE_RESULT_SUCCESS) die(fmt::format("{} failed with {:#x}", call, static_cast<unsigned>(r)));
}
void check(zeal::test::ZeCall call) { check(call.result, call.name); }

// A build-tree path, or where ZEAL_BENCH_<what> puts it (the GPU kit, scripts/gpu-kit.sh, runs this elsewhere).
const char *path_of(const char *variable, const char *built) {
  const char *set = std::getenv(variable);
  return set != nullptr && *set != '\0' ? set : built;
}

std::vector<uint8_t> read_spirv() {
  const char *path = path_of("ZEAL_BENCH_KERNEL", ZEAL_BENCH_KERNEL);
  std::ifstream in(path, std::ios::binary);
  if (!in) die(std::string("cannot read ") + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Adapter {
  zeal_adapter_dispatch_t d{};
  zeal_adapter_handle_t adapter = nullptr;
  zeal_test::ZealLaunchObjects z;

  void check_z(zeal_result_t r, const char *call) {
    if (r != ZEAL_RESULT_SUCCESS) die(fmt::format("{}: {}", call, d.getLastErrorMessage()));
  }
  void create(const std::vector<uint8_t> &spirv) {
    void *lib = dlopen(path_of("ZEAL_BENCH_ADAPTER", ZEAL_ADAPTER_PATH), RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) die(dlerror());
    auto get = reinterpret_cast<zeal_pfn_get_adapter_dispatch_t>(dlsym(lib, ZEAL_GET_ADAPTER_DISPATCH_SYMBOL));
    if (get == nullptr || get(ZEAL_ADAPTER_ABI_VERSION, &d) != ZEAL_RESULT_SUCCESS) die("zealGetAdapterDispatch");
    check_z(d.adapterInit(&adapter), "adapterInit");
    uint32_t n = 1;
    zeal_platform_handle_t platform = nullptr;
    check_z(d.platformGet(adapter, &n, &platform), "platformGet");
    n = 1;
    zeal_device_handle_t device = nullptr;
    check_z(d.deviceGet(platform, ZEAL_DEVICE_TYPE_ALL, &n, &device), "deviceGet");
    zeal_test::ZealLaunchObjects::Call made = z.create(d, device, spirv, "tiny", sizeof(int));
    check_z(made.result, made.name);
  }
  void launches(int n, int value) {
    const zeal_kernel_arg_t args[] = {{0, ZEAL_KERNEL_ARG_USM_POINTER, 0, z.out},
                                      {1, ZEAL_KERNEL_ARG_VALUE, sizeof(int), &value}};
    const zeal_launch_desc_t launch = zeal_test::launch_1d(64, 64, 2, args);
    for (int i = 0; i < n; ++i)
      if (d.enqueueKernelLaunch(z.queue, z.kernel, &launch, 0, nullptr, nullptr) != ZEAL_RESULT_SUCCESS)
        die(d.getLastErrorMessage());
  }
  void finish() { check_z(d.queueFinish(z.queue), "queueFinish"); }
};

#ifdef ZEAL_BENCH_UR
// The same launches through UR's loader and zeal's UR face, as libsycl makes them: arguments with the launch.
struct UrFace {
  zeal::test::UrSession ur{"bench_adapter_launch"};
  ur_kernel_handle_t kernel = nullptr;
  int *out = nullptr;

  void create(const std::vector<uint8_t> &spirv) {
    ur.open(path_of("ZEAL_BENCH_UR_ADAPTER", ZEAL_UR_ADAPTER_PATH), spirv);
    kernel = ur.kernel("tiny");
    out = static_cast<int *>(ur.shared(sizeof(int)));
  }
  void launches(int n, int value) {
    ur_exp_kernel_arg_properties_t args[2] = {};
    args[0].stype = args[1].stype = UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES;
    args[0].type = UR_EXP_KERNEL_ARG_TYPE_POINTER;
    args[0].index = 0;
    args[0].size = sizeof(out);
    args[0].value.pointer = out;
    args[1].type = UR_EXP_KERNEL_ARG_TYPE_VALUE;
    args[1].index = 1;
    args[1].size = sizeof(int);
    args[1].value.value = &value;
    const size_t global = 64, local = 64;
    for (int i = 0; i < n; ++i)
      ur.check(urEnqueueKernelLaunchWithArgsExp(ur.queue, kernel, 1, nullptr, &global, &local, 2, args, nullptr, 0,
                                                nullptr, nullptr),
               "urEnqueueKernelLaunchWithArgsExp");
  }
  void finish() { ur.check(urQueueFinish(ur.queue), "urQueueFinish"); }
};
#endif

// The hand-written sequence: set arguments, set group size, append the launch on an immediate command list.
struct Raw {
  zeal::test::ZeLaunchObjects ze;
  ze_kernel_handle_t kernel = nullptr;
  int *out = nullptr;

  void create(const std::vector<uint8_t> &spirv) {
    check(ze.open(spirv, 1));
    check(zeal::test::create_kernel(ze.module, "tiny", kernel), "zeKernelCreate");
    ze_host_mem_alloc_desc_t hd{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
    check(zeMemAllocHost(ze.context, &hd, sizeof(int), 64, reinterpret_cast<void **>(&out)), "zeMemAllocHost");
  }
  void launches(int n, int value) {
    const ze_group_count_t groups{1, 1, 1};
    for (int i = 0; i < n; ++i) {
      zeKernelSetArgumentValue(kernel, 0, sizeof(out), &out);
      zeKernelSetArgumentValue(kernel, 1, sizeof(int), &value);
      zeKernelSetGroupSize(kernel, 64, 1, 1);
      zeCommandListAppendLaunchKernel(ze.list, kernel, &groups, nullptr, 0, nullptr);
    }
  }
  // Not timed: a barrier signalling an event marks the end of the batch.
  void finish() {
    ze_event_handle_t done = ze.events[0];
    check(zeEventHostReset(done), "zeEventHostReset");
    check(zeCommandListAppendBarrier(ze.list, done, 0, nullptr), "zeCommandListAppendBarrier");
    check(zeEventHostSynchronize(done, UINT64_MAX), "zeEventHostSynchronize");
  }
};

// CUDA's own path for the same kernel: the Level Zero module's native binary (zeal's PTX) loaded into the device's
// primary context, launched with cuLaunchKernel on a stream of its own with the arguments zeal's launch passes (the
// kernel's two, then the hidden global offset and dimensions, and the 32 reserved bytes of dynamic shared memory).
struct CudaDirect {
  std::unique_ptr<zeal::cuda::CudaLibrary> library;
  const zeal::cuda::DriverApi *api = nullptr;
  zeal::cuda::CUstream stream = nullptr;
  zeal::cuda::CUfunction function = nullptr;
  int *out = nullptr;
  uint64_t offset[3] = {0, 0, 0};
  uint32_t dims = 1;

  void cu(int r, const char *call) {
    if (r != zeal::cuda::CUDA_SUCCESS) die(fmt::format("{} failed: CUDA error {}", call, r));
  }
  // False when the Level Zero device is not zeal's CUDA one (then there is nothing to pair with).
  bool create(const Raw &raw) {
    auto props = zeal::ze_desc<ze_device_properties_t>();
    check(zeDeviceGetProperties(raw.ze.device, &props), "zeDeviceGetProperties");
    if (props.vendorId != 0x10de) return false;
    size_t size = 0;
    check(zeModuleGetNativeBinary(raw.ze.module, &size, nullptr), "zeModuleGetNativeBinary");
    std::vector<uint8_t> ptx(size);
    check(zeModuleGetNativeBinary(raw.ze.module, &size, ptx.data()), "zeModuleGetNativeBinary");
    zeal::cuda::Opened opened = zeal::cuda::open_cuda();
    if (opened.library == nullptr) die(opened.why);
    library = std::move(opened.library);
    api = &library->api();
    zeal::cuda::CUdevice device = 0;
    zeal::cuda::CUcontext context = nullptr;
    cu(api->cuInit(0), "cuInit");
    cu(api->cuDeviceGet(&device, 0), "cuDeviceGet");
    cu(api->cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
    cu(api->cuCtxSetCurrent(context), "cuCtxSetCurrent");
    cu(api->cuStreamCreate(&stream, zeal::cuda::CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    zeal::cuda::CUmodule module = nullptr;
    cu(api->cuModuleLoadDataEx(&module, ptx.data(), 0, nullptr, nullptr), "cuModuleLoadDataEx");
    cu(api->cuModuleGetFunction(&function, module, "tiny"), "cuModuleGetFunction");
    out = raw.out;
    return true;
  }
  void launches(int n, int value) {
    void *params[] = {&out, &value, &offset[0], &offset[1], &offset[2], &dims};
    for (int i = 0; i < n; ++i)
      cu(api->cuLaunchKernel(function, 1, 1, 1, 64, 1, 1, 32, stream, params, nullptr), "cuLaunchKernel");
  }
  void finish() { cu(api->cuStreamSynchronize(stream), "cuStreamSynchronize"); }
};

// The driver work the adapter asks for on an in-order queue, by hand: each launch
// signals an event and waits for the previous launch's. Separates the adapter's
// own code from the cost of in-order chaining in the driver (API 1.4 has no
// in-order command lists, so the adapter must chain with events).
struct RawChained : Raw {
  static constexpr uint32_t kRing = 128;
  ze_event_pool_handle_t ring_pool = nullptr;
  std::vector<ze_event_handle_t> ring;
  uint64_t next = 0;

  void create(const std::vector<uint8_t> &spirv) {
    Raw::create(spirv);
    ring.resize(kRing);
    check(zeal::test::create_host_events(ze.context, ring_pool, ring));
  }
  void launches(int n, int value) {
    const ze_group_count_t groups{1, 1, 1};
    for (int k = 0; k < n; ++k, ++next) {
      ze_event_handle_t signal = ring[next % kRing], previous = ring[(next + kRing - 1) % kRing];
      // The slot's last user is complete once the launch that waited for it is.
      if (next >= kRing - 1) zeEventHostSynchronize(ring[(next + 1) % kRing], UINT64_MAX);
      if (next >= kRing) zeEventHostReset(signal);
      zeKernelSetArgumentValue(kernel, 0, sizeof(out), &out);
      zeKernelSetArgumentValue(kernel, 1, sizeof(int), &value);
      zeKernelSetGroupSize(kernel, 64, 1, 1);
      zeCommandListAppendLaunchKernel(ze.list, kernel, &groups, signal, next == 0 ? 0 : 1,
                                      next == 0 ? nullptr : &previous);
    }
  }
};

template <class Launcher>
double ns_per_launch(Launcher &l, int value) {
  auto start = Clock::now();
  l.launches(kBatch, value);
  auto took = Clock::now() - start;
  l.finish();
  return std::chrono::duration<double, std::nano>(took).count() / kBatch;
}

template <class Launcher>
std::pair<double, double> allocations_per_launch(Launcher &l) {
  zeal::test::AllocationCounts counts = zeal::test::count_allocations([&] { l.launches(kBatch, 1); });
  l.finish();
  return {static_cast<double>(counts.all) / kBatch, static_cast<double>(counts.adapter) / kBatch};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

} // namespace

int main() {
  const auto spirv = read_spirv();
  Adapter adapter;
  adapter.create(spirv); // initialises Level Zero with the CPU driver beside the adapter
  Raw raw;
  raw.create(spirv);
  RawChained chained;
  chained.create(spirv);
#ifdef ZEAL_BENCH_UR
  UrFace ur;
  ur.create(spirv);
#endif
  CudaDirect cuda;
  const bool on_cuda = cuda.create(raw);
  for (int i = 0; i < 3; ++i) { // warm all: JIT'd kernel, event pools, free lists
    ns_per_launch(adapter, i);
    ns_per_launch(raw, i);
    ns_per_launch(chained, i);
    if (on_cuda) ns_per_launch(cuda, i);
#ifdef ZEAL_BENCH_UR
    ns_per_launch(ur, i);
#endif
  }
  std::vector<double> a, h, c, added, added_over_chained, u, ur_added, k, zeal_over_cuda, ur_over_cuda;
  for (int r = 0; r < kRounds; ++r) { // interleaved, so drifts of these shared machines hit all alike
    a.push_back(ns_per_launch(adapter, r));
    h.push_back(ns_per_launch(raw, r));
    c.push_back(ns_per_launch(chained, r));
    added.push_back(a.back() - h.back());
    added_over_chained.push_back(a.back() - c.back());
#ifdef ZEAL_BENCH_UR
    u.push_back(ns_per_launch(ur, r));
    ur_added.push_back(u.back() - a.back());
#endif
    if (on_cuda) {
      k.push_back(ns_per_launch(cuda, r));
      zeal_over_cuda.push_back(a.back() - k.back());
      if (!u.empty()) ur_over_cuda.push_back(u.back() - k.back());
    }
  }
  auto [adapter_all, adapter_own] = allocations_per_launch(adapter);
  auto [raw_all, raw_own] = allocations_per_launch(raw);
  auto [chained_all, chained_own] = allocations_per_launch(chained);
  (void)raw_own;
  (void)chained_own;
  std::printf("bench_adapter_launch: median of %d interleaved rounds of %d launches (64 work-items, 2 arguments)\n",
              kRounds, kBatch);
  std::printf("%-30s %10s %12s %16s %12s %14s\n", "", "adapter", "raw L0", "raw L0+chaining", "added",
              "added over chained");
  std::printf("%-30s %7.2f us %9.2f us %13.2f us %9.2f us %11.2f us   (target added <= 0.5 us)\n",
              "host time per launch", median(a) / 1000, median(h) / 1000, median(c) / 1000, median(added) / 1000,
              median(added_over_chained) / 1000);
  std::printf("%-30s %10.3f %12.3f %16.3f %12.3f %14.3f   (allocations by adapter code: %.3f, target 0)\n",
              "heap allocations per launch", adapter_all, raw_all, chained_all, adapter_all - raw_all,
              adapter_all - chained_all, adapter_own);
#ifdef ZEAL_BENCH_UR
  auto [ur_all, ur_own] = allocations_per_launch(ur);
  std::printf("\nthrough UR's loader and zeal's UR face (urEnqueueKernelLaunchWithArgsExp), same rounds:\n");
  std::printf("%-30s %7.2f us, %.2f us over the zeal ABI (paired median; target <= 0.2 us)\n", "host time per launch",
              median(u) / 1000, median(ur_added) / 1000);
  std::printf("%-30s %10.3f   (allocations by zeal's adapter code: %.3f, target 0)\n", "heap allocations per launch",
              ur_all, ur_own);
#else
  std::printf("\n(no UR SDK at configure time: the UR face is not measured)\n");
#endif
  if (on_cuda) {
    std::printf("\nagainst cuLaunchKernel of the same PTX on the same device, same rounds (target added <= 2 us):\n");
    std::printf("%-30s %7.2f us; the zeal ABI adds %.2f us", "cuLaunchKernel per launch", median(k) / 1000,
                median(zeal_over_cuda) / 1000);
    if (!ur_over_cuda.empty()) std::printf(", the UR face %.2f us", median(ur_over_cuda) / 1000);
    std::printf(" (paired medians)\n");
  }
  return 0;
}
