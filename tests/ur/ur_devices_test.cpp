// Several devices through the UR face, with the CPU driver split into two root devices of two sub-devices
// (ctest sets ZEAL_CPU_DEVICES=2, ZEAL_CPU_SUBDEVICES=2): partitioning into sub-devices, and programs and kernels
// for contexts of several devices, each launch running the code of its queue's device.
#include "ur_program_fixture.hpp"

#include <algorithm>
#include <numeric>

namespace zeal_ur_test {
namespace {

ur_device_partition_property_t by_domain(ur_device_affinity_domain_flags_t domain) {
  ur_device_partition_property_t p{};
  p.type = UR_DEVICE_PARTITION_BY_AFFINITY_DOMAIN;
  p.value.affinity_domain = domain;
  return p;
}

ur_device_partition_properties_t properties_of(const ur_device_partition_property_t *p, size_t count = 1) {
  return {UR_STRUCTURE_TYPE_DEVICE_PARTITION_PROPERTIES, nullptr, p, count};
}

class UrDevices : public UrPrograms {
protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(UrFace::SetUp());
    uint32_t n = 0;
    UR_ASSERT_OK(urDeviceGet(platform, UR_DEVICE_TYPE_ALL, 0, nullptr, &n));
    roots.resize(n);
    UR_ASSERT_OK(urDeviceGet(platform, UR_DEVICE_TYPE_ALL, n, roots.data(), nullptr));
    ASSERT_EQ(2u, roots.size()) << "ctest runs this suite with ZEAL_CPU_DEVICES=2";
    for (ur_device_handle_t root : roots) {
      std::vector<ur_device_handle_t> subs = partition(root);
      ASSERT_EQ(2u, subs.size()) << "ctest runs this suite with ZEAL_CPU_SUBDEVICES=2";
      sub_devices.push_back(subs);
    }
  }
  void TearDown() override {
    for (ur_queue_handle_t q : queues) {
      UR_EXPECT_OK(urQueueRelease(q));
    }
    for (void *p : allocations) {
      UR_EXPECT_OK(urUSMFree(context, p));
    }
    UrPrograms::TearDown();
  }

  static std::vector<ur_device_handle_t> partition(ur_device_handle_t device) {
    const ur_device_partition_property_t next = by_domain(UR_DEVICE_AFFINITY_DOMAIN_FLAG_NEXT_PARTITIONABLE);
    const ur_device_partition_properties_t properties = properties_of(&next);
    uint32_t count = 0;
    EXPECT_EQ(UR_RESULT_SUCCESS, urDevicePartition(device, &properties, 0, nullptr, &count));
    std::vector<ur_device_handle_t> subs(count);
    if (count > 0) {
      EXPECT_EQ(UR_RESULT_SUCCESS, urDevicePartition(device, &properties, count, subs.data(), nullptr));
    }
    return subs;
  }

  // The context of the test: `devices`, in that order.
  void make_context(std::vector<ur_device_handle_t> devices) {
    context_devices = std::move(devices);
    UR_ASSERT_OK(urContextCreate(static_cast<uint32_t>(context_devices.size()), context_devices.data(), nullptr,
                                 &context));
  }
  ur_queue_handle_t queue_on(ur_device_handle_t d) {
    ur_queue_handle_t q = nullptr;
    EXPECT_EQ(UR_RESULT_SUCCESS, urQueueCreate(context, d, nullptr, &q)) << error();
    if (q != nullptr) queues.push_back(q);
    return q;
  }
  int *shared_ints(size_t count) {
    void *p = nullptr;
    EXPECT_EQ(UR_RESULT_SUCCESS, urUSMSharedAlloc(context, context_devices.front(), nullptr, nullptr,
                                                  count * sizeof(int), &p));
    if (p != nullptr) allocations.push_back(p);
    return static_cast<int *>(p);
  }
  template <class T>
  T info_on(ur_device_handle_t d, ur_device_info_t key) {
    return info_value<T>([&](size_t size, void *value, size_t *ret) { return urDeviceGetInfo(d, key, size, value, ret); });
  }
  size_t info_size(ur_device_handle_t d, ur_device_info_t key) {
    size_t size = 0;
    EXPECT_EQ(UR_RESULT_SUCCESS, urDeviceGetInfo(d, key, 0, nullptr, &size));
    return size;
  }
  std::vector<ur_device_handle_t> program_devices(ur_program_handle_t p) {
    const std::vector<uint8_t> bytes = info_bytes(program_info(p, UR_PROGRAM_INFO_DEVICES));
    std::vector<ur_device_handle_t> devices(bytes.size() / sizeof(ur_device_handle_t));
    std::memcpy(devices.data(), bytes.data(), bytes.size());
    return devices;
  }
  ur_program_build_status_t status_on(ur_program_handle_t p, ur_device_handle_t d) {
    ur_program_build_status_t status{};
    EXPECT_EQ(UR_RESULT_SUCCESS,
              urProgramGetBuildInfo(p, d, UR_PROGRAM_BUILD_INFO_STATUS, sizeof(status), &status, nullptr))
        << error();
    return status;
  }
  // scale(out, factor) over `count` items of `out` on `q`: out[i] = i * factor.
  ur_result_t scale(ur_queue_handle_t q, ur_kernel_handle_t k, int *out, size_t count, const int *factor) {
    const ur_exp_kernel_arg_properties_t args[] = {pointer(0, out), value(1, factor)};
    const size_t global = count;
    return urEnqueueKernelLaunchWithArgsExp(q, k, 1, nullptr, &global, nullptr, 2, args, nullptr, 0, nullptr,
                                            nullptr);
  }

  std::vector<ur_device_handle_t> roots;
  std::vector<std::vector<ur_device_handle_t>> sub_devices;
  std::vector<ur_device_handle_t> context_devices;
  std::vector<ur_queue_handle_t> queues;
  std::vector<void *> allocations;
};

TEST_F(UrDevices, RootDevicesAreLevelZerosSubDevicesAffinityDomains) {
  for (size_t r = 0; r < roots.size(); ++r) {
    ur_device_handle_t root = roots[r];
    EXPECT_EQ(nullptr, info_on<ur_device_handle_t>(root, UR_DEVICE_INFO_PARENT_DEVICE));
    EXPECT_EQ(UR_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
              info_on<ur_device_partition_t>(root, UR_DEVICE_INFO_SUPPORTED_PARTITIONS));
    EXPECT_EQ(sizeof(ur_device_partition_t), info_size(root, UR_DEVICE_INFO_SUPPORTED_PARTITIONS));
    EXPECT_EQ(2u, info_on<uint32_t>(root, UR_DEVICE_INFO_PARTITION_MAX_SUB_DEVICES));
    EXPECT_EQ(ur_device_affinity_domain_flags_t{UR_DEVICE_AFFINITY_DOMAIN_FLAG_NUMA |
                                                UR_DEVICE_AFFINITY_DOMAIN_FLAG_NEXT_PARTITIONABLE},
              info_on<ur_device_affinity_domain_flags_t>(root, UR_DEVICE_INFO_PARTITION_AFFINITY_DOMAIN));
    EXPECT_EQ(0u, info_size(root, UR_DEVICE_INFO_PARTITION_TYPE));
    // NUMA gives the same sub-devices, and so does every call.
    const ur_device_partition_property_t numa = by_domain(UR_DEVICE_AFFINITY_DOMAIN_FLAG_NUMA);
    const ur_device_partition_properties_t properties = properties_of(&numa);
    ur_device_handle_t again[2] = {};
    UR_ASSERT_OK(urDevicePartition(root, &properties, 2, again, nullptr)) << error();
    EXPECT_EQ(sub_devices[r], std::vector<ur_device_handle_t>(again, again + 2));
    ur_device_handle_t first = nullptr;
    UR_ASSERT_OK(urDevicePartition(root, &properties, 1, &first, nullptr)) << error();
    EXPECT_EQ(sub_devices[r][0], first);
    for (size_t s = 0; s < 2; ++s) {
      ur_device_handle_t sub = sub_devices[r][s];
      EXPECT_EQ(root, info_on<ur_device_handle_t>(sub, UR_DEVICE_INFO_PARENT_DEVICE));
      const auto type = info_on<ur_device_partition_property_t>(sub, UR_DEVICE_INFO_PARTITION_TYPE);
      EXPECT_EQ(UR_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, type.type);
      EXPECT_EQ(ur_device_affinity_domain_flags_t{UR_DEVICE_AFFINITY_DOMAIN_FLAG_NUMA}, type.value.affinity_domain);
      EXPECT_EQ(0u, info_size(sub, UR_DEVICE_INFO_SUPPORTED_PARTITIONS));
      EXPECT_EQ(0u, info_on<uint32_t>(sub, UR_DEVICE_INFO_PARTITION_MAX_SUB_DEVICES));
      EXPECT_NE(std::string::npos, device_name(sub).find("device " + std::to_string(r) + " sub-device " + std::to_string(s))) << device_name(sub);
      UR_EXPECT_OK(urDeviceRetain(sub));
      UR_EXPECT_OK(urDeviceRelease(sub));
      // The native handle leads back to the same sub-device.
      auto native = native_of(urDeviceGetNativeHandle, sub);
      UR_ASSERT_OK(native.result);
      ur_device_handle_t found = nullptr;
      UR_ASSERT_OK(urDeviceCreateWithNativeHandle(native.handle, adapter, nullptr, &found)) << error();
      EXPECT_EQ(sub, found);
    }
  }
}

TEST_F(UrDevices, PartitionsZealCannotMakeAreRefusedWithASentence) {
  ur_device_handle_t root = roots[0];
  ur_device_handle_t out[2] = {};
  uint32_t count = 0;
  ur_device_partition_property_t equally{};
  equally.type = UR_DEVICE_PARTITION_EQUALLY;
  equally.value.equally = 1;
  ur_device_partition_properties_t properties = properties_of(&equally);
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE, urDevicePartition(root, &properties, 2, out, nullptr));
  if (zeal_sees_bad_input()) {
    EXPECT_NE(std::string::npos, error().find("splits only by affinity domain")) << error();
  }
  const ur_device_partition_property_t l2 = by_domain(UR_DEVICE_AFFINITY_DOMAIN_FLAG_L2_CACHE);
  properties = properties_of(&l2);
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE, urDevicePartition(root, &properties, 0, nullptr, &count));
  const ur_device_partition_property_t two[] = {by_domain(UR_DEVICE_AFFINITY_DOMAIN_FLAG_NUMA),
                                                by_domain(UR_DEVICE_AFFINITY_DOMAIN_FLAG_NUMA)};
  properties = properties_of(two, 2);
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE, urDevicePartition(root, &properties, 0, nullptr, &count));
  // A sub-device has no sub-devices of its own.
  const ur_device_partition_property_t numa = by_domain(UR_DEVICE_AFFINITY_DOMAIN_FLAG_NUMA);
  properties = properties_of(&numa);
  EXPECT_EQ(UR_RESULT_ERROR_DEVICE_PARTITION_FAILED,
            urDevicePartition(sub_devices[0][1], &properties, 0, nullptr, &count));
  EXPECT_NE(std::string::npos, error().find("cannot be partitioned: it has 0 sub-devices")) << error();
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urDevicePartition(root, nullptr, 0, nullptr, &count));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urDevicePartition(nullptr, &properties, 0, nullptr, &count));
}

// One program for a context of both root devices and a sub-device of the second: built once, its kernel runs on
// a queue of each device, each into its own part of one shared allocation.
TEST_F(UrDevices, AProgramOfSeveralDevicesRunsOnAQueueOfEach) {
  ASSERT_NO_FATAL_FAILURE(make_context({roots[0], roots[1], sub_devices[1][0]}));
  ur_program_handle_t p = built("vector_add.spv");
  ASSERT_NE(nullptr, p);
  EXPECT_EQ(3u, info_value<uint32_t>(program_info(p, UR_PROGRAM_INFO_NUM_DEVICES)));
  EXPECT_EQ(context_devices, program_devices(p));
  EXPECT_EQ(3u, info_value<size_t>(program_info(p, UR_PROGRAM_INFO_NUM_KERNELS)));
  for (ur_device_handle_t d : context_devices) EXPECT_EQ(UR_PROGRAM_BUILD_STATUS_SUCCESS, status_on(p, d));
  // A device the program is not for: the other sub-device of the second root.
  ur_program_build_status_t status{};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_DEVICE,
            urProgramGetBuildInfo(p, sub_devices[1][1], UR_PROGRAM_BUILD_INFO_STATUS, sizeof status, &status, nullptr));
  EXPECT_NE(std::string::npos, error().find("urProgramGetBuildInfo: the program with kernels")) << error();
  EXPECT_NE(std::string::npos, error().find("for 3 devices is not for device '" + device_name(sub_devices[1][1])))
      << error();

  ur_kernel_handle_t k = kernel(p, "scale");
  ASSERT_NE(nullptr, k);
  EXPECT_EQ(p, info_value<ur_program_handle_t>(kernel_info(k, UR_KERNEL_INFO_PROGRAM)));
  EXPECT_EQ("scale", info_string(kernel_info(k, UR_KERNEL_INFO_FUNCTION_NAME)));
  for (ur_device_handle_t d : context_devices) {
    size_t most = 0;
    UR_EXPECT_OK(urKernelGetGroupInfo(k, d, UR_KERNEL_GROUP_INFO_WORK_GROUP_SIZE, sizeof most, &most, nullptr));
    EXPECT_GT(most, 0u);
    uint32_t compiled = 1;
    UR_EXPECT_OK(urKernelGetSubGroupInfo(k, d, UR_KERNEL_SUB_GROUP_INFO_SUB_GROUP_SIZE_INTEL, sizeof compiled,
                                         &compiled, nullptr));
    EXPECT_EQ(0u, compiled);
  }
  size_t most = 0;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_DEVICE, urKernelGetGroupInfo(k, sub_devices[0][0], UR_KERNEL_GROUP_INFO_WORK_GROUP_SIZE,
                                                                 sizeof most, &most, nullptr));
  const bool indirect = true;
  UR_EXPECT_OK(urKernelSetExecInfo(k, UR_KERNEL_EXEC_INFO_USM_INDIRECT_ACCESS, sizeof(ur_bool_t), nullptr, &indirect));

  constexpr size_t kPart = 256;
  int *out = shared_ints(kPart * context_devices.size());
  ASSERT_NE(nullptr, out);
  std::vector<int> factors(context_devices.size());
  std::iota(factors.begin(), factors.end(), 2);
  for (size_t i = 0; i < context_devices.size(); ++i) {
    ur_queue_handle_t q = queue_on(context_devices[i]);
    ASSERT_NE(nullptr, q);
    UR_ASSERT_OK(scale(q, k, out + i * kPart, kPart, &factors[i])) << error();
  }
  for (ur_queue_handle_t q : queues) UR_ASSERT_OK(urQueueFinish(q));
  for (size_t i = 0; i < context_devices.size(); ++i)
    for (size_t j = 0; j < kPart; ++j) ASSERT_EQ(static_cast<int>(j) * factors[i], out[i * kPart + j]) << i << " " << j;

  // The binaries, one per device, make a program for the devices they are given for.
  const std::vector<uint8_t> size_bytes = info_bytes(program_info(p, UR_PROGRAM_INFO_BINARY_SIZES));
  ASSERT_EQ(3 * sizeof(size_t), size_bytes.size());
  size_t sizes[3] = {};
  std::memcpy(sizes, size_bytes.data(), sizeof sizes);
  std::vector<std::vector<uint8_t>> binaries;
  uint8_t *buffers[3] = {};
  for (size_t i = 0; i < 3; ++i) {
    ASSERT_GT(sizes[i], 0u);
    binaries.emplace_back(sizes[i]);
    buffers[i] = binaries.back().data();
  }
  UR_ASSERT_OK(urProgramGetInfo(p, UR_PROGRAM_INFO_BINARIES, sizeof buffers, buffers, nullptr)) << error();
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, urProgramGetInfo(p, UR_PROGRAM_INFO_BINARIES, sizeof(uint8_t *), buffers, nullptr));
  ur_device_handle_t two[] = {context_devices[2], context_devices[0]};
  size_t lengths[] = {sizes[2], sizes[0]};
  const uint8_t *bytes[] = {binaries[2].data(), binaries[0].data()};
  ur_program_handle_t from_binaries = nullptr;
  // A missing binary is a bad value.
  const uint8_t *missing[] = {binaries[2].data(), nullptr};
  ur_program_handle_t refused = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE, urProgramCreateWithBinary(context, 2, two, lengths, missing, nullptr, &refused));
  UR_ASSERT_OK(urProgramCreateWithBinary(context, 2, two, lengths, bytes, nullptr, &from_binaries)) << error();
  keep(from_binaries);
  EXPECT_EQ(std::vector<ur_device_handle_t>(two, two + 2), program_devices(from_binaries));
  // Native binaries are compiled already: only IL compiles, and only compiled IL links.
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_OPERATION, urProgramCompile(context, from_binaries, nullptr));
  EXPECT_NE(std::string::npos, error().find("native binary")) << error();
  ur_program_handle_t linked = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_OPERATION, urProgramLink(context, 1, &from_binaries, nullptr, &linked));
  // Built for one device, then the other, then the first again: a built program builds again as a no-op.
  UR_ASSERT_OK(urProgramBuildExp(from_binaries, 1, &two[0], 0, nullptr)) << error();
  UR_ASSERT_OK(urProgramBuildExp(from_binaries, 1, &two[1], 0, nullptr)) << error();
  UR_ASSERT_OK(urProgramBuildExp(from_binaries, 1, &two[0], 0, nullptr)) << error();
  UR_ASSERT_OK(urProgramBuild(context, from_binaries, nullptr)) << error();
  ur_kernel_handle_t again = kernel(from_binaries, "scale");
  ASSERT_NE(nullptr, again);
  const int seven = 7;
  UR_ASSERT_OK(scale(queues[2], again, out, kPart, &seven)) << error();
  UR_ASSERT_OK(urQueueFinish(queues[2]));
  EXPECT_EQ(7 * 100, out[100]);
  // Not for the second root device: its queue has no code to run.
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_DEVICE, scale(queues[1], again, out, kPart, &seven));
  EXPECT_NE(std::string::npos, error().find("not for device '" + device_name(roots[1]) + "'")) << error();
}

// The *Exp forms build for the devices they list: the others stay unbuilt, and a kernel has no code for them.
TEST_F(UrDevices, BuildingForSomeDevicesLeavesTheOthersUnbuilt) {
  ASSERT_NO_FATAL_FAILURE(make_context({roots[0], roots[1]}));
  ur_program_handle_t p = with_il("vector_add.spv");
  ASSERT_NE(nullptr, p);
  UR_ASSERT_OK(urProgramBuildExp(p, 1, &roots[1], 0, nullptr)) << error();
  EXPECT_EQ(UR_PROGRAM_BUILD_STATUS_NONE, status_on(p, roots[0]));
  EXPECT_EQ(UR_PROGRAM_BUILD_STATUS_SUCCESS, status_on(p, roots[1]));
  ur_kernel_handle_t k = kernel(p, "scale");
  ASSERT_NE(nullptr, k);
  int *out = shared_ints(64);
  const int three = 3;
  ur_queue_handle_t q0 = queue_on(roots[0]);
  ur_queue_handle_t q1 = queue_on(roots[1]);
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE, scale(q0, k, out, 64, &three));
  EXPECT_NE(std::string::npos, error().find("has no code for device '" + device_name(roots[0]) + "'")) << error();
  UR_ASSERT_OK(scale(q1, k, out, 64, &three)) << error();
  UR_ASSERT_OK(urQueueFinish(q1));
  EXPECT_EQ(3 * 63, out[63]);
  // A device listed twice, or one the program is not for, is refused.
  ur_device_handle_t twice[] = {roots[0], roots[0]};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_DEVICE, urProgramBuildExp(p, 2, twice, 0, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_DEVICE, urProgramBuildExp(p, 1, &sub_devices[0][0], 0, nullptr));
  // A program none of whose devices is built has no kernels to make.
  ur_program_handle_t unbuilt = with_il("vector_add.spv");
  ur_kernel_handle_t none = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE, urKernelCreate(unbuilt, "scale", &none));
}

// Objects compiled for two devices link into a program for both; a failed link returns a program holding each
// device's log.
TEST_F(UrDevices, LinkingMakesAProgramForEachDeviceOfTheObjects) {
  ASSERT_NO_FATAL_FAILURE(make_context({roots[0], roots[1]}));
  ur_program_handle_t app = compiled("link_app.spv");
  ur_program_handle_t lib = compiled("link_lib.spv");
  const ur_program_handle_t objects[] = {app, lib};
  ur_program_handle_t exe = nullptr;
  UR_ASSERT_OK(urProgramLink(context, 2, objects, nullptr, &exe)) << error();
  keep(exe);
  EXPECT_EQ(context_devices, program_devices(exe));
  ur_kernel_handle_t k = kernel(exe, "app_kernel");
  ASSERT_NE(nullptr, k);
  int *out = shared_ints(32);
  for (ur_device_handle_t d : context_devices) {
    std::fill(out, out + 32, 0);
    ur_queue_handle_t q = queue_on(d);
    const ur_exp_kernel_arg_properties_t args[] = {pointer(0, out)};
    const size_t global = 32;
    UR_ASSERT_OK(urEnqueueKernelLaunchWithArgsExp(q, k, 1, nullptr, &global, nullptr, 1, args, nullptr, 0, nullptr,
                                                  nullptr))
        << error();
    UR_ASSERT_OK(urQueueFinish(q));
    EXPECT_EQ(2 * (31 + 1000), out[31]);
  }
  // For one of the devices only.
  ur_program_handle_t one = nullptr;
  UR_ASSERT_OK(urProgramLinkExp(context, 1, &roots[1], 0, 2, objects, nullptr, &one)) << error();
  keep(one);
  EXPECT_EQ(std::vector<ur_device_handle_t>{roots[1]}, program_devices(one));

  ur_program_handle_t importer = compiled("link_two_imports.spv");
  ur_program_handle_t failed = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_PROGRAM_LINK_FAILURE, urProgramLink(context, 1, &importer, nullptr, &failed));
  ASSERT_NE(nullptr, failed);
  keep(failed);
  for (ur_device_handle_t d : context_devices) {
    const std::string log = info_string([&](size_t size, void *value, size_t *ret) {
      return urProgramGetBuildInfo(failed, d, UR_PROGRAM_BUILD_INFO_LOG, size, value, ret);
    });
    EXPECT_NE(std::string::npos, log.find("imports 'add_offset'")) << log;
    EXPECT_EQ(UR_PROGRAM_BUILD_STATUS_ERROR, status_on(failed, d));
  }
}

// Native handles: a Level Zero module or kernel does not say which device it is for, so adopting one needs a
// program of one device; the handles a program of several gives are its first device's.
TEST_F(UrDevices, NativeHandlesOfSeveralDevicesAreTheFirstDevices) {
  ASSERT_NO_FATAL_FAILURE(make_context({roots[1], roots[0]}));
  ur_program_handle_t p = built("vector_add.spv");
  ur_kernel_handle_t k = kernel(p, "scale");
  ASSERT_NE(nullptr, k);
  auto module = native_of(urProgramGetNativeHandle, p);
  UR_ASSERT_OK(module.result) << error();
  auto ze_kernel = native_of(urKernelGetNativeHandle, k);
  UR_ASSERT_OK(ze_kernel.result) << error();
  ur_program_handle_t adopted = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
            urProgramCreateWithNativeHandle(module.handle, context, nullptr, &adopted));
  EXPECT_NE(std::string::npos, error().find("the context has 2 devices")) << error();
  ur_kernel_handle_t adopted_kernel = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
            urKernelCreateWithNativeHandle(ze_kernel.handle, context, p, nullptr, &adopted_kernel));
  EXPECT_NE(std::string::npos, error().find("give a program of one device")) << error();
}

// Eight threads launch one kernel of a two-device program with their own arguments, half on each device's
// queues, at once.
TEST_F(UrDevices, ThreadsLaunchOneKernelOnBothDevicesAtOnce) {
  ASSERT_NO_FATAL_FAILURE(make_context({roots[0], roots[1]}));
  ur_program_handle_t p = built("vector_add.spv");
  ur_kernel_handle_t k = kernel(p, "scale");
  ASSERT_NE(nullptr, k);
  constexpr int kThreads = 8;
  constexpr size_t kPart = 512;
  int *out = shared_ints(kThreads * kPart);
  ASSERT_NE(nullptr, out);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ur_queue_handle_t q = nullptr;
      if (urQueueCreate(context, roots[t % 2], nullptr, &q) != UR_RESULT_SUCCESS) {
        ++failures;
        return;
      }
      const int factor = t + 1;
      for (int round = 0; round < 20; ++round)
        if (scale(q, k, out + t * kPart, kPart, &factor) != UR_RESULT_SUCCESS) ++failures;
      if (urQueueFinish(q) != UR_RESULT_SUCCESS) ++failures;
      urQueueRelease(q);
    });
  }
  for (auto &th : threads) th.join();
  EXPECT_EQ(0, failures.load());
  for (int t = 0; t < kThreads; ++t)
    for (size_t j = 0; j < kPart; ++j) ASSERT_EQ(static_cast<int>(j) * (t + 1), out[t * kPart + j]) << t << " " << j;
}

// Peer access between the CPU driver's root devices: each reaches the other's memory, atomics included, and
// enabling and disabling it succeed (Level Zero needs no enabling).
TEST_F(UrDevices, RootDevicesReachEachOthersMemory) {
  ur_bool_t p2p = false;
  UR_ASSERT_OK(urDeviceGetInfo(roots[0], UR_DEVICE_INFO_USM_P2P_SUPPORT_EXP, sizeof p2p, &p2p, nullptr));
  EXPECT_TRUE(p2p);
  for (ur_exp_peer_info_t key : {UR_EXP_PEER_INFO_UR_PEER_ACCESS_SUPPORT, UR_EXP_PEER_INFO_UR_PEER_ATOMICS_SUPPORT}) {
    int value = 0;
    size_t size = 0;
    UR_ASSERT_OK(urUsmP2PPeerAccessGetInfoExp(roots[0], roots[1], key, sizeof value, &value, &size)) << error();
    EXPECT_EQ(1, value);
    EXPECT_EQ(sizeof(int), size);
  }
  UR_EXPECT_OK(urUsmP2PEnablePeerAccessExp(roots[0], roots[1]));
  UR_EXPECT_OK(urUsmP2PDisablePeerAccessExp(roots[0], roots[1]));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urUsmP2PEnablePeerAccessExp(roots[0], nullptr));
}

} // namespace
} // namespace zeal_ur_test
