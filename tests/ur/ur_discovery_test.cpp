// The adapter, its platforms, devices and contexts through UR's loader: what a SYCL runtime reads at start-up,
// the same answers as the zeal C ABI, and the UR codes for bad input.
#include "tests/support/capture_stderr.hpp"
#include "ur_fixture.hpp"

#include <level_zero/ze_api.h>

#include <algorithm>
#include <cstdlib>
#include <regex>

namespace zeal_ur_test {
namespace {

TEST_F(UrFace, TheAdapterReportsLevelZeroAndAVersion) {
  auto get = [&](ur_adapter_info_t key) {
    return [this, key](size_t size, void *value, size_t *ret) { return urAdapterGetInfo(adapter, key, size, value, ret); };
  };
  EXPECT_EQ(UR_BACKEND_LEVEL_ZERO, info_value<ur_backend_t>(get(UR_ADAPTER_INFO_BACKEND)));
  EXPECT_EQ(1u, info_value<uint32_t>(get(UR_ADAPTER_INFO_VERSION)));
  EXPECT_GE(info_value<uint32_t>(get(UR_ADAPTER_INFO_REFERENCE_COUNT)), 1u);
}

TEST_F(UrFace, GivenAnotherAdapterReference_ThenRetainAndReleaseBalance) {
  uint32_t before = 0, after = 0;
  UR_ASSERT_OK(urAdapterGetInfo(adapter, UR_ADAPTER_INFO_REFERENCE_COUNT, sizeof(before), &before, nullptr));
  UR_ASSERT_OK(urAdapterRetain(adapter));
  UR_ASSERT_OK(urAdapterGetInfo(adapter, UR_ADAPTER_INFO_REFERENCE_COUNT, sizeof(after), &after, nullptr));
  EXPECT_EQ(before + 1, after);
  UR_ASSERT_OK(urAdapterRelease(adapter));
}

TEST_F(UrFace, ThePlatformSaysZealAndLevelZero) {
  auto get = [&](ur_platform_info_t key) {
    return [this, key](size_t size, void *value, size_t *ret) { return urPlatformGetInfo(platform, key, size, value, ret); };
  };
  EXPECT_NE(std::string::npos, info_string(get(UR_PLATFORM_INFO_NAME)).find("zeal"));
  EXPECT_EQ("zeal", info_string(get(UR_PLATFORM_INFO_VENDOR_NAME)));
  EXPECT_FALSE(info_string(get(UR_PLATFORM_INFO_VERSION)).empty());
  EXPECT_EQ(UR_BACKEND_LEVEL_ZERO, info_value<ur_backend_t>(get(UR_PLATFORM_INFO_BACKEND)));
  EXPECT_EQ(adapter, info_value<ur_adapter_handle_t>(get(UR_PLATFORM_INFO_ADAPTER)));
  ur_api_version_t version{};
  UR_ASSERT_OK(urPlatformGetApiVersion(platform, &version));
  EXPECT_EQ(UR_API_VERSION_CURRENT, version);
  ASSERT_TRUE(has_native_handle(urPlatformGetNativeHandle, platform)) << "the Level Zero driver handle";
}

TEST_F(UrFace, BackendOptionsAreLevelZeroSpellings) {
  const char *option = nullptr;
  UR_ASSERT_OK(urPlatformGetBackendOption(platform, "-O0", &option));
  EXPECT_STREQ("-ze-opt-disable", option);
  UR_ASSERT_OK(urPlatformGetBackendOption(platform, "-O3", &option));
  EXPECT_STREQ("-ze-opt-level=2", option);
  UR_ASSERT_OK(urPlatformGetBackendOption(platform, "", &option));
  EXPECT_STREQ("", option);
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE, urPlatformGetBackendOption(platform, "-fno-such-option", &option));
  EXPECT_EQ("urPlatformGetBackendOption: '-fno-such-option' is not a front-end option zeal knows", error());
}

TEST_F(UrFace, DevicesAreListedByType) {
  uint32_t all = 0, cpus = 0, gpus = 0;
  UR_ASSERT_OK(urDeviceGet(platform, UR_DEVICE_TYPE_ALL, 0, nullptr, &all));
  UR_ASSERT_OK(urDeviceGet(platform, UR_DEVICE_TYPE_CPU, 0, nullptr, &cpus));
  UR_ASSERT_OK(urDeviceGet(platform, UR_DEVICE_TYPE_GPU, 0, nullptr, &gpus));
  EXPECT_EQ(all, cpus + gpus);
  EXPECT_GE(cpus, 1u);
  std::vector<ur_device_handle_t> devices(all);
  UR_ASSERT_OK(urDeviceGet(platform, UR_DEVICE_TYPE_ALL, all, devices.data(), nullptr));
  EXPECT_NE(devices.end(), std::find(devices.begin(), devices.end(), device));
  // Asking for fewer fills that many.
  ur_device_handle_t first = nullptr;
  UR_ASSERT_OK(urDeviceGet(platform, UR_DEVICE_TYPE_ALL, 1, &first, nullptr));
  EXPECT_EQ(devices.front(), first);
}

TEST_F(UrFace, TheCpuDeviceDescribesItself) {
  auto get = [&](ur_device_info_t key) {
    return [this, key](size_t size, void *value, size_t *ret) { return urDeviceGetInfo(device, key, size, value, ret); };
  };
  EXPECT_EQ(UR_DEVICE_TYPE_CPU, info_value<ur_device_type_t>(get(UR_DEVICE_INFO_TYPE)));
  EXPECT_EQ("zeal", info_string(get(UR_DEVICE_INFO_VENDOR)));
  EXPECT_EQ(platform, info_value<ur_platform_handle_t>(get(UR_DEVICE_INFO_PLATFORM)));
  EXPECT_EQ(nullptr, info_value<ur_device_handle_t>(get(UR_DEVICE_INFO_PARENT_DEVICE)));
  EXPECT_EQ(3u, info_value<uint32_t>(get(UR_DEVICE_INFO_MAX_WORK_ITEM_DIMENSIONS)));
  EXPECT_GE(info_value<size_t>(get(UR_DEVICE_INFO_MAX_WORK_GROUP_SIZE)), 1u);
  EXPECT_GE(info_value<uint64_t>(get(UR_DEVICE_INFO_GLOBAL_MEM_SIZE)), 1u << 20);
  EXPECT_EQ(UR_DEVICE_LOCAL_MEM_TYPE_GLOBAL, info_value<ur_device_local_mem_type_t>(get(UR_DEVICE_INFO_LOCAL_MEM_TYPE)));
  EXPECT_TRUE(info_value<ur_bool_t>(get(UR_DEVICE_INFO_COMPILER_AVAILABLE)));
  EXPECT_NE(0u, info_value<ur_device_usm_access_capability_flags_t>(get(UR_DEVICE_INFO_USM_DEVICE_SUPPORT)) &
                    UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ACCESS);
  EXPECT_NE(std::string::npos, info_string(get(UR_DEVICE_INFO_IL_VERSION)).find("SPIR-V_1.0"));
  EXPECT_NE(std::string::npos, info_string(get(UR_DEVICE_INFO_EXTENSIONS)).find("cl_intel_required_subgroup_size"));
  auto native = native_of<ze_device_handle_t>(urDeviceGetNativeHandle, device);
  UR_ASSERT_OK(native.result);
  EXPECT_NE(nullptr, native.handle) << "the Level Zero device handle";
  // Intel's geometry keys are the Level Zero driver's device properties.
  ze_device_properties_t ze_props{};
  ze_props.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetProperties(native.handle, &ze_props));
  EXPECT_EQ(ze_props.numSlices, info_value<uint32_t>(get(UR_DEVICE_INFO_GPU_EU_SLICES)));
  EXPECT_EQ(ze_props.numSubslicesPerSlice, info_value<uint32_t>(get(UR_DEVICE_INFO_GPU_SUBSLICES_PER_SLICE)));
  EXPECT_EQ(ze_props.numEUsPerSubslice, info_value<uint32_t>(get(UR_DEVICE_INFO_GPU_EU_COUNT_PER_SUBSLICE)));
  EXPECT_EQ(ze_props.numThreadsPerEU, info_value<uint32_t>(get(UR_DEVICE_INFO_GPU_HW_THREADS_PER_EU)));
  EXPECT_EQ(ze_props.physicalEUSimdWidth, info_value<uint32_t>(get(UR_DEVICE_INFO_GPU_EU_SIMD_WIDTH)));
  EXPECT_EQ(ze_props.numSlices * ze_props.numSubslicesPerSlice * ze_props.numEUsPerSubslice,
            info_value<uint32_t>(get(UR_DEVICE_INFO_GPU_EU_COUNT)));
  UR_EXPECT_OK(urDeviceRetain(device));
  UR_EXPECT_OK(urDeviceRelease(device));
}

// Every key of UR's device enumeration either answers (and its size query agrees with its value query) or is
// UNSUPPORTED_ENUMERATION: never another code, never a crash.
TEST_F(UrFace, EveryDeviceInfoKeyAnswersOrIsUnsupported) {
  std::vector<int32_t> keys;
  for (int32_t k = UR_DEVICE_INFO_TYPE; k <= UR_DEVICE_INFO_EUS_PER_XE_CORE; ++k) keys.push_back(k);
  for (int32_t base : {0x1000, 0x2000, 0x3000, 0x4000, 0x5000, 0x6000, 0x7000, 0x8000, 0x9000})
    for (int32_t k = base; k < base + 0x20; ++k) keys.push_back(k);
  int answered = 0;
  for (int32_t k : keys) {
    ur_device_info_t key;
    std::memcpy(&key, &k, sizeof key);
    size_t size = 0;
    ur_result_t r = urDeviceGetInfo(device, key, 0, nullptr, &size);
    if (r == UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION || r == UR_RESULT_ERROR_INVALID_ENUMERATION) continue;
    ASSERT_EQ(UR_RESULT_SUCCESS, r) << "key " << k << ": " << error();
    std::vector<uint8_t> value(size + 1);
    size_t again = 0;
    ASSERT_EQ(UR_RESULT_SUCCESS, urDeviceGetInfo(device, key, value.size(), value.data(), &again)) << "key " << k;
    EXPECT_EQ(size, again) << "key " << k;
    ++answered;
  }
  EXPECT_GE(answered, 70);
}

// The facts SYCL's sub-group queries read are the zeal C ABI's answers, byte for byte.
TEST_F(UrFace, SubGroupFactsAreTheZealAbisAnswers) {
  ZealAbi zeal;
  ASSERT_NO_FATAL_FAILURE(zeal.open(device_name(device)));
  auto zeal_bytes = [&](zeal_device_info_t key) {
    return info_bytes([&](size_t size, void *value, size_t *ret) {
      return zeal.d.deviceGetInfo(zeal.device, key, size, value, ret);
    });
  };
  auto ur_bytes = [&](ur_device_info_t key) {
    return info_bytes([&](size_t size, void *value, size_t *ret) { return urDeviceGetInfo(device, key, size, value, ret); });
  };
  EXPECT_EQ(zeal_bytes(ZEAL_DEVICE_INFO_SUB_GROUP_SIZES), ur_bytes(UR_DEVICE_INFO_SUB_GROUP_SIZES_INTEL));
  EXPECT_EQ(zeal_bytes(ZEAL_DEVICE_INFO_MAX_NUM_SUB_GROUPS), ur_bytes(UR_DEVICE_INFO_MAX_NUM_SUB_GROUPS));
  EXPECT_EQ(zeal_bytes(ZEAL_DEVICE_INFO_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS)[0],
            ur_bytes(UR_DEVICE_INFO_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS)[0]);
  EXPECT_EQ(zeal_bytes(ZEAL_DEVICE_INFO_MAX_WORK_GROUP_SIZE), ur_bytes(UR_DEVICE_INFO_MAX_WORK_GROUP_SIZE));
  EXPECT_EQ(zeal_bytes(ZEAL_DEVICE_INFO_UUID), ur_bytes(UR_DEVICE_INFO_UUID));
  zeal.close();
}

TEST_F(UrFace, SpirvIsSelectedAmongBinaries) {
  ur_device_binary_t binaries[] = {
      {UR_STRUCTURE_TYPE_DEVICE_BINARY, nullptr, UR_DEVICE_BINARY_TARGET_NVPTX64},
      {UR_STRUCTURE_TYPE_DEVICE_BINARY, nullptr, UR_DEVICE_BINARY_TARGET_SPIRV64},
  };
  uint32_t selected = 99;
  UR_ASSERT_OK(urDeviceSelectBinary(device, binaries, 2, &selected));
  EXPECT_EQ(1u, selected);
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_BINARY, urDeviceSelectBinary(device, binaries, 1, &selected));
  EXPECT_EQ("none of the 1 binaries is SPIR-V (spir64 or spir), which device '" + device_name(device) + "' needs",
            error());
}

TEST_F(UrFace, AContextHoldsItsDeviceAndCounts) {
  ur_context_handle_t context = nullptr;
  UR_ASSERT_OK(urContextCreate(1, &device, nullptr, &context));
  auto get = [&](ur_context_info_t key) {
    return [context, key](size_t size, void *value, size_t *ret) { return urContextGetInfo(context, key, size, value, ret); };
  };
  EXPECT_EQ(1u, info_value<uint32_t>(get(UR_CONTEXT_INFO_NUM_DEVICES)));
  EXPECT_EQ(device, info_value<ur_device_handle_t>(get(UR_CONTEXT_INFO_DEVICES)));
  EXPECT_EQ(1u, info_value<uint32_t>(get(UR_CONTEXT_INFO_REFERENCE_COUNT)));
  UR_ASSERT_OK(urContextRetain(context));
  EXPECT_EQ(2u, info_value<uint32_t>(get(UR_CONTEXT_INFO_REFERENCE_COUNT)));
  UR_ASSERT_OK(urContextRelease(context));
  ASSERT_TRUE(has_native_handle(urContextGetNativeHandle, context)) << "the Level Zero context handle";
  UR_ASSERT_OK(urContextRelease(context));
}

// Bad input gets the code UR's spec lists and a sentence, with or without UR's validation layer in front.
TEST_F(UrFace, BadInputGetsTheSpecsCodes) {
  size_t size = 0;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urDeviceGetInfo(nullptr, UR_DEVICE_INFO_NAME, 0, nullptr, &size));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urPlatformGetInfo(nullptr, UR_PLATFORM_INFO_NAME, 0, nullptr, &size));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urDeviceGetInfo(device, UR_DEVICE_INFO_NAME, 0, nullptr, nullptr));
  char small[4];
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE, urDeviceGetInfo(device, UR_DEVICE_INFO_NAME, sizeof(small), small, nullptr));
  ur_device_info_t unknown;
  const int32_t k = 0x7ffffff0;
  std::memcpy(&unknown, &k, sizeof k);
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION, urDeviceGetInfo(device, unknown, 0, nullptr, &size));
  ur_device_type_t bad_type;
  const int32_t t = 99;
  std::memcpy(&bad_type, &t, sizeof t);
  uint32_t count = 0;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION, urDeviceGet(platform, bad_type, 0, nullptr, &count));
  ur_context_handle_t context = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urContextCreate(1, nullptr, nullptr, &context));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urContextRelease(nullptr));
}

// An entry point zeal does not implement answers UNSUPPORTED_FEATURE (SYCL's "absent"), never UNINITIALIZED.
TEST_F(UrFace, AnUnimplementedEntryPointIsUnsupported) {
  ur_context_handle_t context = nullptr;
  UR_ASSERT_OK(urContextCreate(1, &device, nullptr, &context));
  ur_usm_pool_desc_t desc{UR_STRUCTURE_TYPE_USM_POOL_DESC, nullptr, 0};
  ur_usm_pool_handle_t pool = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, urUSMPoolCreateExp(context, device, &desc, &pool))
      << "a device's own pools (the experimental pool API)";
  UR_ASSERT_OK(urContextRelease(context));
}

// ZEAL_TRACE=1 (the ur_face_test.trace entry) traces UR calls on the sink the zeal face's calls use: name,
// arguments, UR's result and duration; without it nothing is written.
TEST_F(UrFace, ZealTraceShowsUrCallsAndOnlyThen) {
  const char *trace = std::getenv("ZEAL_TRACE");
  const bool tracing = trace != nullptr && std::string(trace) == "1";
  size_t size = 0;
  const std::string text = zeal::test::capture_stderr([&] {
    EXPECT_EQ(UR_RESULT_SUCCESS, urPlatformGetInfo(platform, UR_PLATFORM_INFO_NAME, 0, nullptr, &size));
    EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urContextRetain(nullptr));
  });
  if (!tracing) {
    EXPECT_EQ(std::string::npos, text.find("[zeal-trace]")) << text;
    return;
  }
  const std::regex ok("\\[zeal-trace\\] urPlatformGetInfo\\(0x[0-9a-f]+, 1, 0, 0x0, 0x[0-9a-f]+\\) -> "
                      "UR_RESULT_SUCCESS in [0-9]+\\.[0-9] us");
  EXPECT_TRUE(std::regex_search(text, ok)) << text;
  const std::regex failed("\\[zeal-trace\\] urContextRetain\\(0x0\\) -> UR_RESULT_ERROR_INVALID_NULL_HANDLE in");
  EXPECT_TRUE(std::regex_search(text, failed)) << text;
}

} // namespace
} // namespace zeal_ur_test
