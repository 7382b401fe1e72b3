// What the CUDA driver's tests share (cuda_driver_test.cpp, cuda_driver_sync_test.cpp, one executable): the test
// kernels, the driver's PTX cache in a folder of the process's own, zeInit with the loader pointed at the CUDA driver
// alone, and the CudaDriver fixture, which skips, saying so, where there is no CUDA.
#pragma once

#include "tests/support/ze_setup.hpp"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace zeal::test {

inline std::vector<uint8_t> read_kernel(const char *stem) {
  std::string path = std::string(ZEAL_TEST_KERNEL_DIR) + "/" + stem + ".spv";
  if (const char *dir = std::getenv("ZEAL_TEST_KERNEL_DIR")) path = std::string(dir) + "/" + stem + ".spv";
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// The driver's PTX cache in a folder of this process's own, set before the driver reads its settings.
inline const std::filesystem::path cache_dir = [] {
  auto dir = std::filesystem::temp_directory_path() / ("zeal-cuda-test-cache-" + std::to_string(getpid()));
  setenv("ZEAL_CACHE_DIR", dir.c_str(), 1);
  return dir;
}();

// The folder goes when the tests are done.
struct RemoveCacheDir : ::testing::Environment {
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(cache_dir, ec);
  }
};
[[maybe_unused]] inline ::testing::Environment *const remove_cache_dir =
    ::testing::AddGlobalTestEnvironment(new RemoveCacheDir);

inline size_t cached_modules() {
  size_t n = 0;
  std::error_code ec;
  for (const auto &entry : std::filesystem::directory_iterator(cache_dir / "cuda", ec))
    n += entry.path().extension() == ".zptx";
  return n;
}

// CUDA's library, or the one ZEAL_CUDA_LIBRARY names for the driver (the fake one of fake_cuda/ in CI).
inline bool has_cuda() {
  const char *library = std::getenv("ZEAL_CUDA_LIBRARY");
  void *handle = dlopen(library != nullptr ? library : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (handle != nullptr) dlclose(handle);
  return handle != nullptr;
}

// zeInit once per process, with the loader pointed at the CUDA driver alone.
inline ze_result_t init_once() {
  static ze_result_t result = [] {
    const char *driver = std::getenv("ZEAL_CUDA_DRIVER");
    return init_with_driver(driver != nullptr ? driver : ZEAL_CUDA_DRIVER_FILE, AltDrivers::always);
  }();
  return result;
}

class CudaDriver : public ::testing::Test, public ZeDeviceContext {
protected:
  void SetUp() override {
    if (!has_cuda()) {
      GTEST_SKIP() << "no CUDA on this machine (libcuda.so.1 cannot be opened): the test needs a GPU";
    }
    ASSERT_EQ(ZE_RESULT_SUCCESS, init_once());
    ZeCall opened = open_device();
    ASSERT_EQ(ZE_RESULT_SUCCESS, opened.result) << opened.name;
    ASSERT_EQ(ZE_RESULT_SUCCESS, create_immediate_list(context, device, list));
  }
  void TearDown() override {
    if (list != nullptr) zeCommandListDestroy(list);
    if (context != nullptr) zeContextDestroy(context);
  }

  void *device_memory(size_t bytes) {
    void *p = nullptr;
    auto desc = ze_desc<ze_device_mem_alloc_desc_t>();
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(context, &desc, bytes, 0, device, &p));
    return p;
  }
  void *shared_memory(size_t bytes) {
    void *p = nullptr;
    auto d = ze_desc<ze_device_mem_alloc_desc_t>();
    auto h = ze_desc<ze_host_mem_alloc_desc_t>();
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemAllocShared(context, &d, &h, bytes, 0, device, &p));
    return p;
  }
  // Builds `spirv` into `module`; a failure fails the test with the build log.
  void build(const std::vector<uint8_t> &spirv, ze_module_handle_t &module) {
    ze_module_build_log_handle_t log = nullptr;
    ze_result_t built = create_module(context, device, spirv, module, nullptr, ZE_MODULE_FORMAT_IL_SPIRV, &log);
    std::string text;
    read_build_log(log, text);
    ASSERT_EQ(ZE_RESULT_SUCCESS, built) << text;
  }
  // `module` built again from its native binary (zeModuleGetNativeBinary), as caches keep it, into `again`.
  void rebuild_from_native(ze_module_handle_t module, ze_module_handle_t &again) {
    size_t size = 0;
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetNativeBinary(module, &size, nullptr));
    std::vector<uint8_t> native(size);
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetNativeBinary(module, &size, native.data()));
    ASSERT_EQ(ZE_RESULT_SUCCESS, create_module(context, device, native, again, nullptr, ZE_MODULE_FORMAT_NATIVE));
  }
  void queue_and_regular_list(ze_command_queue_handle_t &queue, ze_command_list_handle_t &regular) {
    auto qdesc = ze_desc<ze_command_queue_desc_t>();
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueCreate(context, device, &qdesc, &queue));
    auto ldesc = ze_desc<ze_command_list_desc_t>();
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreate(context, device, &ldesc, &regular));
  }
  void finish() { ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendBarrier(list, nullptr, 0, nullptr)); sync(); }
  void sync() {
    ze_event_pool_handle_t pool = nullptr;
    ze_event_handle_t done = nullptr;
    ASSERT_EQ(ZE_RESULT_SUCCESS, create_host_event_pool(context, 1, pool));
    ASSERT_EQ(ZE_RESULT_SUCCESS, create_host_event(pool, 0, done));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendSignalEvent(list, done));
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(done, 10'000'000'000ull));
    zeEventDestroy(done);
    zeEventPoolDestroy(pool);
  }

  ze_command_list_handle_t list = nullptr;
};

} // namespace zeal::test
