// What a benchmark needs of UR to run kernels through zeal's UR face: the loader with zeal's adapter forced, its
// first device, a context, an in-order queue and a program built from SPIR-V. A failure ends the process with
// UR's code and the adapter's sentence.
#pragma once

#include <unified-runtime/ur_api.h>

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace zeal::test {

struct UrSession {
  const char *name; // the program's, for messages
  ur_adapter_handle_t adapter = nullptr;
  ur_device_handle_t device = nullptr;
  ur_context_handle_t context = nullptr;
  ur_queue_handle_t queue = nullptr;
  ur_program_handle_t program = nullptr;

  [[noreturn]] void die(const std::string &what) const {
    std::fprintf(stderr, "%s: %s\n", name, what.c_str());
    std::exit(1);
  }
  void check(ur_result_t r, const char *call) const {
    if (r == UR_RESULT_SUCCESS) return;
    const char *message = "";
    int32_t code = 0;
    if (adapter != nullptr) urAdapterGetLastError(adapter, &message, &code);
    die(fmt::format("{} failed with UR result {}: {}", call, static_cast<int>(r), message ? message : ""));
  }
  // `adapter_path`: zeal's UR adapter, forced unless UR_ADAPTERS_FORCE_LOAD is set already.
  void open(const char *adapter_path, const std::vector<uint8_t> &spirv) {
    setenv("UR_ADAPTERS_FORCE_LOAD", adapter_path, 0);
    check(urLoaderInit(0, nullptr), "urLoaderInit");
    uint32_t n = 0;
    check(urAdapterGet(1, &adapter, &n), "urAdapterGet");
    ur_platform_handle_t platform = nullptr;
    check(urPlatformGet(adapter, 1, &platform, nullptr), "urPlatformGet");
    check(urDeviceGet(platform, UR_DEVICE_TYPE_ALL, 1, &device, nullptr), "urDeviceGet");
    check(urContextCreate(1, &device, nullptr, &context), "urContextCreate");
    check(urQueueCreate(context, device, nullptr, &queue), "urQueueCreate");
    check(urProgramCreateWithIL(context, spirv.data(), spirv.size(), nullptr, &program), "urProgramCreateWithIL");
    check(urProgramBuild(context, program, nullptr), "urProgramBuild");
  }
  ur_kernel_handle_t kernel(const char *kernel_name) {
    ur_kernel_handle_t k = nullptr;
    check(urKernelCreate(program, kernel_name, &k), "urKernelCreate");
    return k;
  }
  void *shared(size_t bytes) {
    void *p = nullptr;
    check(urUSMSharedAlloc(context, device, nullptr, nullptr, bytes, &p), "urUSMSharedAlloc");
    return p;
  }
};

} // namespace zeal::test
