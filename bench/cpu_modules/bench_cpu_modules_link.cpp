// zeModuleDynamicLink of a chain of 4 and of 100 modules (fresh modules from native binaries each round), CPU driver.
#include "bench_support.hpp"

#include <cstring>

namespace {

// The chain modules c000 .. c(n-2) as native binaries: SPIR-V patched per index, built once.
std::vector<std::vector<uint8_t>> chain_blobs(bench::Ze &ze, int libraries) {
  auto patch = [](std::vector<uint8_t> spirv, int self, int next) {
    auto replace = [&](const char *from, int value) {
      std::string to = fmt::format("{:03}", value);
      for (size_t i = 0; i + 3 <= spirv.size(); ++i) {
        if (std::memcmp(&spirv[i], from, 3) == 0) std::memcpy(&spirv[i], to.data(), 3);
      }
    };
    replace("XXX", self);
    replace("YYY", next);
    return spirv;
  };
  std::string dir = ZEAL_BENCH_KERNEL_DIR;
  std::vector<uint8_t> link = bench::read_file(dir + "/chain_link.spv");
  std::vector<uint8_t> end = bench::read_file(dir + "/chain_end.spv");
  std::vector<std::vector<uint8_t>> blobs;
  ze_module_handle_t head = ze.module(bench::read_file(dir + "/chain_head.spv"), ZE_MODULE_FORMAT_IL_SPIRV);
  blobs.push_back(bench::Ze::native(head));
  zeModuleDestroy(head);
  for (int i = 0; i < libraries; ++i) {
    auto spirv = i + 1 < libraries ? patch(link, i, i + 1) : patch(end, i, 0);
    ze_module_handle_t m = ze.module(spirv, ZE_MODULE_FORMAT_IL_SPIRV, "-library-compilation");
    blobs.push_back(bench::Ze::native(m));
    zeModuleDestroy(m);
  }
  return blobs;
}

struct LinkTimes {
  double load_ms, link_ms, kernel_ms;
};

LinkTimes measure(bench::Ze &ze, const std::vector<std::vector<uint8_t>> &blobs, int rounds) {
  std::vector<double> load, link, kernel;
  for (int r = 0; r < rounds; ++r) {
    double t0 = bench::now_ms();
    std::vector<ze_module_handle_t> modules;
    for (const auto &blob : blobs) modules.push_back(ze.module(blob, ZE_MODULE_FORMAT_NATIVE));
    double t1 = bench::now_ms();
    bench::check(zeModuleDynamicLink(uint32_t(modules.size()), modules.data(), nullptr), "zeModuleDynamicLink");
    double t2 = bench::now_ms();
    bench::Ze::make_kernels(modules[0]);
    double t3 = bench::now_ms();
    load.push_back(t1 - t0);
    link.push_back(t2 - t1);
    kernel.push_back(t3 - t2);
    for (ze_module_handle_t m : modules) zeModuleDestroy(m);
  }
  return {bench::median(load), bench::median(link), bench::median(kernel)};
}

} // namespace

int main() {
  bench::Ze ze;
  fmt::print("zeModuleDynamicLink on the zeal CPU driver: a kernel module calling through a chain of libraries\n"
             "(each round links fresh modules loaded from native binaries; medians)\n\n");
  fmt::print("| modules | native loads (ms) | zeModuleDynamicLink (ms) | per module (µs) | zeKernelCreate after (ms) |\n");
  fmt::print("|---:|---:|---:|---:|---:|\n");
  for (auto [modules, rounds] : {std::pair{4, 41}, std::pair{100, 15}}) {
    auto blobs = chain_blobs(ze, modules - 1);
    LinkTimes t = measure(ze, blobs, rounds);
    fmt::print("| {} | {:.3f} | {:.3f} | {:.1f} | {:.3f} |\n", modules, t.load_ms, t.link_ms,
               1000 * t.link_ms / modules, t.kernel_ms);
  }
  return 0;
}
