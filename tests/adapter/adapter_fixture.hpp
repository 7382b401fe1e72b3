// The adapter test fixture: the plugin dlopened once, a device (zeal's CPU device when present), context, queue.
#pragma once

#include "tests/support/launch_1d.hpp"
#include "tests/support/zeal_devices.hpp"

#include <zeal/zeal_adapter.h>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace zeal_test {

// The plugin and its table, loaded once per process as the runtime would.
inline const zeal_adapter_dispatch_t &dispatch() {
  static zeal_adapter_dispatch_t table = [] {
    zeal_adapter_dispatch_t t{};
    void *lib = dlopen(ZEAL_ADAPTER_PATH, RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
      ADD_FAILURE() << "dlopen(" << ZEAL_ADAPTER_PATH << "): " << dlerror();
      return t;
    }
    auto get = reinterpret_cast<zeal_pfn_get_adapter_dispatch_t>(dlsym(lib, ZEAL_GET_ADAPTER_DISPATCH_SYMBOL));
    if (get == nullptr || get(ZEAL_ADAPTER_ABI_VERSION, &t) != ZEAL_RESULT_SUCCESS)
      ADD_FAILURE() << "zealGetAdapterDispatch failed";
    return t;
  }();
  return table;
}

inline std::string last_error() { return dispatch().getLastErrorMessage(); }

// A pointer as the adapter prints it in messages (fmt's "{}" of a void*).
inline std::string fmt_pointer(const void *p) {
  char text[32];
  std::snprintf(text, sizeof(text), "%#llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(p)));
  return text;
}

inline std::string device_string(zeal_device_handle_t d, zeal_device_info_t key) {
  size_t size = 0;
  EXPECT_EQ(dispatch().deviceGetInfo(d, key, 0, nullptr, &size), ZEAL_RESULT_SUCCESS);
  std::string s(size, '\0');
  EXPECT_EQ(dispatch().deviceGetInfo(d, key, size, s.data(), nullptr), ZEAL_RESULT_SUCCESS);
  if (!s.empty()) s.pop_back();
  return s;
}

template <class T>
T device_value(zeal_device_handle_t d, zeal_device_info_t key) {
  T value{};
  EXPECT_EQ(dispatch().deviceGetInfo(d, key, sizeof(T), &value, nullptr), ZEAL_RESULT_SUCCESS) << last_error();
  return value;
}

inline std::vector<uint8_t> read_kernel(const std::string &name) {
  std::ifstream in(std::string(ZEAL_TEST_KERNEL_DIR) + "/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing test kernel " << name;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}


inline zeal_kernel_arg_t usm_arg(uint32_t index, const void *p) { return {index, ZEAL_KERNEL_ARG_USM_POINTER, 0, p}; }

inline std::vector<uint32_t> sub_group_sizes(zeal_device_handle_t device) {
  size_t size = 0;
  EXPECT_EQ(dispatch().deviceGetInfo(device, ZEAL_DEVICE_INFO_SUB_GROUP_SIZES, 0, nullptr, &size), ZEAL_RESULT_SUCCESS);
  std::vector<uint32_t> sizes(size / sizeof(uint32_t));
  EXPECT_EQ(dispatch().deviceGetInfo(device, ZEAL_DEVICE_INFO_SUB_GROUP_SIZES, size, sizes.data(), nullptr),
            ZEAL_RESULT_SUCCESS);
  return sizes;
}

// "8, 16, 32": the sizes as the adapter's messages list them.
inline std::string sizes_text(const std::vector<uint32_t> &sizes) {
  std::string text;
  for (uint32_t s : sizes) text += (text.empty() ? "" : ", ") + std::to_string(s);
  return text;
}

inline std::string program_string(zeal_program_handle_t p, zeal_program_info_t key) {
  size_t size = 0;
  EXPECT_EQ(dispatch().programGetInfo(p, key, 0, nullptr, &size), ZEAL_RESULT_SUCCESS) << dispatch().getLastErrorMessage();
  std::string s(size, '\0');
  EXPECT_EQ(dispatch().programGetInfo(p, key, size, s.data(), nullptr), ZEAL_RESULT_SUCCESS);
  if (!s.empty()) s.pop_back();
  return s;
}

inline zeal_program_state_t program_state(zeal_program_handle_t p) {
  zeal_program_state_t state{};
  EXPECT_EQ(dispatch().programGetInfo(p, ZEAL_PROGRAM_INFO_STATE, sizeof(state), &state, nullptr), ZEAL_RESULT_SUCCESS);
  return state;
}

// Every device of every platform; zeal's CPU device first.
inline std::vector<zeal_device_handle_t> all_devices(zeal_adapter_handle_t adapter) {
  std::vector<zeal_device_handle_t> devices;
  for (zeal_device_handle_t dev : every_device(dispatch(), adapter)) {
    bool zeal_cpu = device_string(dev, ZEAL_DEVICE_INFO_NAME).rfind("zeal", 0) == 0;
    devices.insert(zeal_cpu ? devices.begin() : devices.end(), dev);
  }
  return devices;
}

class AdapterTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_NE(d.adapterInit, nullptr);
    ASSERT_EQ(d.adapterInit(&adapter), ZEAL_RESULT_SUCCESS) << last_error();
    auto devices = all_devices(adapter);
    ASSERT_FALSE(devices.empty()) << "no Level Zero device: is libze_zeal_cpu.so.1 beside the adapter?";
    device = devices.front();
    device_name = device_string(device, ZEAL_DEVICE_INFO_NAME);
    ASSERT_EQ(d.contextCreate(1, &device, &context), ZEAL_RESULT_SUCCESS) << last_error();
    ASSERT_EQ(d.queueCreate(context, device, ZEAL_QUEUE_FLAG_IN_ORDER, &queue), ZEAL_RESULT_SUCCESS) << last_error();
  }
  void TearDown() override {
    if (queue) {
      EXPECT_EQ(d.queueRelease(queue), ZEAL_RESULT_SUCCESS);
    }
    if (context) {
      EXPECT_EQ(d.contextRelease(context), ZEAL_RESULT_SUCCESS);
    }
    if (adapter) {
      EXPECT_EQ(d.adapterRelease(adapter), ZEAL_RESULT_SUCCESS);
    }
  }

  template <class T>
  T *alloc(size_t count, zeal_usm_kind_t kind = ZEAL_USM_KIND_SHARED) {
    void *p = nullptr;
    EXPECT_EQ(d.usmAlloc(context, device, kind, count * sizeof(T), 0, &p), ZEAL_RESULT_SUCCESS) << last_error();
    return static_cast<T *>(p);
  }

  // A program of a test kernel file (with metadata entries), or null with a failure recorded.
  zeal_program_handle_t create(const std::string &file, const std::vector<zeal_metadata_entry_t> &metadata = {}) {
    auto spirv = read_kernel(file);
    zeal_program_desc_t desc{ZEAL_PROGRAM_FORMAT_SPIRV, spirv.data(), spirv.size(),
                             static_cast<uint32_t>(metadata.size()), metadata.data()};
    zeal_program_handle_t program = nullptr;
    EXPECT_EQ(d.programCreate(context, device, &desc, &program), ZEAL_RESULT_SUCCESS) << last_error();
    return program;
  }

  // A built program of a test kernel file, or null with a failure recorded.
  zeal_program_handle_t build(const std::string &file, const std::vector<zeal_metadata_entry_t> &metadata = {}) {
    zeal_program_handle_t program = create(file, metadata);
    if (program == nullptr) return nullptr;
    EXPECT_EQ(d.programBuild(program, nullptr), ZEAL_RESULT_SUCCESS) << last_error();
    return program;
  }

  zeal_kernel_handle_t kernel_of(zeal_program_handle_t program, const char *name) {
    zeal_kernel_handle_t k = nullptr;
    EXPECT_EQ(d.kernelCreate(program, name, &k), ZEAL_RESULT_SUCCESS) << last_error();
    return k;
  }

  // vector_add.spv's `scale` (out[i] = i * factor) ready to launch: its program (built with `metadata`), the
  // kernel, `n` ints of shared output and the two arguments. The arguments point into the struct: it stays put.
  struct Scale {
    zeal_program_handle_t program = nullptr;
    zeal_kernel_handle_t kernel = nullptr;
    int *out = nullptr;
    int factor = 0;
    zeal_kernel_arg_t args[2] = {};
  };
  void make_scale(Scale &s, size_t n, int factor, const std::vector<zeal_metadata_entry_t> &metadata = {}) {
    s.program = build("vector_add.spv", metadata);
    ASSERT_NE(s.program, nullptr);
    s.kernel = kernel_of(s.program, "scale");
    s.out = alloc<int>(n);
    s.factor = factor;
    s.args[0] = usm_arg(0, s.out);
    s.args[1] = {1, ZEAL_KERNEL_ARG_VALUE, sizeof(int), &s.factor};
  }
  void release_scale(const Scale &s) {
    EXPECT_EQ(d.kernelRelease(s.kernel), ZEAL_RESULT_SUCCESS);
    EXPECT_EQ(d.usmFree(context, s.out), ZEAL_RESULT_SUCCESS);
    EXPECT_EQ(d.programRelease(s.program), ZEAL_RESULT_SUCCESS);
  }

  // Launches `k` as `launch` on the queue and waits for the queue: success, or the failing call's result.
  zeal_result_t run(zeal_kernel_handle_t k, const zeal_launch_desc_t &launch) {
    if (zeal_result_t r = d.enqueueKernelLaunch(queue, k, &launch, 0, nullptr, nullptr); r != ZEAL_RESULT_SUCCESS)
      return r;
    return d.queueFinish(queue);
  }

  const zeal_adapter_dispatch_t &d = dispatch();
  zeal_adapter_handle_t adapter = nullptr;
  zeal_device_handle_t device = nullptr;
  std::string device_name;
  zeal_context_handle_t context = nullptr;
  zeal_queue_handle_t queue = nullptr;
};

// AdapterTest with vector_add.spv built (its kernels: vector_add, scale, fixed_group), released after the test.
class VectorAddProgramTest : public AdapterTest {
protected:
  void SetUp() override {
    AdapterTest::SetUp();
    if (HasFatalFailure()) return;
    program = build("vector_add.spv");
    ASSERT_NE(program, nullptr);
  }
  void TearDown() override {
    if (program) {
      EXPECT_EQ(d.programRelease(program), ZEAL_RESULT_SUCCESS);
    }
    AdapterTest::TearDown();
  }
  zeal_kernel_handle_t kernel(const char *name) { return kernel_of(program, name); }

  zeal_program_handle_t program = nullptr;
};

} // namespace zeal_test
