// Benchmarks of kernel_bundle: warm get_kernel_bundle<executable>, and import resolution across 1,000 images.
#include "kernel_bundle/resolver.hpp"

#include <zeal/zeal.hpp>
#include <zeal/zeal_device_image.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
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

} // namespace

int main() {
  try {
    bench_resolution();
    bench_warm_bundle();
    return 0;
  } catch (const zeal::exception &e) {
    std::fprintf(stderr, "bench_kernel_bundle: %s\n", e.what());
    return 1;
  }
}
