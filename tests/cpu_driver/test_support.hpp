// Shared fixture of the CPU driver tests: the driver through the real Level Zero loader, a context, helpers.
#pragma once

#include "tests/support/ze_setup.hpp"

#include <gtest/gtest.h>
#include <level_zero/ze_api.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace zeal::cpu::test {

// EXPECT/ASSERT on Level Zero results, printing the result's value on failure.
#define ZE_ASSERT_OK(call) ASSERT_EQ(ZE_RESULT_SUCCESS, (call))
#define ZE_EXPECT_OK(call) EXPECT_EQ(ZE_RESULT_SUCCESS, (call))

inline std::vector<uint8_t> read_kernel(const std::string &name) {
  std::ifstream in(std::string(ZEAL_TEST_KERNEL_DIR) + "/" + name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline ze_device_properties_t device_properties(ze_device_handle_t device) {
  ze_device_properties_t p{};
  p.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetProperties(device, &p));
  return p;
}

inline std::vector<ze_device_handle_t> sub_devices_of(ze_device_handle_t device) {
  uint32_t count = 0;
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetSubDevices(device, &count, nullptr));
  std::vector<ze_device_handle_t> subs(count);
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetSubDevices(device, &count, subs.data()));
  subs.resize(count);
  return subs;
}

// Every device of the CPU driver reaches every other's memory (host memory), atomics included.
inline void expect_full_peer_access(ze_device_handle_t device, ze_device_handle_t peer) {
  ze_bool_t can = false;
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeDeviceCanAccessPeer(device, peer, &can));
  EXPECT_TRUE(can);
  ze_device_p2p_properties_t p2p{ZE_STRUCTURE_TYPE_DEVICE_P2P_PROPERTIES, nullptr, 0};
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetP2PProperties(device, peer, &p2p));
  EXPECT_EQ(ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS | ZE_DEVICE_P2P_PROPERTY_FLAG_ATOMICS, p2p.flags);
}

// Runs vector_add.spv's fill_value over `count` ints at `out` (a multiple of 64) on `device`, with a module,
// kernel and synchronous immediate list of its own in `context`; the caller checks `out`.
inline void fill_with_kernel(ze_context_handle_t context, ze_device_handle_t device, int *out, uint32_t count,
                             int value) {
  ze_module_handle_t m = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeal::test::create_module(context, device, read_kernel("vector_add.spv"), m));
  ze_kernel_handle_t k = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeal::test::create_kernel(m, "fill_value", k));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(k, 64, 1, 1));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 0, sizeof(out), &out));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 1, sizeof(value), &value));
  ze_command_list_handle_t list = nullptr;
  EXPECT_EQ(ZE_RESULT_SUCCESS,
            zeal::test::create_immediate_list(context, device, list, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS));
  ze_group_count_t groups{count / 64, 1, 1};
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr));
  if (list != nullptr) {
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListDestroy(list));
  }
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelDestroy(k));
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeModuleDestroy(m));
}

// A format whose components read its channels in order (swizzle R, G, B, A).
constexpr ze_image_format_t rgba_format(ze_image_format_layout_t layout, ze_image_format_type_t type) {
  return {layout, type, ZE_IMAGE_FORMAT_SWIZZLE_R, ZE_IMAGE_FORMAT_SWIZZLE_G, ZE_IMAGE_FORMAT_SWIZZLE_B,
          ZE_IMAGE_FORMAT_SWIZZLE_A};
}

// An image kernels may write, of `width` x `height` x `depth` pixels and `layers` array layers.
inline ze_image_desc_t image_desc(ze_image_type_t type, ze_image_format_t format, uint64_t width, uint32_t height = 1,
                                  uint32_t depth = 1, uint32_t layers = 0) {
  ze_image_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_IMAGE_DESC;
  desc.flags = ZE_IMAGE_FLAG_KERNEL_WRITE;
  desc.type = type;
  desc.format = format;
  desc.width = width;
  desc.height = height;
  desc.depth = depth;
  desc.arraylevels = layers;
  return desc;
}

// driver, device and context come from ZeDeviceContext; the rest is made on demand and destroyed after the test.
class CpuDriver : public ::testing::Test, protected zeal::test::ZeDeviceContext {
protected:
  void SetUp() override {
    ZE_ASSERT_OK(zeInit(0));
    uint32_t count = 0;
    ZE_ASSERT_OK(zeDriverGet(&count, nullptr));
    ASSERT_EQ(1u, count) << "ZE_ENABLE_ALT_DRIVERS should name the zeal CPU driver only";
    zeal::test::ZeCall opened = open_device();
    ASSERT_EQ(ZE_RESULT_SUCCESS, opened.result) << opened.name;
  }

  // Destroys in dependency order; gtest's EXPECT macros are braced because they expand to an if.
  void TearDown() override {
    for (ze_sampler_handle_t s : samplers) { EXPECT_EQ(ZE_RESULT_SUCCESS, zeSamplerDestroy(s)); }
    for (ze_image_handle_t i : images) { EXPECT_EQ(ZE_RESULT_SUCCESS, zeImageDestroy(i)); }
    for (ze_event_handle_t e : events) { EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventDestroy(e)); }
    if (pool != nullptr) { EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventPoolDestroy(pool)); }
    for (ze_command_list_handle_t l : lists) { EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListDestroy(l)); }
    for (ze_kernel_handle_t k : kernels) { EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelDestroy(k)); }
    for (ze_module_handle_t m : modules) { EXPECT_EQ(ZE_RESULT_SUCCESS, zeModuleDestroy(m)); }
    for (void *p : allocations) { EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(context, p)); }
    if (queue != nullptr) { EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueDestroy(queue)); }
    if (context != nullptr) { EXPECT_EQ(ZE_RESULT_SUCCESS, zeContextDestroy(context)); }
  }

  void *shared(size_t bytes) {
    ze_device_mem_alloc_desc_t device_desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
    ze_host_mem_alloc_desc_t host_desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
    void *p = nullptr;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemAllocShared(context, &device_desc, &host_desc, bytes, 0, device, &p));
    if (p != nullptr) allocations.push_back(p);
    return p;
  }
  template <class T>
  T *shared_array(size_t n) { return static_cast<T *>(shared(n * sizeof(T))); }

  ze_command_list_handle_t immediate_list() {
    ze_command_list_handle_t list = nullptr;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeal::test::create_immediate_list(context, device, list));
    if (list != nullptr) lists.push_back(list);
    return list;
  }
  ze_command_list_handle_t regular_list() {
    ze_command_list_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 0, 0};
    ze_command_list_handle_t list = nullptr;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreate(context, device, &desc, &list));
    if (list != nullptr) lists.push_back(list);
    return list;
  }
  ze_command_queue_handle_t make_queue() {
    ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0,
                                 ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueCreate(context, device, &desc, &queue));
    return queue;
  }
  // Host-visible events from one pool of 16, with kernel timestamps.
  ze_event_handle_t event() {
    if (pool == nullptr) {
      EXPECT_EQ(ZE_RESULT_SUCCESS, zeal::test::create_host_event_pool(context, 16, pool, device,
                                                                      ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP));
    }
    ze_event_handle_t e = nullptr;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeal::test::create_host_event(pool, static_cast<uint32_t>(events.size()), e));
    if (e != nullptr) events.push_back(e);
    return e;
  }

  // Builds a module (SPIR-V unless `format` says otherwise); on failure returns the result and fills `log`.
  ze_result_t build(const std::vector<uint8_t> &spirv, ze_module_handle_t &module, std::string *log = nullptr,
                    const char *flags = "", ze_module_format_t format = ZE_MODULE_FORMAT_IL_SPIRV) {
    ze_module_build_log_handle_t build_log = nullptr;
    module = nullptr;
    ze_result_t r = zeal::test::create_module(context, device, spirv, module, flags, format, &build_log);
    if (build_log != nullptr) {
      std::string text;
      zeal::test::ZeCall log_read = zeal::test::read_build_log(build_log, text);
      EXPECT_EQ(ZE_RESULT_SUCCESS, log_read.result) << log_read.name;
      if (log != nullptr) *log = text;
    }
    if (module != nullptr) modules.push_back(module);
    return r;
  }
  ze_kernel_handle_t kernel(ze_module_handle_t module, const char *name) {
    ze_kernel_handle_t k = nullptr;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeal::test::create_kernel(module, name, k));
    if (k != nullptr) kernels.push_back(k);
    return k;
  }

  // Launches `k` over `groups` on a fresh immediate list and waits for it.
  ze_result_t launch_and_wait(ze_kernel_handle_t k, ze_group_count_t groups) {
    ze_event_handle_t done = event();
    if (ze_result_t r = zeCommandListAppendLaunchKernel(immediate_list(), k, &groups, done, 0, nullptr);
        r != ZE_RESULT_SUCCESS)
      return r;
    return zeEventHostSynchronize(done, UINT64_MAX);
  }

  ze_image_handle_t image(const ze_image_desc_t &desc) {
    ze_image_handle_t out = nullptr;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeImageCreate(context, device, &desc, &out));
    if (out != nullptr) images.push_back(out);
    return out;
  }
  ze_sampler_handle_t sampler(ze_sampler_address_mode_t address, ze_sampler_filter_mode_t filter, bool normalized) {
    ze_sampler_desc_t desc{ZE_STRUCTURE_TYPE_SAMPLER_DESC, nullptr, address, filter, normalized};
    ze_sampler_handle_t out = nullptr;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeSamplerCreate(context, device, &desc, &out));
    if (out != nullptr) samplers.push_back(out);
    return out;
  }
  // The whole image from packed pixels, and back; each copy waited for.
  void write_image(ze_image_handle_t to, const void *pixels) {
    ze_event_handle_t done = event();
    ZE_ASSERT_OK(zeCommandListAppendImageCopyFromMemory(immediate_list(), to, pixels, nullptr, done, 0, nullptr));
    ZE_ASSERT_OK(zeEventHostSynchronize(done, UINT64_MAX));
  }
  void read_image(void *pixels, ze_image_handle_t from) {
    ze_event_handle_t done = event();
    ZE_ASSERT_OK(zeCommandListAppendImageCopyToMemory(immediate_list(), pixels, from, nullptr, done, 0, nullptr));
    ZE_ASSERT_OK(zeEventHostSynchronize(done, UINT64_MAX));
  }

  ze_command_queue_handle_t queue = nullptr;
  ze_event_pool_handle_t pool = nullptr;
  std::vector<ze_event_handle_t> events;
  std::vector<ze_command_list_handle_t> lists;
  std::vector<ze_module_handle_t> modules;
  std::vector<ze_kernel_handle_t> kernels;
  std::vector<void *> allocations;
  std::vector<ze_image_handle_t> images;
  std::vector<ze_sampler_handle_t> samplers;
};

} // namespace zeal::cpu::test
