// Shared by the cpu_modules benchmarks: timing, medians, files, and the CPU driver through the Level Zero loader.
#pragma once

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

// The zeal CPU driver alone, through the real loader.
class Ze {
public:
  Ze() {
    setenv("ZE_ENABLE_ALT_DRIVERS", ZEAL_CPU_DRIVER_PATH, 1);
    check(zeInit(0), "zeInit");
    uint32_t count = 1;
    check(zeDriverGet(&count, &driver), "zeDriverGet");
    count = 1;
    check(zeDeviceGet(driver, &count, &device), "zeDeviceGet");
    ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    check(zeContextCreate(driver, &desc, &context), "zeContextCreate");
  }

  ze_module_handle_t module(const std::vector<uint8_t> &bytes, ze_module_format_t format, const char *flags = "") {
    ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, format, bytes.size(), bytes.data(), flags, nullptr};
    ze_module_handle_t m = nullptr;
    check(zeModuleCreate(context, device, &desc, &m, nullptr), "zeModuleCreate");
    return m;
  }

  // Creates (and destroys) every kernel of the module: what "runnable" costs beyond the build.
  static void make_kernels(ze_module_handle_t m) {
    uint32_t count = 0;
    check(zeModuleGetKernelNames(m, &count, nullptr), "zeModuleGetKernelNames");
    std::vector<const char *> names(count);
    check(zeModuleGetKernelNames(m, &count, names.data()), "zeModuleGetKernelNames");
    for (const char *name : names) {
      ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
      ze_kernel_handle_t k = nullptr;
      check(zeKernelCreate(m, &desc, &k), "zeKernelCreate");
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
