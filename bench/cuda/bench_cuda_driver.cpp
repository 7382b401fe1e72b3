// zeal's CUDA driver against CUDA's own path on the same card (issue 49): the same PTX (the module's native
// binary) launched through Level Zero and with cuLaunchKernel, alternating, in one run. Figures: STREAM triad
// and copy bandwidth, a sub-group reduction's bandwidth against the copy's, the host time of an empty launch, and
// the time of a first and a second build of a module. Medians of the rounds; ratio = median of per-round ratios.
#include "cuda_driver/cuda_api.hpp"
#include "tests/support/ze_setup.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using zeal::cuda::CUDA_SUCCESS;
using clock_type = std::chrono::steady_clock;

[[noreturn]] void fail(const std::string &what) { throw std::runtime_error(what); }
void ze(ze_result_t r, const char *call) {
  if (r != ZE_RESULT_SUCCESS) fail(std::string(call) + " failed: " + std::to_string(unsigned(r)));
}
void cu(int r, const char *call) {
  if (r != CUDA_SUCCESS) fail(std::string(call) + " failed: CUDA error " + std::to_string(r));
}
double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}
double paired_ratio(const std::vector<double> &zeal_times, const std::vector<double> &cuda_times) {
  std::vector<double> r;
  for (size_t i = 0; i < zeal_times.size(); ++i) r.push_back(cuda_times[i] / zeal_times[i]); // speed ratio
  return median(r);
}
std::vector<uint8_t> read_spirv(const char *stem) {
  std::string path = std::string(ZEAL_BENCH_KERNEL_DIR) + "/" + stem + ".spv";
  if (const char *dir = std::getenv("ZEAL_TEST_KERNEL_DIR")) path = std::string(dir) + "/" + stem + ".spv";
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot open " + path);
  return {std::istreambuf_iterator<char>(in), {}};
}

// The Level Zero side: zeal's CUDA driver, an immediate list and one event to wait with.
struct Zeal : zeal::test::ZeDeviceContext {
  ze_command_list_handle_t list = nullptr;
  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t done = nullptr;

  void open() {
    const char *path = std::getenv("ZEAL_CUDA_DRIVER");
    ze(zeal::test::init_with_driver(path != nullptr ? path : ZEAL_CUDA_DRIVER_FILE, zeal::test::AltDrivers::always),
       "zeInit");
    zeal::test::ZeCall opened = open_device();
    ze(opened.result, opened.name);
    ze(zeal::test::create_immediate_list(context, device, list), "zeCommandListCreateImmediate");
    ze(zeal::test::create_host_event_pool(context, 1, pool), "zeEventPoolCreate");
    ze(zeal::test::create_host_event(pool, 0, done), "zeEventCreate");
  }
  ze_module_handle_t module(const char *stem) {
    std::vector<uint8_t> spirv = read_spirv(stem);
    ze_module_handle_t m = nullptr;
    ze(zeal::test::create_module(context, device, spirv, m), "zeModuleCreate");
    return m;
  }
  ze_kernel_handle_t kernel(ze_module_handle_t m, const char *name, uint32_t group) {
    ze_kernel_handle_t k = nullptr;
    ze(zeal::test::create_kernel(m, name, k), "zeKernelCreate");
    ze(zeKernelSetGroupSize(k, group, 1, 1), "zeKernelSetGroupSize");
    return k;
  }
  void *memory(size_t bytes) {
    void *p = nullptr;
    auto desc = zeal::ze_desc<ze_device_mem_alloc_desc_t>();
    ze(zeMemAllocDevice(context, &desc, bytes, 0, device, &p), "zeMemAllocDevice");
    return p;
  }
  // One launch, waited for on the host: seconds.
  double run(ze_kernel_handle_t k, uint32_t groups) {
    ze_group_count_t count{groups, 1, 1};
    auto start = clock_type::now();
    ze(zeCommandListAppendLaunchKernel(list, k, &count, done, 0, nullptr), "zeCommandListAppendLaunchKernel");
    ze(zeEventHostSynchronize(done, UINT64_MAX), "zeEventHostSynchronize");
    double t = seconds_since(start);
    ze(zeEventHostReset(done), "zeEventHostReset");
    return t;
  }
};

// The CUDA side: the same device's primary context (the one zeal's driver uses), a stream, the module's PTX.
struct Cuda {
  std::unique_ptr<zeal::cuda::CudaLibrary> library;
  const zeal::cuda::DriverApi *api = nullptr;
  zeal::cuda::CUcontext context = nullptr;
  zeal::cuda::CUstream stream = nullptr;

  void open() {
    zeal::cuda::Opened opened = zeal::cuda::open_cuda();
    if (opened.library == nullptr) fail(opened.why);
    library = std::move(opened.library);
    api = &library->api();
    cu(api->cuInit(0), "cuInit");
    zeal::cuda::CUdevice device = 0;
    cu(api->cuDeviceGet(&device, 0), "cuDeviceGet");
    cu(api->cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
    cu(api->cuCtxSetCurrent(context), "cuCtxSetCurrent");
    cu(api->cuStreamCreate(&stream, zeal::cuda::CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  }
  zeal::cuda::CUfunction function(ze_module_handle_t m, const char *name) {
    size_t size = 0;
    ze(zeModuleGetNativeBinary(m, &size, nullptr), "zeModuleGetNativeBinary");
    std::vector<uint8_t> ptx(size);
    ze(zeModuleGetNativeBinary(m, &size, ptx.data()), "zeModuleGetNativeBinary");
    zeal::cuda::CUmodule module = nullptr;
    cu(api->cuModuleLoadDataEx(&module, ptx.data(), 0, nullptr, nullptr), "cuModuleLoadDataEx");
    zeal::cuda::CUfunction f = nullptr;
    cu(api->cuModuleGetFunction(&f, module, name), "cuModuleGetFunction");
    return f;
  }
  void launch(zeal::cuda::CUfunction f, uint32_t groups, uint32_t group, void **params) {
    cu(api->cuLaunchKernel(f, groups, 1, 1, group, 1, 1, 0, stream, params, nullptr), "cuLaunchKernel");
  }
  double run(zeal::cuda::CUfunction f, uint32_t groups, uint32_t group, void **params) {
    auto start = clock_type::now();
    launch(f, groups, group, params);
    cu(api->cuStreamSynchronize(stream), "cuStreamSynchronize");
    return seconds_since(start);
  }
};

// The hidden parameters zeal's PTX entries end with (ptx_compiler.hpp): global offset x, y, z and work dimensions.
struct Hidden {
  uint64_t offset[3] = {0, 0, 0};
  uint32_t dims = 1;
};

void row(const char *what, const char *unit, double zeal_value, double cuda_value, double ratio) {
  std::printf("%-44s %10.1f %10.1f  %-6s  %.3f\n", what, zeal_value, cuda_value, unit, ratio);
}

void bandwidth(Zeal &z, Cuda &c, int rounds) {
  constexpr uint32_t n = 256u << 20, group = 256; // 256 Mi floats: 1 GiB per array
  float *a = static_cast<float *>(z.memory(size_t(n) * 4)), *b = static_cast<float *>(z.memory(size_t(n) * 4));
  float *cc = static_cast<float *>(z.memory(size_t(n) * 4));
  const float zero = 0, one = 1;
  ze(zeCommandListAppendMemoryFill(z.list, b, &one, 4, size_t(n) * 4, nullptr, 0, nullptr), "fill");
  ze(zeCommandListAppendMemoryFill(z.list, cc, &zero, 4, size_t(n) * 4, nullptr, 0, nullptr), "fill");
  ze_module_handle_t m = z.module("stream");
  float s = 3;
  ze_kernel_handle_t triad = z.kernel(m, "triad", group), copy = z.kernel(m, "copy", group);
  for (auto [i, p] : {std::pair{0u, (void *)&a}, {1u, (void *)&b}, {2u, (void *)&cc}})
    ze(zeKernelSetArgumentValue(triad, i, 8, p), "zeKernelSetArgumentValue");
  ze(zeKernelSetArgumentValue(triad, 3, 4, &s), "zeKernelSetArgumentValue");
  ze(zeKernelSetArgumentValue(copy, 0, 8, &a), "zeKernelSetArgumentValue");
  ze(zeKernelSetArgumentValue(copy, 1, 8, &b), "zeKernelSetArgumentValue");
  zeal::cuda::CUfunction cu_triad = c.function(m, "triad"), cu_copy = c.function(m, "copy");
  Hidden hidden;
  void *triad_params[] = {&a, &b, &cc, &s, &hidden.offset[0], &hidden.offset[1], &hidden.offset[2], &hidden.dims};
  void *copy_params[] = {&a, &b, &hidden.offset[0], &hidden.offset[1], &hidden.offset[2], &hidden.dims};
  std::vector<double> zt, ct, zc, cc_times;
  z.run(triad, n / group), c.run(cu_triad, n / group, group, triad_params); // warm-up: JIT, first touch
  z.run(copy, n / group), c.run(cu_copy, n / group, group, copy_params);
  for (int r = 0; r < rounds; ++r) {
    zt.push_back(z.run(triad, n / group));
    ct.push_back(c.run(cu_triad, n / group, group, triad_params));
    zc.push_back(z.run(copy, n / group));
    cc_times.push_back(c.run(cu_copy, n / group, group, copy_params));
  }
  auto gbs = [](double bytes, double t) { return bytes / t / 1e9; };
  row("STREAM triad, 256 Mi floats", "GB/s", gbs(3.0 * n * 4, median(zt)), gbs(3.0 * n * 4, median(ct)),
      paired_ratio(zt, ct));
  row("copy kernel, 256 Mi floats", "GB/s", gbs(2.0 * n * 4, median(zc)), gbs(2.0 * n * 4, median(cc_times)),
      paired_ratio(zc, cc_times));

  // The sub-group reduction reads n floats and writes n / 32: against the copy's bandwidth, through zeal both.
  ze_module_handle_t sm = nullptr;
  std::vector<uint8_t> spirv = read_spirv("subgroup_sum");
  if (zeal::test::create_module(z.context, z.device, spirv, sm) != ZE_RESULT_SUCCESS) {
    std::printf("sub-group reduction: the module does not build on this driver yet\n");
  } else {
    ze_kernel_handle_t sum = z.kernel(sm, "subgroup_sum", group);
    ze(zeKernelSetArgumentValue(sum, 0, 8, &b), "zeKernelSetArgumentValue");
    ze(zeKernelSetArgumentValue(sum, 1, 8, &a), "zeKernelSetArgumentValue");
    std::vector<double> st;
    z.run(sum, n / group);
    for (int r = 0; r < rounds; ++r) st.push_back(z.run(sum, n / group));
    double sum_gbs = gbs(n * 4.0 * (1 + 1.0 / 32), median(st)), copy_gbs = gbs(2.0 * n * 4, median(zc));
    std::printf("%-44s %10.1f %10.1f  %-6s  %.3f  (zeal's copy kernel in the CUDA column)\n",
                "sub-group reduction (sub_group_reduce_add)", sum_gbs, copy_gbs, "GB/s", sum_gbs / copy_gbs);
  }
  for (void *p : {(void *)a, (void *)b, (void *)cc}) zeMemFree(z.context, p);
}

// Images (pixels in device memory, read and written through the image library the back end links in): each kernel's
// bytes read and written per second, against zeal's buffer copy kernel moving as many bytes in the same rounds.
void images(Zeal &z, int rounds) {
  // 8192 x 8192 pixels (256 MiB of RGBA8, 512 MiB of RGBA16F); groups of 32 x 8 work-items (a warp a row),
  // or ZEAL_BENCH_IMAGE_GROUP=WxH.
  constexpr uint32_t side = 8192;
  uint32_t gx = 32, gy = 8;
  if (const char *g = std::getenv("ZEAL_BENCH_IMAGE_GROUP")) std::sscanf(g, "%ux%u", &gx, &gy);
  ze_module_handle_t im = nullptr, sm = z.module("stream");
  std::vector<uint8_t> spirv = read_spirv("image_bench");
  if (zeal::test::create_module(z.context, z.device, spirv, im) != ZE_RESULT_SUCCESS) {
    std::printf("images: the module does not build on this driver\n");
    return;
  }
  auto image = [&](ze_image_format_layout_t layout, ze_image_format_type_t type) {
    auto desc = zeal::ze_desc<ze_image_desc_t>();
    desc.flags = ZE_IMAGE_FLAG_KERNEL_WRITE;
    desc.type = ZE_IMAGE_TYPE_2D;
    desc.format = {layout, type, ZE_IMAGE_FORMAT_SWIZZLE_R, ZE_IMAGE_FORMAT_SWIZZLE_G, ZE_IMAGE_FORMAT_SWIZZLE_B,
                   ZE_IMAGE_FORMAT_SWIZZLE_A};
    desc.width = side;
    desc.height = side;
    ze_image_handle_t h = nullptr;
    ze(zeImageCreate(z.context, z.device, &desc, &h), "zeImageCreate");
    return h;
  };
  auto sdesc = zeal::ze_desc<ze_sampler_desc_t>();
  sdesc.addressMode = ZE_SAMPLER_ADDRESS_MODE_CLAMP;
  sdesc.filterMode = ZE_SAMPLER_FILTER_MODE_LINEAR;
  sdesc.isNormalized = true;
  ze_sampler_handle_t linear = nullptr;
  ze(zeSamplerCreate(z.context, z.device, &sdesc, &linear), "zeSamplerCreate");
  struct Case {
    const char *what, *kernel;
    ze_image_format_layout_t layout;
    ze_image_format_type_t type;
    uint32_t pixel_bytes;
    bool sampled;
  };
  const Case cases[] = {
      {"image copy, RGBA8 unorm (inline path)", "copy_rgba8", ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8,
       ZE_IMAGE_FORMAT_TYPE_UNORM, 4, false},
      {"image copy, RGBA16F (library)", "copy_rgba16f", ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16, ZE_IMAGE_FORMAT_TYPE_FLOAT,
       8, false},
      {"bilinear resample, RGBA8 (library)", "resample", ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM, 4,
       true},
  };
  for (const Case &c : cases) {
    const size_t bytes = size_t(side) * side * c.pixel_bytes;
    ze_image_handle_t src = image(c.layout, c.type), dst = image(c.layout, c.type);
    ze_kernel_handle_t k = nullptr;
    ze(zeal::test::create_kernel(im, c.kernel, k), "zeKernelCreate");
    ze(zeKernelSetGroupSize(k, gx, gy, 1), "zeKernelSetGroupSize");
    uint32_t arg = 0;
    ze(zeKernelSetArgumentValue(k, arg++, sizeof src, &src), "zeKernelSetArgumentValue");
    if (c.sampled) ze(zeKernelSetArgumentValue(k, arg++, sizeof linear, &linear), "zeKernelSetArgumentValue");
    ze(zeKernelSetArgumentValue(k, arg++, sizeof dst, &dst), "zeKernelSetArgumentValue");
    // The buffer copy of the same bytes, as floats.
    void *a = z.memory(bytes), *b = z.memory(bytes);
    ze_kernel_handle_t copy = z.kernel(sm, "copy", 256);
    ze(zeKernelSetArgumentValue(copy, 0, 8, &a), "zeKernelSetArgumentValue");
    ze(zeKernelSetArgumentValue(copy, 1, 8, &b), "zeKernelSetArgumentValue");
    auto run_image = [&] {
      ze_group_count_t count{side / gx, side / gy, 1};
      auto start = clock_type::now();
      ze(zeCommandListAppendLaunchKernel(z.list, k, &count, z.done, 0, nullptr), "zeCommandListAppendLaunchKernel");
      ze(zeEventHostSynchronize(z.done, UINT64_MAX), "zeEventHostSynchronize");
      double t = seconds_since(start);
      ze(zeEventHostReset(z.done), "zeEventHostReset");
      return t;
    };
    const uint32_t copy_groups = uint32_t(bytes / 4 / 256);
    run_image(), z.run(copy, copy_groups); // warm-up
    std::vector<double> it, ct;
    for (int r = 0; r < rounds; ++r) {
      it.push_back(run_image());
      ct.push_back(z.run(copy, copy_groups));
    }
    auto gbs = [&](double t) { return 2.0 * double(bytes) / t / 1e9; };
    std::printf("%-44s %10.1f %10.1f  %-6s  %.3f  (zeal's buffer copy of the same bytes in the CUDA column)\n",
                c.what, gbs(median(it)), gbs(median(ct)), "GB/s", paired_ratio(it, ct));
    zeKernelDestroy(k);
    zeKernelDestroy(copy);
    zeImageDestroy(src);
    zeImageDestroy(dst);
    zeMemFree(z.context, a);
    zeMemFree(z.context, b);
  }
  zeSamplerDestroy(linear);
}

void launch_overhead(Zeal &z, Cuda &c, int rounds) {
  ze_module_handle_t m = z.module("stream");
  ze_kernel_handle_t empty = z.kernel(m, "empty", 32);
  zeal::cuda::CUfunction cu_empty = c.function(m, "empty");
  Hidden hidden;
  void *params[] = {&hidden.offset[0], &hidden.offset[1], &hidden.offset[2], &hidden.dims};
  constexpr int launches = 100000;
  ze_group_count_t one{1, 1, 1};
  std::vector<double> zt, ct;
  for (int r = 0; r < rounds; ++r) {
    auto start = clock_type::now();
    for (int i = 0; i < launches; ++i)
      ze(zeCommandListAppendLaunchKernel(z.list, empty, &one, nullptr, 0, nullptr), "zeCommandListAppendLaunchKernel");
    zt.push_back(seconds_since(start) / launches);
    z.run(empty, 1);
    start = clock_type::now();
    for (int i = 0; i < launches; ++i) c.launch(cu_empty, 1, 32, params);
    ct.push_back(seconds_since(start) / launches);
    cu(c.api->cuStreamSynchronize(c.stream), "cuStreamSynchronize");
  }
  row("empty launch, host time (100,000 in a row)", "us", median(zt) * 1e6, median(ct) * 1e6, paired_ratio(zt, ct));
  std::printf("%-44s %10.2f us more than cuLaunchKernel\n", "", (median(zt) - median(ct)) * 1e6);
}

// What an in-order chain of Level Zero events costs on CUDA's side: the host time of the stream operations an event
// could be signalled with, against the launch itself (100,000 of each in a row, as the launch row).
void signal_costs(Zeal &z, Cuda &c, int rounds) {
  ze_module_handle_t m = z.module("stream");
  zeal::cuda::CUfunction cu_empty = c.function(m, "empty");
  Hidden hidden;
  void *params[] = {&hidden.offset[0], &hidden.offset[1], &hidden.offset[2], &hidden.dims};
  uint32_t *word = nullptr;
  cu(c.api->cuMemHostAlloc(reinterpret_cast<void **>(&word), 64,
                           zeal::cuda::CU_MEMHOSTALLOC_PORTABLE | zeal::cuda::CU_MEMHOSTALLOC_DEVICEMAP),
     "cuMemHostAlloc");
  zeal::cuda::CUevent event = nullptr;
  cu(c.api->cuEventCreate(&event, zeal::cuda::CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  constexpr int n = 100000;
  std::vector<double> launch, write, record;
  for (int r = 0; r < rounds; ++r) {
    auto start = clock_type::now();
    for (int i = 0; i < n; ++i) c.launch(cu_empty, 1, 32, params);
    launch.push_back(seconds_since(start) / n);
    cu(c.api->cuStreamSynchronize(c.stream), "cuStreamSynchronize");
    start = clock_type::now();
    for (int i = 0; i < n; ++i)
      cu(c.api->cuStreamWriteValue32_v2(c.stream, zeal::cuda::CUdeviceptr(word), unsigned(i), 0), "cuStreamWriteValue32");
    write.push_back(seconds_since(start) / n);
    cu(c.api->cuStreamSynchronize(c.stream), "cuStreamSynchronize");
    start = clock_type::now();
    for (int i = 0; i < n; ++i) cu(c.api->cuEventRecord(event, c.stream), "cuEventRecord");
    record.push_back(seconds_since(start) / n);
    cu(c.api->cuStreamSynchronize(c.stream), "cuStreamSynchronize");
  }
  std::printf("%-44s %10.2f us\n", "host time of cuLaunchKernel (empty)", median(launch) * 1e6);
  std::printf("%-44s %10.2f us\n", "host time of cuStreamWriteValue32", median(write) * 1e6);
  std::printf("%-44s %10.2f us\n", "host time of cuEventRecord", median(record) * 1e6);
  int pageable = 0;
  c.api->cuDeviceGetAttribute(&pageable, 88, 0); // CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS
  std::printf("%-44s %10d\n", "device accesses pageable host memory", pageable);
  c.api->cuEventDestroy_v2(event);
  c.api->cuMemFreeHost(word);
}

void builds(Zeal &z) {
  std::vector<uint8_t> spirv = read_spirv("stream");
  for (const char *which : {"first", "second"}) {
    ze_module_handle_t m = nullptr;
    auto start = clock_type::now();
    ze(zeal::test::create_module(z.context, z.device, spirv, m), "zeModuleCreate");
    std::printf("%-44s %10.1f ms\n", (std::string("build of stream.spv, ") + which).c_str(),
                seconds_since(start) * 1e3);
    zeModuleDestroy(m);
  }
}

} // namespace

int main(int argc, char **argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 20;
  try {
    Zeal z;
    Cuda c;
    c.open();
    z.open();
    auto p = zeal::ze_desc<ze_device_properties_t>();
    ze(zeDeviceGetProperties(z.device, &p), "zeDeviceGetProperties");
    std::printf("zeal CUDA driver vs the same PTX through cuLaunchKernel on %s; %d alternating rounds\n", p.name, rounds);
    std::printf("%-44s %10s %10s  %-6s  %s\n", "", "zeal", "CUDA", "unit", "ratio (zeal speed / CUDA)");
    builds(z);
    bandwidth(z, c, rounds);
    images(z, std::max(3, rounds / 2));
    launch_overhead(z, c, std::max(3, rounds / 4));
    signal_costs(z, c, std::max(3, rounds / 4));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_cuda_driver: %s\n", e.what());
    return 1;
  }
  return 0;
}
