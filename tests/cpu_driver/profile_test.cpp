// Device profiles (ZEAL_CPU_PROFILE): run once per profile; what the device reports and which sub-group sizes build.
#include "test_support.hpp"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <string_view>

namespace zeal::cpu::test {
namespace {

struct ExpectedProfile {
  std::string_view name;
  std::vector<uint32_t> subgroup_sizes;
  uint32_t local_memory;
};

// What each profile promises; the process's profile comes from the environment ctest sets.
const ExpectedProfile &expected() {
  static const ExpectedProfile profiles[] = {
      {"host", {4, 8, 16, 32, 64}, 64 * 1024}, {"pvc", {16, 32}, 128 * 1024}, {"dg2", {8, 16, 32}, 64 * 1024}};
  const char *env = std::getenv("ZEAL_CPU_PROFILE");
  std::string_view name = env ? env : "host";
  for (const ExpectedProfile &p : profiles) {
    if (p.name == name) return p;
  }
  ADD_FAILURE() << "ZEAL_CPU_PROFILE names no profile this test knows: " << name;
  return profiles[0];
}

std::string joined(const std::vector<uint32_t> &sizes) {
  std::string text;
  for (uint32_t s : sizes) text += (text.empty() ? "" : ", ") + std::to_string(s);
  return text;
}

using Profiles = CpuDriver;

TEST_F(Profiles, TheDeviceNamesItsProfileAndReportsItsLimits) {
  ze_device_properties_t props{};
  props.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  ZE_ASSERT_OK(zeDeviceGetProperties(device, &props));
  std::string name = props.name;
  EXPECT_EQ(0u, name.rfind("zeal CPU (", 0)) << name;
  EXPECT_NE(std::string::npos, name.find(std::string(expected().name) + " profile, ")) << name;
  ze_device_compute_properties_t compute{};
  compute.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
  ZE_ASSERT_OK(zeDeviceGetComputeProperties(device, &compute));
  std::vector<uint32_t> sizes(compute.subGroupSizes, compute.subGroupSizes + compute.numSubGroupSizes);
  EXPECT_EQ(expected().subgroup_sizes, sizes);
  EXPECT_EQ(expected().local_memory, compute.maxSharedLocalMemory);
  EXPECT_EQ(1024u, compute.maxTotalGroupSize);
  EXPECT_GT(props.numSlices * props.numSubslicesPerSlice * props.numEUsPerSubslice, 0u);
}

TEST_F(Profiles, AKernelRequiringASupportedSizeBuildsAndAnotherFailsNamingKernelSizeAndSizes) {
  for (uint32_t size : {4u, 8u, 16u, 32u, 64u}) {
    SCOPED_TRACE(fmt::format("intel_reqd_sub_group_size({})", size));
    ze_module_handle_t module = nullptr;
    std::string log;
    ze_result_t r = build(read_kernel(fmt::format("reqd_subgroup_{}.spv", size)), module, &log);
    const auto &supported = expected().subgroup_sizes;
    if (std::find(supported.begin(), supported.end(), size) == supported.end()) {
      EXPECT_EQ(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE, r);
      EXPECT_EQ(fmt::format("error: kernel 'reqd_subgroup' requires sub-group size {} (intel_reqd_sub_group_size), "
                            "which the {} profile does not support; supported sub-group sizes: {}\n",
                            size, expected().name, joined(supported)),
                log);
      continue;
    }
    ASSERT_EQ(ZE_RESULT_SUCCESS, r) << log;
    ze_kernel_properties_t props{};
  props.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
    ZE_ASSERT_OK(zeKernelGetProperties(kernel(module, "reqd_subgroup"), &props));
    EXPECT_EQ(size, props.requiredSubgroupSize);
    EXPECT_EQ(size, props.maxSubgroupSize);
    EXPECT_EQ(1024u / size, props.maxNumSubgroups);
    EXPECT_EQ(0u, props.requiredNumSubGroups);
  }
}

TEST_F(Profiles, AKernelRequiringNoSizeReportsThePrimarySize16) {
  ze_module_handle_t module = nullptr;
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, build(read_kernel("function_pointer.spv"), module, &log)) << log;
  ze_kernel_properties_t props{};
  props.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
  ZE_ASSERT_OK(zeKernelGetProperties(kernel(module, "call_through"), &props));
  EXPECT_EQ(0u, props.requiredSubgroupSize);
  EXPECT_EQ(16u, props.maxSubgroupSize);
  EXPECT_EQ(1024u / 16, props.maxNumSubgroups);
}

} // namespace
} // namespace zeal::cpu::test
