// The adapter over the CPU driver made two root devices of two sub-devices (ctest sets ZEAL_CPU_DEVICES=2 and
// ZEAL_CPU_SUBDEVICES=2): deviceGetSubDevices, and one context over root devices and sub-devices at once.
#include "adapter_fixture.hpp"
#include "tests/support/device_names.hpp"

#include <algorithm>
#include <numeric>

namespace zeal_test {
namespace {

using zeal::test::device_position;

std::vector<zeal_device_handle_t> sub_devices_of(zeal_device_handle_t device) {
  const auto &d = dispatch();
  uint32_t n = 0;
  EXPECT_EQ(ZEAL_RESULT_SUCCESS, d.deviceGetSubDevices(device, &n, nullptr)) << last_error();
  std::vector<zeal_device_handle_t> subs(n);
  EXPECT_EQ(ZEAL_RESULT_SUCCESS, d.deviceGetSubDevices(device, &n, subs.data())) << last_error();
  return subs;
}

using AdapterDevices = AdapterTest;

TEST_F(AdapterDevices, EachRootDeviceListsItsSubDevicesAndTheyHaveNone) {
  std::vector<zeal_device_handle_t> roots = all_devices(adapter);
  ASSERT_EQ(2u, roots.size());
  for (size_t r = 0; r < roots.size(); ++r) {
    // "zeal CPU device 1 (...)": its sub-devices are "zeal CPU device 1 sub-device 0 (...)" and so on.
    const std::string root_position = device_position(device_string(roots[r], ZEAL_DEVICE_INFO_NAME));
    std::vector<zeal_device_handle_t> subs = sub_devices_of(roots[r]);
    ASSERT_EQ(2u, subs.size());
    for (size_t s = 0; s < subs.size(); ++s) {
      std::string name = device_string(subs[s], ZEAL_DEVICE_INFO_NAME);
      EXPECT_EQ(root_position + " sub-device " + std::to_string(s), device_position(name)) << name;
      EXPECT_TRUE(sub_devices_of(subs[s]).empty());
      EXPECT_EQ(sub_group_sizes(roots[r]), sub_group_sizes(subs[s]));
    }
    // A count of 1 gets the first; a null count is refused with a sentence.
    uint32_t one = 1;
    zeal_device_handle_t first = nullptr;
    ASSERT_EQ(ZEAL_RESULT_SUCCESS, d.deviceGetSubDevices(roots[r], &one, &first));
    EXPECT_EQ(subs[0], first);
  }
  EXPECT_EQ(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, d.deviceGetSubDevices(roots[0], nullptr, nullptr));
  EXPECT_EQ("deviceGetSubDevices: count is null", last_error());
  uint32_t n = 0;
  EXPECT_EQ(ZEAL_RESULT_ERROR_INVALID_HANDLE, d.deviceGetSubDevices(nullptr, &n, nullptr));
}

// A context over a root device and sub-devices of both roots: memory, a program and a queue for each device,
// and a launch on each writing its own slice of one shared allocation.
TEST_F(AdapterDevices, OneContextOverRootAndSubDevicesRunsAProgramBuiltForEach) {
  std::vector<zeal_device_handle_t> roots = all_devices(adapter);
  ASSERT_EQ(2u, roots.size());
  const std::vector<zeal_device_handle_t> devices = {roots[1], sub_devices_of(roots[0])[1],
                                                     sub_devices_of(roots[1])[0]};
  zeal_context_handle_t shared = nullptr;
  ASSERT_EQ(ZEAL_RESULT_SUCCESS, d.contextCreate(uint32_t(devices.size()), devices.data(), &shared)) << last_error();
  constexpr size_t n = 1024;
  const auto slices = devices.size();
  int *a = nullptr, *b = nullptr, *c = nullptr;
  ASSERT_EQ(ZEAL_RESULT_SUCCESS, d.usmAlloc(shared, devices[0], ZEAL_USM_KIND_SHARED, n * slices * sizeof(int), 0,
                                            reinterpret_cast<void **>(&a)));
  ASSERT_EQ(ZEAL_RESULT_SUCCESS, d.usmAlloc(shared, devices[1], ZEAL_USM_KIND_SHARED, n * slices * sizeof(int), 0,
                                            reinterpret_cast<void **>(&b)));
  ASSERT_EQ(ZEAL_RESULT_SUCCESS, d.usmAlloc(shared, nullptr, ZEAL_USM_KIND_HOST, n * slices * sizeof(int), 0,
                                            reinterpret_cast<void **>(&c)));
  std::iota(a, a + n * slices, 0);
  std::fill(b, b + n * slices, 7);
  std::fill(c, c + n * slices, -1);

  auto spirv = read_kernel("vector_add.spv");
  zeal_program_desc_t desc{ZEAL_PROGRAM_FORMAT_SPIRV, spirv.data(), spirv.size(), 0, nullptr};
  std::vector<zeal_program_handle_t> programs;
  std::vector<zeal_kernel_handle_t> kernels;
  std::vector<zeal_queue_handle_t> queues;
  for (size_t i = 0; i < slices; ++i) {
    zeal_program_handle_t p = nullptr;
    ASSERT_EQ(ZEAL_RESULT_SUCCESS, d.programCreate(shared, devices[i], &desc, &p)) << last_error();
    programs.push_back(p);
    ASSERT_EQ(ZEAL_RESULT_SUCCESS, d.programBuild(p, nullptr)) << last_error();
    zeal_kernel_handle_t k = nullptr;
    ASSERT_EQ(ZEAL_RESULT_SUCCESS, d.kernelCreate(p, "vector_add", &k)) << last_error();
    kernels.push_back(k);
    zeal_queue_handle_t q = nullptr;
    ASSERT_EQ(ZEAL_RESULT_SUCCESS, d.queueCreate(shared, devices[i], ZEAL_QUEUE_FLAG_IN_ORDER, &q)) << last_error();
    queues.push_back(q);
  }
  for (size_t i = 0; i < slices; ++i) {
    const zeal_kernel_arg_t args[] = {usm_arg(0, a + i * n), usm_arg(1, b + i * n), usm_arg(2, c + i * n)};
    zeal_launch_desc_t launch = launch_1d(n, 64, 3, args);
    ASSERT_EQ(ZEAL_RESULT_SUCCESS, d.enqueueKernelLaunch(queues[i], kernels[i], &launch, 0, nullptr, nullptr))
        << last_error();
  }
  for (zeal_queue_handle_t q : queues) EXPECT_EQ(ZEAL_RESULT_SUCCESS, d.queueFinish(q)) << last_error();
  for (size_t i = 0; i < n * slices; ++i) ASSERT_EQ(int(i) + 7, c[i]) << i;

  // The fixture's context does not hold these devices: a program for one of them there is refused.
  zeal_program_handle_t outside = nullptr;
  EXPECT_NE(ZEAL_RESULT_SUCCESS, d.programCreate(context, devices[1], &desc, &outside));
  EXPECT_NE(std::string::npos, last_error().find("sub-device")) << last_error();

  for (zeal_queue_handle_t q : queues) EXPECT_EQ(ZEAL_RESULT_SUCCESS, d.queueRelease(q));
  for (zeal_kernel_handle_t k : kernels) EXPECT_EQ(ZEAL_RESULT_SUCCESS, d.kernelRelease(k));
  for (zeal_program_handle_t p : programs) EXPECT_EQ(ZEAL_RESULT_SUCCESS, d.programRelease(p));
  for (void *p : {static_cast<void *>(a), static_cast<void *>(b), static_cast<void *>(c)})
    EXPECT_EQ(ZEAL_RESULT_SUCCESS, d.usmFree(shared, p));
  EXPECT_EQ(ZEAL_RESULT_SUCCESS, d.contextRelease(shared));
}

} // namespace
} // namespace zeal_test
