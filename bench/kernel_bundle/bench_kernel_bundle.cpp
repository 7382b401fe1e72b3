// Benchmarks of kernel_bundle: warm get_kernel_bundle<executable> and queue::get_kernel, import resolution
// across 1,000 images, and the time to the first results of a 50-kernel image with the persistent cache
// off, on and empty, on and warm.
#include "kernel_bundle/resolver.hpp"

#include <zeal/zeal.hpp>
#include <zeal/zeal_device_image.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

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

// Time to the first result, in a process of its own (the cache settings are
// read once per process): builds the 50-kernel image, launches `kernels` of its
// kernels one after the other, waiting for each and checking its output.
// Prints the milliseconds from the first zeal call to the last result.
int first_results(int kernels) {
  auto t0 = Clock::now();
  zeal::queue q;
  constexpr size_t n = 1024;
  float *a = zeal::malloc_shared<float>(n, q), *b = zeal::malloc_shared<float>(n, q);
  for (int k = 0; k < kernels; ++k) {
    for (size_t i = 0; i < n; ++i) {
      a[i] = 1.0f;
      b[i] = 4.0f;
    }
    q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("fifty_" + std::to_string(k)), a, b, 2.0f).wait();
    for (size_t i = 0; i < n; ++i)
      if (a[i] != 4.0f + float(k)) {
        std::fprintf(stderr, "bench_kernel_bundle: fifty_%d computed %g at %zu, not %g\n", k, a[i], i, 4.0 + k);
        return 1;
      }
  }
  double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  zeal::free(a, q);
  zeal::free(b, q);
  std::printf("%.3f\n", ms);
  return 0;
}

// Runs this program as `--first-results N` with the cache on or off, and returns what it printed.
// The children inherit ZEAL_CACHE_DIR, the folder `dir` of bench_first_results.
double first_results_in_child(int kernels, bool cache_on) {
  std::string command = fmt::format("ZEAL_CACHE_PERSISTENT={} /proc/{}/exe --first-results {}", cache_on ? 1 : 0,
                                    getpid(), kernels);
  FILE *child = popen(command.c_str(), "r");
  double ms = -1;
  if (child == nullptr || std::fscanf(child, "%lf", &ms) != 1) ms = -1;
  if (child != nullptr && pclose(child) != 0) ms = -1;
  if (ms < 0) {
    std::fprintf(stderr, "bench_kernel_bundle: '%s' failed\n", command.c_str());
    std::exit(1);
  }
  return ms;
}

// Issue 26: the cache must cost nothing on the first run, and pay off on the next.
// Each round runs, in this order: cache off, cache on with an empty folder (1 kernel,
// then all 50), then on with the folder the 50-kernel run filled.
void bench_first_results(const std::filesystem::path &dir) {
  std::vector<double> off1, empty1, off50, empty50, warm50, warm1, r1, r50, rwarm;
  for (int round = 0; round < 7; ++round) {
    double o1 = first_results_in_child(1, false);
    std::filesystem::remove_all(dir);
    double e1 = first_results_in_child(1, true);
    double o50 = first_results_in_child(50, false);
    std::filesystem::remove_all(dir);
    double e50 = first_results_in_child(50, true);
    double w50 = first_results_in_child(50, true);
    double w1 = first_results_in_child(1, true);
    off1.push_back(o1);
    empty1.push_back(e1);
    off50.push_back(o50);
    empty50.push_back(e50);
    warm50.push_back(w50);
    warm1.push_back(w1);
    r1.push_back(e1 / o1);
    r50.push_back(e50 / o50);
    rwarm.push_back(e50 / w50);
  }
  std::filesystem::remove_all(dir);
  std::printf("time to the first result of a 50-kernel image, each in a new process (medians of 7 rounds):\n");
  std::printf("  %-56s %10.3f ms\n", "1 kernel, cache off", median(off1));
  std::printf("  %-56s %10.3f ms   (on/off = %.2fx, target <= 1.2x)\n", "1 kernel, cache on, empty", median(empty1),
              median(r1));
  std::printf("  %-56s %10.3f ms\n", "1 kernel, cache on, warm", median(warm1));
  std::printf("  %-56s %10.3f ms\n", "50 kernels, cache off", median(off50));
  std::printf("  %-56s %10.3f ms   (on/off = %.2fx, target <= 1.2x)\n", "50 kernels, cache on, empty", median(empty50),
              median(r50));
  std::printf("  %-56s %10.3f ms   (empty/warm = %.1fx, target >= 10x)\n", "50 kernels, cache on, warm",
              median(warm50), median(rwarm));
}

} // namespace

int main(int argc, char **argv) {
  try {
    if (argc == 3 && std::string_view(argv[1]) == "--first-results") return first_results(std::atoi(argv[2]));
    // A cache folder of the benchmark's own, set before zeal reads its settings (and inherited by its children).
    std::string dir =
        (std::filesystem::temp_directory_path() / ("zeal-bench-cache-" + std::to_string(getpid()))).string();
    setenv("ZEAL_CACHE_DIR", dir.c_str(), 1);
    setenv("ZEAL_CACHE_PERSISTENT", "1", 1);
    bench_resolution();
    bench_warm_bundle();
    bench_warm_get_kernel();
    bench_first_results(dir);
    return 0;
  } catch (const zeal::exception &e) {
    std::fprintf(stderr, "bench_kernel_bundle: %s\n", e.what());
    return 1;
  }
}
