// Shared by the cpu_modules benchmarks: timing, medians, files, and the CPU driver through the Level Zero loader.
#pragma once

#include "tests/support/ze_setup.hpp"

#include <fmt/format.h>
#include <level_zero/ze_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace bench {

inline double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

inline std::vector<uint8_t> read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    fmt::print(stderr, "cannot read {}\n", path);
    std::exit(1);
  }
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void check(ze_result_t r, const char *what) {
  if (r == ZE_RESULT_SUCCESS) return;
  fmt::print(stderr, "{} failed: 0x{:x}\n", what, unsigned(r));
  std::exit(1);
}
inline void check(zeal::test::ZeCall call) { check(call.result, call.name); }

// The zeal CPU driver alone, through the real loader.
class Ze {
public:
  Ze() {
    check(zeal::test::init_with_driver(ZEAL_CPU_DRIVER_PATH, zeal::test::AltDrivers::always), "zeInit");
    check(zeal::test::open_first_device(driver, device, context));
  }

  ze_module_handle_t module(const std::vector<uint8_t> &bytes, ze_module_format_t format, const char *flags = "") {
    ze_module_handle_t m = nullptr;
    check(zeal::test::create_module(context, device, bytes, m, flags, format), "zeModuleCreate");
    return m;
  }

  // Creates (and destroys) every kernel of the module: what "runnable" costs beyond the build.
  static void make_kernels(ze_module_handle_t m) {
    uint32_t count = 0;
    check(zeModuleGetKernelNames(m, &count, nullptr), "zeModuleGetKernelNames");
    std::vector<const char *> names(count);
    check(zeModuleGetKernelNames(m, &count, names.data()), "zeModuleGetKernelNames");
    for (const char *name : names) {
      ze_kernel_handle_t k = nullptr;
      check(zeal::test::create_kernel(m, name, k), "zeKernelCreate");
      zeKernelDestroy(k);
    }
  }

  static std::vector<uint8_t> native(ze_module_handle_t m) {
    size_t size = 0;
    check(zeModuleGetNativeBinary(m, &size, nullptr), "zeModuleGetNativeBinary");
    std::vector<uint8_t> blob(size);
    check(zeModuleGetNativeBinary(m, &size, blob.data()), "zeModuleGetNativeBinary");
    return blob;
  }

  ze_driver_handle_t driver = nullptr;
  ze_device_handle_t device = nullptr;
  ze_context_handle_t context = nullptr;
};

} // namespace bench
