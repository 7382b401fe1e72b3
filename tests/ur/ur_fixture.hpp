// The UR face through UR's own loader: initialised once per process, zeal's adapter, platform and CPU device;
// the zeal C ABI's plugin beside it, for comparing the two faces' answers.
#pragma once

#include "tests/support/ur_native.hpp"
#include "tests/support/zeal_devices.hpp"

#include <unified-runtime/ur_api.h>
#include <zeal/zeal_adapter.h>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

namespace zeal_ur_test {

using zeal::test::from_native;
using zeal::test::has_native_handle;
using zeal::test::native_of;
using zeal::test::to_native;

#define UR_ASSERT_OK(call) ASSERT_EQ(UR_RESULT_SUCCESS, (call))
#define UR_EXPECT_OK(call) EXPECT_EQ(UR_RESULT_SUCCESS, (call))

// A string answer of any UR getInfo.
template <class Fn>
std::string info_string(Fn &&get) {
  size_t size = 0;
  EXPECT_EQ(UR_RESULT_SUCCESS, get(0, nullptr, &size));
  std::string text(size, '\0');
  EXPECT_EQ(UR_RESULT_SUCCESS, get(size, text.data(), nullptr));
  if (!text.empty()) text.pop_back(); // the terminator
  return text;
}

template <class T, class Fn>
T info_value(Fn &&get) {
  T value{};
  EXPECT_EQ(UR_RESULT_SUCCESS, get(sizeof(T), &value, nullptr));
  return value;
}

// The sentence of this thread's last failure, as a SYCL runtime reads it.
inline std::string last_error(ur_adapter_handle_t adapter) {
  const char *message = nullptr;
  int32_t code = 0;
  if (urAdapterGetLastError(adapter, &message, &code) != UR_RESULT_SUCCESS || message == nullptr) return {};
  return message;
}

// A test kernel's bytes (SPIR-V compiled from tests/ur/kernels and tests/adapter/kernels).
inline std::vector<uint8_t> read_kernel(const std::string &dir, const std::string &name) {
  std::ifstream in(dir + "/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing test kernel " << dir << "/" << name;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// An info answer's bytes, through any getInfo of either face: the size asked first, then the value.
template <class Fn>
std::vector<uint8_t> info_bytes(Fn &&get) {
  size_t size = 0;
  EXPECT_EQ(0, static_cast<int>(get(0, nullptr, &size)));
  std::vector<uint8_t> bytes(size);
  if (size == 0) return bytes; // nothing to ask for (and no buffer to ask with)
  EXPECT_EQ(0, static_cast<int>(get(size, bytes.data(), nullptr)));
  return bytes;
}

// The zeal C ABI's plugin and its device of the same Level Zero device as the UR face's. The plugin stays
// loaded: Level Zero cannot be shut down and initialised again in one process.
struct ZealAbi {
  zeal_adapter_dispatch_t d{};
  zeal_adapter_handle_t adapter = nullptr;
  zeal_device_handle_t device = nullptr;

  void open(const std::string &device_name) {
    void *plugin = dlopen(ZEAL_ADAPTER_PATH, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(nullptr, plugin) << dlerror();
    auto get_dispatch =
        reinterpret_cast<zeal_pfn_get_adapter_dispatch_t>(dlsym(plugin, ZEAL_GET_ADAPTER_DISPATCH_SYMBOL));
    ASSERT_NE(nullptr, get_dispatch);
    ASSERT_EQ(ZEAL_RESULT_SUCCESS, get_dispatch(ZEAL_ADAPTER_ABI_VERSION, &d));
    ASSERT_EQ(ZEAL_RESULT_SUCCESS, d.adapterInit(&adapter));
    for (zeal_device_handle_t candidate : zeal_test::every_device(d, adapter)) {
      char name[256] = {};
      d.deviceGetInfo(candidate, ZEAL_DEVICE_INFO_NAME, sizeof(name), name, nullptr);
      if (device_name == name) device = candidate;
    }
    ASSERT_NE(nullptr, device) << "no device of the zeal C ABI is named " << device_name;
  }
  void close() {
    if (adapter != nullptr) {
      EXPECT_EQ(ZEAL_RESULT_SUCCESS, d.adapterRelease(adapter));
    }
  }
};

class UrFace : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(UR_RESULT_SUCCESS, urLoaderInit(0, nullptr));
  }
  static void TearDownTestSuite() { urLoaderTearDown(); }

  void SetUp() override {
    uint32_t count = 0;
    UR_ASSERT_OK(urAdapterGet(0, nullptr, &count));
    ASSERT_EQ(1u, count) << "UR_ADAPTERS_FORCE_LOAD should name zeal's UR adapter only";
    UR_ASSERT_OK(urAdapterGet(1, &adapter, nullptr));
    UR_ASSERT_OK(urPlatformGet(adapter, 0, nullptr, &count));
    ASSERT_GE(count, 1u);
    std::vector<ur_platform_handle_t> platforms(count);
    UR_ASSERT_OK(urPlatformGet(adapter, count, platforms.data(), nullptr));
    // zeal's CPU device: the test machines have no other Level Zero device, but pick it by name anyway.
    for (ur_platform_handle_t p : platforms) {
      uint32_t n = 0;
      UR_ASSERT_OK(urDeviceGet(p, UR_DEVICE_TYPE_CPU, 0, nullptr, &n));
      std::vector<ur_device_handle_t> devices(n);
      if (n > 0) {
        UR_ASSERT_OK(urDeviceGet(p, UR_DEVICE_TYPE_CPU, n, devices.data(), nullptr));
      }
      for (ur_device_handle_t d : devices) {
        if (device_name(d).rfind("zeal CPU", 0) == 0) {
          platform = p;
          device = d;
        }
      }
    }
    ASSERT_NE(nullptr, device) << "no zeal CPU device through the UR loader";
  }

  void TearDown() override {
    if (adapter != nullptr) {
      UR_EXPECT_OK(urAdapterRelease(adapter));
    }
  }

  static std::string device_name(ur_device_handle_t d) {
    return info_string([&](size_t size, void *value, size_t *ret) {
      return urDeviceGetInfo(d, UR_DEVICE_INFO_NAME, size, value, ret);
    });
  }
  std::string error() const { return last_error(adapter); }
  // UR's validation layer refuses some bad input itself, before zeal sees it: the code is the same, but the
  // sentence is zeal's only without the layer.
  static bool zeal_sees_bad_input() { return std::getenv("UR_ENABLE_LAYERS") == nullptr; }

  ur_adapter_handle_t adapter = nullptr;
  ur_platform_handle_t platform = nullptr;
  ur_device_handle_t device = nullptr;
};

// A context on zeal's device, released when the test ends (after what derived fixtures release).
class UrContextFace : public UrFace {
protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(UrFace::SetUp());
    UR_ASSERT_OK(urContextCreate(1, &device, nullptr, &context));
  }
  void TearDown() override {
    if (context != nullptr) {
      UR_EXPECT_OK(urContextRelease(context));
    }
    UrFace::TearDown();
  }

  // Runs `body(thread, own_queue)` on `threads` threads at once, each with an in-order queue of its own made
  // in `context`; the bodies return how many of their checks failed, and a queue that cannot be made counts as
  // one failure. Returns the sum.
  template <class Body>
  int failures_across_threads(int threads, Body &&body) {
    std::atomic<int> failures{0};
    std::vector<std::thread> running;
    for (int t = 0; t < threads; ++t) {
      running.emplace_back([&, t] {
        ur_queue_handle_t own = nullptr;
        if (urQueueCreate(context, device, nullptr, &own) != UR_RESULT_SUCCESS) {
          ++failures;
          return;
        }
        failures += body(t, own);
        urQueueRelease(own);
      });
    }
    for (auto &th : running) th.join();
    return failures.load();
  }

  ur_context_handle_t context = nullptr;
};

// A context and an in-order queue on it.
class UrQueueFace : public UrContextFace {
protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(UrContextFace::SetUp());
    UR_ASSERT_OK(urQueueCreate(context, device, nullptr, &queue));
  }
  void TearDown() override {
    if (queue != nullptr) {
      UR_EXPECT_OK(urQueueRelease(queue));
    }
    UrContextFace::TearDown();
  }

  ur_queue_handle_t queue = nullptr;
};

} // namespace zeal_ur_test
