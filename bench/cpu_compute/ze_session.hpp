// A Level Zero session on zeal's CPU driver for the compute benchmarks: context, immediate list, event, module.
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
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace bench {

[[noreturn]] inline void fail(const std::string &what) { throw std::runtime_error(what); }

inline void ze(ze_result_t result, const char *call) {
  if (result != ZE_RESULT_SUCCESS) fail(fmt::format("{} failed: 0x{:x}", call, unsigned(result)));
}
inline void ze(zeal::test::ZeCall call) { ze(call.result, call.name); }

// The machine a figure comes from, for BENCHMARKS.md's rows per CPU model: the model and its family/model
// numbers (/proc/cpuinfo; a VM may give a bare "AMD EPYC"), and what zeal-aot says code is generated for
// (LLVM 15's name for the CPU under ZEAL_CPU_TARGET).
inline std::string machine_description() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, model = "unknown CPU", family = "?", number = "?";
  auto value = [](const std::string &l) { return l.substr(std::min(l.find(':') + 2, l.size())); };
  // The first processor's block is enough: every core of a machine here is the same model.
  while (std::getline(cpuinfo, line) && !line.empty()) {
    if (line.rfind("model name", 0) == 0) model = value(line);
    else if (line.rfind("cpu family", 0) == 0) family = value(line);
    else if (line.rfind("model\t", 0) == 0) number = value(line);
  }
  std::string target = "target unknown (zeal-aot --print-target failed)";
  if (FILE *aot = popen(ZEAL_AOT_PATH " --print-target 2>&1", "r")) {
    char text[256] = {};
    if (std::fgets(text, sizeof text, aot) != nullptr) {
      target = text;
      while (!target.empty() && target.back() == '\n') target.pop_back();
    }
    pclose(aot);
  }
  return fmt::format("CPU: {} (family {}, model {}); {}", model, family, number, target);
}

inline std::vector<char> read_file(const char *path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) fail(fmt::format("cannot open {}", path));
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// One immediate command list and one host-visible event on the CPU driver (found
// through ZEAL_CPU_DRIVER_PATH unless ZE_ENABLE_ALT_DRIVERS is set), with the module
// built from `spirv_path`. Kernels and allocations made here are freed with it.
class ZeSession {
public:
  explicit ZeSession(const char *spirv_path) {
    ze(zeal::test::init_with_driver(ZEAL_CPU_DRIVER_PATH, zeal::test::AltDrivers::unless_set), "zeInit");
    std::vector<char> spirv = read_file(spirv_path);
    ze(ze_.open({reinterpret_cast<const uint8_t *>(spirv.data()), spirv.size()}, 1, "",
                zeal::test::EventPoolFor::the_device));
    done_ = ze_.events[0];
  }
  ZeSession(const ZeSession &) = delete;
  ZeSession &operator=(const ZeSession &) = delete;
  ~ZeSession() { // best effort at exit: the figures are already printed
    for (ze_kernel_handle_t k : kernels_) zeKernelDestroy(k);
    for (void *p : allocations_) zeMemFree(ze_.context, p);
    ze_.close();
  }

  template <class T>
  T *alloc(size_t n) {
    ze_host_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
    void *p = nullptr;
    ze(zeMemAllocHost(ze_.context, &desc, n * sizeof(T), 64, &p), "zeMemAllocHost");
    allocations_.push_back(p);
    return static_cast<T *>(p);
  }

  // The kernel `name` with its group size (x) and arguments ({size, pointer to value}) set.
  ze_kernel_handle_t kernel(const char *name, uint32_t group, const std::vector<std::pair<size_t, const void *>> &args) {
    ze_kernel_handle_t k = nullptr;
    ze(zeal::test::create_kernel(ze_.module, name, k), "zeKernelCreate");
    kernels_.push_back(k);
    ze(zeKernelSetGroupSize(k, group, 1, 1), "zeKernelSetGroupSize");
    for (uint32_t i = 0; i < args.size(); ++i)
      ze(zeKernelSetArgumentValue(k, i, args[i].first, args[i].second), "zeKernelSetArgumentValue");
    return k;
  }

  // Wall seconds of one launch of `groups` work-groups (in x), appended and waited for.
  double launch(ze_kernel_handle_t k, size_t groups) { return launch_groups(k, {uint32_t(groups), 1, 1}); }

  // Wall seconds of one launch of a grid of work-groups, appended and waited for.
  double launch_groups(ze_kernel_handle_t k, ze_group_count_t count) {
    auto start = std::chrono::steady_clock::now();
    ze(zeCommandListAppendLaunchKernel(ze_.list, k, &count, done_, 0, nullptr), "zeCommandListAppendLaunchKernel");
    ze(zeEventHostSynchronize(done_, UINT64_MAX), "zeEventHostSynchronize");
    double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ze(zeEventHostReset(done_), "zeEventHostReset");
    return t;
  }

  // Wall seconds of `launches` back-to-back launches of one work-group each, then one wait: the
  // last signals the event (the list is in order; Debian's headers predate zeCommandListHostSynchronize).
  double launch_many(ze_kernel_handle_t k, int launches) {
    ze_group_count_t count{1, 1, 1};
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < launches; ++i) {
      ze(zeCommandListAppendLaunchKernel(ze_.list, k, &count, i + 1 == launches ? done_ : nullptr, 0, nullptr),
         "zeCommandListAppendLaunchKernel");
    }
    ze(zeEventHostSynchronize(done_, UINT64_MAX), "zeEventHostSynchronize");
    double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ze(zeEventHostReset(done_), "zeEventHostReset");
    return t;
  }

  ze_context_handle_t context() const { return ze_.context; }
  ze_device_handle_t device() const { return ze_.device; }

private:
  zeal::test::ZeLaunchObjects ze_;
  ze_event_handle_t done_ = nullptr; // ze_'s one event: each launch signals it
  std::vector<ze_kernel_handle_t> kernels_;
  std::vector<void *> allocations_;
};

} // namespace bench
