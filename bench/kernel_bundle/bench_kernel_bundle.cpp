// Benchmarks of kernel_bundle: warm get_kernel_bundle<executable> and queue::get_kernel, import resolution
// across 1,000 images, persistent-cache hits.
#include "kernel_bundle/persistent_cache.hpp"
#include "kernel_bundle/resolver.hpp"

#include <zeal/zeal.hpp>
#include <zeal/zeal_device_image.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// 1,000 images in a chain of imports: image i exports f<i> and imports f<i+1>, so
// resolving image 0 walks all of them; each also exports 9 more symbols.
struct SyntheticImages {
  std::vector<std::string> kernels, exports, imports;
  std::vector<std::vector<zeal_metadata_entry_t>> metadata;
  std::vector<zeal_device_image_t> images;
  zeal_device_image_set_t set{};
  unsigned char bytes[4] = {0x03, 0x02, 0x23, 0x07};

  explicit SyntheticImages(int n) : kernels(n), exports(n), imports(n), metadata(n), images(n) {
    for (int i = 0; i < n; ++i) {
      kernels[i] = "bench_kernel_" + std::to_string(i);
      exports[i] = kernels[i] + ";f" + std::to_string(i);
      for (int k = 0; k < 9; ++k) exports[i] += ";g" + std::to_string(i) + "_" + std::to_string(k);
      imports[i] = i + 1 < n ? "f" + std::to_string(i + 1) : "";
      metadata[i] = {{ZEAL_METADATA_KERNELS, kernels[i].data(), kernels[i].size()},
                     {ZEAL_METADATA_EXPORTS, exports[i].data(), exports[i].size()},
                     {ZEAL_METADATA_IMPORTS, imports[i].data(), imports[i].size()}};
      images[i] = {ZEAL_PROGRAM_FORMAT_SPIRV, bytes, sizeof bytes, "synthetic.spv", 3, metadata[i].data()};
    }
    set = {ZEAL_DEVICE_IMAGE_VERSION, "bench", static_cast<uint32_t>(n), images.data()};
  }
};

void bench_resolution() {
  SyntheticImages synthetic(1000);
  zealRegisterDeviceImages(&synthetic.set);
  auto &registry = zeal::detail::ImageRegistry::instance();
  auto root = registry.find_kernel("bench_kernel_0");
  std::vector<double> ms;
  size_t found = 0;
  for (int round = 0; round < 21; ++round) {
    auto t0 = Clock::now();
    auto closure = zeal::detail::resolve_imports({root}, {}, registry);
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    found = closure.ok() ? closure.value().images.size() : 0;
  }
  zealUnregisterDeviceImages(&synthetic.set);
  std::printf("%-58s %10.3f ms   (target <= 1 ms; %zu images in the closure)\n",
              "resolve imports across 1,000 registered images (chain)", median(ms), found);
}

void bench_warm_bundle() {
  zeal::queue q;
  zeal::context ctx = q.get_context();
  std::vector<zeal::device> devs{q.get_device()};
  std::vector<zeal::kernel_id> ids{zeal::get_kernel_id("bench_noop")};
  (void)zeal::get_kernel_bundle<zeal::bundle_state::executable>(ctx, devs, ids); // cold
  std::vector<double> us;
  for (int round = 0; round < 2001; ++round) {
    auto t0 = Clock::now();
    auto bundle = zeal::get_kernel_bundle<zeal::bundle_state::executable>(ctx, devs, ids);
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  std::printf("%-58s %10.3f us   (target <= 2 us)\n", "warm get_kernel_bundle<executable> (in-memory cache)",
              median(us));
}

// The launch path's look-up: queue::get_kernel by id, warm, for a kernel whose image
// imports from another; a parallel_for by kernel_id pays this on every call.
void bench_warm_get_kernel() {
  zeal::queue q;
  zeal::kernel_id id = zeal::get_kernel_id("bench_caller");
  (void)q.get_kernel(id); // cold
  std::vector<double> us;
  for (int round = 0; round < 2001; ++round) {
    auto t0 = Clock::now();
    zeal::kernel k = q.get_kernel(id);
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  std::printf("%-58s %10.3f us\n", "warm queue::get_kernel (kernel importing from another image)", median(us));
}

// Builds the 50-kernel image in a fresh context (so the in-memory cache cannot
// answer) and returns the milliseconds get_kernel_bundle<executable> took.
double build_fifty_in_new_context() {
  zeal::device dev;
  zeal::context ctx(dev);
  std::vector<zeal::kernel_id> ids{zeal::get_kernel_id("fifty_0")};
  auto t0 = Clock::now();
  auto bundle = zeal::get_kernel_bundle<zeal::bundle_state::executable>(ctx, {dev}, ids);
  (void)bundle.get_kernel(ids.front());
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

void bench_persistent_hit() {
  const auto dir = zeal::detail::PersistentCache::default_directory();
  std::vector<double> cold, warm, ratios;
  for (int round = 0; round < 7; ++round) {
    std::filesystem::remove_all(dir);
    double c = build_fifty_in_new_context();
    double w = build_fifty_in_new_context();
    cold.push_back(c);
    warm.push_back(w);
    ratios.push_back(c / w);
  }
  std::filesystem::remove_all(dir);
  std::printf("%-58s %10.3f ms\n", "cold build of a 50-kernel image (empty persistent cache)", median(cold));
  std::printf("%-58s %10.3f ms   (cold / hit = %.1fx, target >= 20x)\n",
              "same image in a new context, persistent cache hit", median(warm), median(ratios));
}

} // namespace

int main() {
  // A cache folder of the benchmark's own, set before zeal reads its settings.
  std::string dir = (std::filesystem::temp_directory_path() / ("zeal-bench-cache-" + std::to_string(getpid()))).string();
  setenv("ZEAL_CACHE_DIR", dir.c_str(), 1);
  setenv("ZEAL_CACHE_PERSISTENT", "1", 1);
  try {
    bench_resolution();
    bench_warm_bundle();
    bench_warm_get_kernel();
    bench_persistent_hit();
    return 0;
  } catch (const zeal::exception &e) {
    std::fprintf(stderr, "bench_kernel_bundle: %s\n", e.what());
    return 1;
  }
}
