// Several root devices and their sub-devices (ZEAL_CPU_DEVICES, ZEAL_CPU_SUBDEVICES, ZEAL_CPU_THREADS, all set
// by ctest): what each reports, and memory, modules, queues and kernels used across them.
#include "test_support.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <set>
#include <string>
#include <thread>

namespace zeal::cpu::test {
namespace {

unsigned from_environment(const char *name) {
  const char *text = std::getenv(name);
  EXPECT_NE(nullptr, text) << name << " must be set by ctest";
  return text != nullptr ? unsigned(std::atoi(text)) : 0;
}

// The n-th of `parts` even shares of `total`, never 0: how the driver shares threads out.
unsigned share(unsigned total, unsigned parts, unsigned n) {
  return std::max(1u, total / parts + (n < total % parts ? 1u : 0u));
}

ze_device_module_properties_t module_device_properties(ze_device_handle_t device) {
  ze_device_module_properties_t p{};
  p.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetModuleProperties(device, &p));
  return p;
}

bool host_profile() {
  const char *profile = std::getenv("ZEAL_CPU_PROFILE");
  return profile == nullptr || std::string(profile) == "host";
}

class Devices : public CpuDriver {
protected:
  void SetUp() override {
    CpuDriver::SetUp();
    if (HasFatalFailure()) return;
    uint32_t count = 0;
    ZE_ASSERT_OK(zeDeviceGet(driver, &count, nullptr));
    roots.resize(count);
    ZE_ASSERT_OK(zeDeviceGet(driver, &count, roots.data()));
    for (ze_device_handle_t root : roots) subs.push_back(sub_devices_of(root));
  }

  void TearDown() override {
    for (void *p : foreign) { EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(context, p)); }
    CpuDriver::TearDown();
  }

  std::vector<ze_device_handle_t> every_device() const {
    std::vector<ze_device_handle_t> all = roots;
    for (const auto &s : subs) all.insert(all.end(), s.begin(), s.end());
    return all;
  }

  void *device_memory(ze_device_handle_t on, size_t bytes) {
    ze_device_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
    void *p = nullptr;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(context, &desc, bytes, 64, on, &p));
    if (p != nullptr) foreign.push_back(p);
    return p;
  }

  ze_command_list_handle_t immediate_list_on(ze_device_handle_t on) {
    ze_command_list_handle_t list = nullptr;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeal::test::create_immediate_list(context, on, list));
    if (list != nullptr) lists.push_back(list);
    return list;
  }

  ze_module_handle_t module_on(ze_device_handle_t on) {
    ze_module_handle_t m = nullptr;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeal::test::create_module(context, on, read_kernel("vector_add.spv"), m));
    if (m != nullptr) modules.push_back(m);
    return m;
  }

  // A synchronous immediate list: each append returns when its command has run.
  ze_command_list_handle_t synchronous_list_on(ze_device_handle_t on) {
    auto desc = ze_desc<ze_command_queue_desc_t>();
    desc.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
    ze_command_list_handle_t list = nullptr;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreateImmediate(context, on, &desc, &list));
    if (list != nullptr) lists.push_back(list);
    return list;
  }

  std::vector<ze_device_handle_t> roots;
  std::vector<std::vector<ze_device_handle_t>> subs;
  std::vector<void *> foreign; // allocations on devices other than the fixture's
};

TEST_F(Devices, EachRootDeviceSplitsIntoSubDevicesThatShareItsThreads) {
  const unsigned root_count = from_environment("ZEAL_CPU_DEVICES");
  const unsigned sub_count = from_environment("ZEAL_CPU_SUBDEVICES");
  const unsigned threads = from_environment("ZEAL_CPU_THREADS");
  ASSERT_EQ(root_count, roots.size());
  for (unsigned r = 0; r < root_count; ++r) {
    SCOPED_TRACE("root device " + std::to_string(r));
    ze_device_properties_t root = device_properties(roots[r]);
    EXPECT_EQ(0u, root.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE);
    EXPECT_NE(std::string::npos, std::string(root.name).find("zeal CPU device " + std::to_string(r) + " ("))
        << root.name;
    const unsigned root_threads = share(threads, root_count, r);
    if (host_profile()) {
      EXPECT_EQ(root_threads, root.numEUsPerSubslice * root.numSubslicesPerSlice * root.numSlices);
    }

    ASSERT_EQ(sub_count, subs[r].size());
    unsigned sub_slices = 0;
    for (unsigned s = 0; s < sub_count; ++s) {
      SCOPED_TRACE("sub-device " + std::to_string(s));
      ze_device_properties_t sub = device_properties(subs[r][s]);
      EXPECT_NE(0u, sub.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE);
      EXPECT_EQ(s, sub.subdeviceId);
      EXPECT_NE(std::string::npos,
                std::string(sub.name).find("device " + std::to_string(r) + " sub-device " + std::to_string(s)))
          << sub.name;
      if (host_profile()) { EXPECT_EQ(share(root_threads, sub_count, s), sub.numEUsPerSubslice); }
      sub_slices += sub.numSubslicesPerSlice;
      EXPECT_EQ(root.type, sub.type);
      EXPECT_EQ(root.maxMemAllocSize, sub.maxMemAllocSize);
      // A sub-device is not split again.
      uint32_t nested = 7;
      ZE_EXPECT_OK(zeDeviceGetSubDevices(subs[r][s], &nested, nullptr));
      EXPECT_EQ(0u, nested);
    }
    // The sub-devices together have the root's compute units (on a GPU profile: its sub-slices).
    if (!host_profile()) { EXPECT_EQ(root.numSubslicesPerSlice, sub_slices); }
  }
}

TEST_F(Devices, EveryDeviceHasItsOwnIdentityAndAllRunTheSameNativeBinaries) {
  std::set<std::string> uuids, names;
  const std::vector<ze_device_handle_t> all = every_device();
  const ze_device_module_properties_t first = module_device_properties(all.front());
  for (ze_device_handle_t d : all) {
    ze_device_properties_t p = device_properties(d);
    uuids.emplace(reinterpret_cast<const char *>(p.uuid.id), sizeof(p.uuid.id));
    names.emplace(p.name);
    EXPECT_EQ(0, std::memcmp(first.nativeKernelSupported.id, module_device_properties(d).nativeKernelSupported.id,
                             ZE_MAX_NATIVE_KERNEL_UUID_SIZE));
  }
  EXPECT_EQ(all.size(), uuids.size());
  EXPECT_EQ(all.size(), names.size());
}

TEST_F(Devices, ListsAreTruncatedToTheCallersCount) {
  ASSERT_GE(roots.size(), 2u);
  ASSERT_GE(subs[0].size(), 2u);
  uint32_t count = 1;
  ze_device_handle_t one = nullptr;
  ZE_ASSERT_OK(zeDeviceGet(driver, &count, &one));
  EXPECT_EQ(1u, count);
  EXPECT_EQ(roots[0], one);
  count = 1;
  ZE_ASSERT_OK(zeDeviceGetSubDevices(roots[0], &count, &one));
  EXPECT_EQ(1u, count);
  EXPECT_EQ(subs[0][0], one);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeDeviceGetSubDevices(roots[0], nullptr, nullptr));
}

TEST_F(Devices, EveryDeviceReachesEveryOthersMemoryWithAtomics) {
  const std::vector<ze_device_handle_t> all = every_device();
  for (ze_device_handle_t a : all)
    for (ze_device_handle_t b : all) expect_full_peer_access(a, b);
}

// Inputs on two devices, the output shared with a third, the kernel built for and run on that third, the
// copies made by lists of yet others; each allocation remembers its own device.
TEST_F(Devices, AKernelOfASubDeviceRunsOverMemoryOfOtherDevicesCopiedByOthers) {
  ASSERT_GE(roots.size(), 2u);
  ASSERT_GE(subs[1].size(), 2u);
  constexpr size_t n = 4096;
  ze_device_handle_t a_on = subs[0][0], b_on = roots[1], runs_on = subs[1][1];
  auto *a = static_cast<float *>(device_memory(a_on, n * sizeof(float)));
  auto *b = static_cast<float *>(device_memory(b_on, n * sizeof(float)));
  ze_device_mem_alloc_desc_t device_desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
  ze_host_mem_alloc_desc_t host_desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
  float *c = nullptr;
  ZE_ASSERT_OK(zeMemAllocShared(context, &device_desc, &host_desc, n * sizeof(float), 64, runs_on,
                                reinterpret_cast<void **>(&c)));
  foreign.push_back(c);
  ASSERT_NE(nullptr, a);
  ASSERT_NE(nullptr, b);

  const std::pair<void *, ze_device_handle_t> owners[] = {{a, a_on}, {b + 7, b_on}, {c, runs_on}};
  for (auto [pointer, owner] : owners) {
    auto props = ze_desc<ze_memory_allocation_properties_t>();
    ze_device_handle_t reported = nullptr;
    ZE_EXPECT_OK(zeMemGetAllocProperties(context, pointer, &props, &reported));
    EXPECT_EQ(owner, reported);
  }

  std::vector<float> x(n), y(n);
  std::iota(x.begin(), x.end(), 1.0f);
  std::iota(y.begin(), y.end(), 1000.0f);
  ze_command_list_handle_t copier = synchronous_list_on(subs[0][1]);
  ZE_ASSERT_OK(zeCommandListAppendMemoryCopy(copier, a, x.data(), n * sizeof(float), nullptr, 0, nullptr));
  ZE_ASSERT_OK(zeCommandListAppendMemoryCopy(copier, b, y.data(), n * sizeof(float), nullptr, 0, nullptr));

  ze_kernel_handle_t add = kernel(module_on(runs_on), "vector_add");
  ZE_ASSERT_OK(zeKernelSetGroupSize(add, 64, 1, 1));
  ZE_ASSERT_OK(zeKernelSetArgumentValue(add, 0, sizeof(a), &a));
  ZE_ASSERT_OK(zeKernelSetArgumentValue(add, 1, sizeof(b), &b));
  ZE_ASSERT_OK(zeKernelSetArgumentValue(add, 2, sizeof(c), &c));
  ze_group_count_t groups{n / 64, 1, 1};
  ZE_ASSERT_OK(zeCommandListAppendLaunchKernel(synchronous_list_on(runs_on), add, &groups, nullptr, 0, nullptr));

  std::vector<float> back(n);
  ZE_ASSERT_OK(zeCommandListAppendMemoryCopy(synchronous_list_on(roots[0]), back.data(), c, n * sizeof(float),
                                             nullptr, 0, nullptr));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(x[i] + y[i], back[i]) << i;
}

// Each sub-device's own list and pool, driven from its own host thread, all at once.
TEST_F(Devices, SubDevicesRunLaunchesAtTheSameTime) {
  constexpr size_t n = 1 << 16;
  std::vector<ze_device_handle_t> devices;
  for (const auto &s : subs) devices.insert(devices.end(), s.begin(), s.end());
  ASSERT_FALSE(devices.empty());
  struct Work {
    ze_kernel_handle_t kernel;
    ze_command_list_handle_t list;
    int *out;
  };
  std::vector<Work> work;
  for (ze_device_handle_t d : devices) {
    ze_kernel_handle_t k = kernel(module_on(d), "fill_value");
    work.push_back({k, synchronous_list_on(d), static_cast<int *>(device_memory(d, n * sizeof(int)))});
    ASSERT_NE(nullptr, work.back().out);
  }
  std::vector<ze_result_t> results(work.size(), ZE_RESULT_ERROR_UNKNOWN);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < work.size(); ++i) {
    threads.emplace_back([&, i] {
      const Work &w = work[i];
      int value = int(i) + 1;
      ze_group_count_t groups{n / 256, 1, 1};
      ze_result_t r = zeKernelSetGroupSize(w.kernel, 256, 1, 1);
      if (r == ZE_RESULT_SUCCESS) r = zeKernelSetArgumentValue(w.kernel, 0, sizeof(w.out), &w.out);
      if (r == ZE_RESULT_SUCCESS) r = zeKernelSetArgumentValue(w.kernel, 1, sizeof(value), &value);
      for (int round = 0; r == ZE_RESULT_SUCCESS && round < 20; ++round)
        r = zeCommandListAppendLaunchKernel(w.list, w.kernel, &groups, nullptr, 0, nullptr);
      results[i] = r;
    });
  }
  for (std::thread &t : threads) t.join();
  for (size_t i = 0; i < work.size(); ++i) {
    ASSERT_EQ(ZE_RESULT_SUCCESS, results[i]) << "device " << i;
    const int expected = int(i) + 1;
    EXPECT_EQ(n, size_t(std::count(work[i].out, work[i].out + n, expected))) << "device " << i;
  }
}

// A group of one work-item: 64 groups per thread of the kernel's device.
TEST_F(Devices, ACooperativeLaunchMayHaveGroupsInProportionToItsDevicesThreads) {
  const unsigned threads = from_environment("ZEAL_CPU_THREADS");
  const unsigned root_count = static_cast<unsigned>(roots.size());
  for (unsigned r = 0; r < root_count; ++r) {
    uint32_t count = 0;
    ZE_ASSERT_OK(zeKernelSuggestMaxCooperativeGroupCount(kernel(module_on(roots[r]), "vector_add"), &count));
    EXPECT_EQ(64 * share(threads, root_count, r), count) << "root " << r;
    for (unsigned s = 0; s < subs[r].size(); ++s) {
      ZE_ASSERT_OK(zeKernelSuggestMaxCooperativeGroupCount(kernel(module_on(subs[r][s]), "vector_add"), &count));
      EXPECT_EQ(64 * share(share(threads, root_count, r), unsigned(subs[r].size()), s), count)
          << "root " << r << " sub-device " << s;
    }
  }
}

// Groups that spin until all have arrived finish only if all run at once: many more groups than the device has
// threads, each on a thread of its own, while a blocked launch holds one of the pool's threads.
TEST_F(Devices, ACooperativeLaunchRunsAllItsGroupsAtOnceAndRefusesMoreGroupsThanItsMaximum) {
  for (ze_device_handle_t d : {roots[0], subs[0].back()}) {
    ze_module_handle_t m = nullptr;
    ZE_ASSERT_OK(zeal::test::create_module(context, d, read_kernel("cooperative.spv"), m));
    modules.push_back(m);
    ze_kernel_handle_t meet = kernel(m, "meet");
    uint32_t groups_at_once = 0;
    ZE_ASSERT_OK(zeKernelSuggestMaxCooperativeGroupCount(meet, &groups_at_once));
    constexpr uint32_t group_size = 8;
    int *arrived = static_cast<int *>(device_memory(d, sizeof(int)));
    int *seen = static_cast<int *>(device_memory(d, groups_at_once * group_size * sizeof(int)));
    ASSERT_NE(nullptr, seen);
    *arrived = 0;
    ZE_ASSERT_OK(zeKernelSetGroupSize(meet, group_size, 1, 1));
    ZE_ASSERT_OK(zeKernelSetArgumentValue(meet, 0, sizeof(arrived), &arrived));
    ZE_ASSERT_OK(zeKernelSetArgumentValue(meet, 1, sizeof(seen), &seen));
    const unsigned root_threads = share(from_environment("ZEAL_CPU_THREADS"), unsigned(roots.size()), 0);
    const unsigned sub_count = unsigned(subs[0].size());
    EXPECT_EQ(64 * (d == roots[0] ? root_threads : share(root_threads, sub_count, sub_count - 1)), groups_at_once)
        << "groups of 8: 64 per thread of the device";

    // Every thread of the device's pool spins in `hold` until the cooperative launch has ended (or timed out).
    ze_kernel_handle_t hold = kernel(m, "hold");
    int *release = static_cast<int *>(device_memory(d, sizeof(int)));
    ASSERT_NE(nullptr, release);
    *release = 0;
    ZE_ASSERT_OK(zeKernelSetArgumentValue(hold, 0, sizeof(release), &release));
    ze_event_handle_t held = event(), met = event();
    ze_group_count_t many{256, 1, 1};
    ZE_ASSERT_OK(zeCommandListAppendLaunchKernel(immediate_list_on(d), hold, &many, held, 0, nullptr));

    ze_group_count_t groups{groups_at_once, 1, 1};
    ZE_ASSERT_OK(zeCommandListAppendLaunchCooperativeKernel(immediate_list_on(d), meet, &groups, met, 0, nullptr));
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(met, 60'000'000'000ull))
        << "the cooperative launch waits for the pool's threads";
    __atomic_store_n(release, 1, __ATOMIC_SEQ_CST);
    ZE_ASSERT_OK(zeEventHostSynchronize(held, UINT64_MAX));
    ZE_ASSERT_OK(zeEventHostSynchronize(met, UINT64_MAX));
    EXPECT_EQ(int(groups_at_once), *arrived);
    EXPECT_EQ(groups_at_once * group_size,
              size_t(std::count(seen, seen + groups_at_once * group_size, int(groups_at_once))));

    ze_command_list_handle_t list = synchronous_list_on(d);
    ze_group_count_t too_many{groups_at_once + 1, 1, 1};
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandListAppendLaunchCooperativeKernel(list, meet, &too_many, nullptr, 0, nullptr));
    ze_group_count_t two_d{groups_at_once, 2, 1};
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
              zeCommandListAppendLaunchCooperativeKernel(list, meet, &two_d, nullptr, 0, nullptr));
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
              zeCommandListAppendLaunchCooperativeKernel(list, meet, nullptr, nullptr, 0, nullptr));
  }
}

// A context made for one root's sub-devices only: allocations, lists and launches on them.
TEST_F(Devices, AContextOfSubDevicesAloneRunsWorkOnThem) {
  ASSERT_GE(subs.back().size(), 2u);
  ze_context_handle_t own = nullptr;
  auto desc = ze_desc<ze_context_desc_t>();
  ZE_ASSERT_OK(zeContextCreateEx(driver, &desc, uint32_t(subs.back().size()), subs.back().data(), &own));
  ze_device_handle_t d = subs.back()[1];
  ze_device_mem_alloc_desc_t device_desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
  int *out = nullptr;
  ZE_ASSERT_OK(zeMemAllocDevice(own, &device_desc, 256 * sizeof(int), 64, d, reinterpret_cast<void **>(&out)));
  fill_with_kernel(own, d, out, 256, 42);
  EXPECT_EQ(256, std::count(out, out + 256, 42));
  ZE_EXPECT_OK(zeMemFree(own, out));
  ZE_EXPECT_OK(zeContextDestroy(own));
}

} // namespace
} // namespace zeal::cpu::test
