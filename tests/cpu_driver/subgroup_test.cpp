// Sub-groups through the loader: for every size the device reports, ids and sizes of a 3·S−1 work-group, kernel properties and
// two collectives, with collectives as region sync points (the default) and as fibers (-zeal-barriers=fibers).
#include "test_support.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

namespace zeal::cpu::test {
namespace {

class Subgroups : public CpuDriver, public ::testing::WithParamInterface<const char *> {
protected:
  void SetUp() override {
    CpuDriver::SetUp();
    if (HasFatalFailure()) return;
    ze_device_compute_properties_t compute{};
    compute.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
    ZE_ASSERT_OK(zeDeviceGetComputeProperties(device, &compute));
    sizes.assign(compute.subGroupSizes, compute.subGroupSizes + compute.numSubGroupSizes);
    ASSERT_FALSE(sizes.empty()) << "the device reports no sub-group size";
  }

  // The module built from subgroups.cl for required size `size` (0: no required size).
  ze_module_handle_t module_for(uint32_t size) {
    std::string name = size == 0 ? "subgroups_default.spv" : fmt::format("subgroups_{}.spv", size);
    ze_module_handle_t module = nullptr;
    std::string log;
    EXPECT_EQ(ZE_RESULT_SUCCESS, build(read_kernel(name), module, &log, GetParam())) << name << ": " << log;
    return module;
  }

  // Runs `k` as `groups` work-groups of `items` work-items on an immediate list and waits.
  void launch(ze_kernel_handle_t k, uint32_t items, uint32_t groups) {
    ZE_ASSERT_OK(zeKernelSetGroupSize(k, items, 1, 1));
    ZE_ASSERT_OK(launch_and_wait(k, {groups, 1, 1}));
  }

  // Kernel `name`'s arguments 0 and 1: shared arrays holding `host`, and -1 in each element; null on failure.
  ze_kernel_handle_t with_in_out(ze_module_handle_t module, const char *name, const std::vector<int> &host, int *&in,
                                 int *&out) {
    const size_t n = host.size();
    in = shared_array<int>(n);
    out = shared_array<int>(n);
    if (in == nullptr || out == nullptr) return nullptr;
    std::copy(host.begin(), host.end(), in);
    std::fill(out, out + n, -1);
    ze_kernel_handle_t k = kernel(module, name);
    if (k == nullptr || zeKernelSetArgumentValue(k, 0, sizeof(in), &in) != ZE_RESULT_SUCCESS ||
        zeKernelSetArgumentValue(k, 1, sizeof(out), &out) != ZE_RESULT_SUCCESS)
      return nullptr;
    return k;
  }

  // A collective's run for sub-group size S: two work-groups of 3·S−1 items (each ends in a partial sub-group),
  // inputs distinct per work-item so a wrong lane shows, and the kernel with its input and output set.
  struct TwoGroups {
    uint32_t items = 0, n = 0;
    std::vector<int> host;
    int *in = nullptr, *out = nullptr;
    ze_kernel_handle_t k = nullptr;
  };
  void two_groups(uint32_t s, const char *name, TwoGroups &run) {
    ze_module_handle_t module = module_for(s);
    ASSERT_NE(nullptr, module);
    run.items = 3 * s - 1;
    run.n = 2 * run.items;
    run.host.resize(run.n);
    for (uint32_t i = 0; i < run.n; ++i) run.host[i] = int(i * 7 % 101) - 40;
    run.k = with_in_out(module, name, run.host, run.in, run.out);
    ASSERT_NE(nullptr, run.k);
  }

  // Runs sg_ids over one work-group of `items` and checks every work-item against sub-groups of `size`.
  void expect_ids(ze_module_handle_t module, uint32_t size, uint32_t items) {
    ze_kernel_handle_t k = kernel(module, "sg_ids");
    uint32_t *out = shared_array<uint32_t>(items * 6);
    ASSERT_NE(nullptr, out);
    std::fill(out, out + items * 6, 0xdeadbeefu);
    ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 0, sizeof(out), &out));
    launch(k, items, 1);
    const uint32_t groups = (items + size - 1) / size;
    for (uint32_t l = 0; l < items; ++l) {
      SCOPED_TRACE(fmt::format("work-item {}", l));
      const uint32_t *o = out + l * 6;
      const uint32_t sg = l / size, lane = l % size;
      const uint32_t actual = sg + 1 < groups ? size : items - sg * size;
      EXPECT_EQ(actual, o[0]) << "get_sub_group_size";
      EXPECT_EQ(size, o[1]) << "get_max_sub_group_size";
      EXPECT_EQ(groups, o[2]) << "get_num_sub_groups";
      EXPECT_EQ(sg, o[3]) << "get_sub_group_id";
      EXPECT_EQ(lane, o[4]) << "get_sub_group_local_id";
      EXPECT_EQ(lane == 0 ? 1u : 0u, o[5]) << "sub_group_elect";
    }
  }

  std::vector<uint32_t> sizes;
};

TEST_P(Subgroups, EveryReportedSizeRunsThreeSubGroupsTheLastPartialWithOneLeaderEach) {
  for (uint32_t s : sizes) {
    SCOPED_TRACE(fmt::format("intel_reqd_sub_group_size({}), 3*{}-1 work-items", s, s));
    ze_module_handle_t module = module_for(s);
    ASSERT_NE(nullptr, module);
    expect_ids(module, s, 3 * s - 1); // ceil((3S-1)/S) = 3 sub-groups, the last of S-1 lanes
  }
}

TEST_P(Subgroups, KernelPropertiesReportTheRequiredSizeAsRequiredAndMaximum) {
  for (uint32_t s : sizes) {
    SCOPED_TRACE(fmt::format("intel_reqd_sub_group_size({})", s));
    ze_module_handle_t module = module_for(s);
    ASSERT_NE(nullptr, module);
    for (const char *name : {"sg_ids", "sg_reduce_add", "sg_shuffle_down"}) {
      ze_kernel_properties_t props{};
      props.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
      ZE_ASSERT_OK(zeKernelGetProperties(kernel(module, name), &props));
      EXPECT_EQ(s, props.requiredSubgroupSize) << name;
      EXPECT_EQ(s, props.maxSubgroupSize) << name;
    }
  }
}

TEST_P(Subgroups, AKernelWithoutARequiredSizeRunsWithThePrimarySize16) {
  ze_module_handle_t module = module_for(0);
  ASSERT_NE(nullptr, module);
  ze_kernel_properties_t props{};
  props.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
  ZE_ASSERT_OK(zeKernelGetProperties(kernel(module, "sg_ids"), &props));
  EXPECT_EQ(0u, props.requiredSubgroupSize);
  EXPECT_EQ(16u, props.maxSubgroupSize);
  expect_ids(module, 16, 3 * 16 - 1);
  expect_ids(module, 16, 100);
}

TEST_P(Subgroups, SubGroupReduceAddMatchesTheHostSumOfEachSubGroup) {
  for (uint32_t s : sizes) {
    SCOPED_TRACE(fmt::format("intel_reqd_sub_group_size({})", s));
    TwoGroups run;
    ASSERT_NO_FATAL_FAILURE(two_groups(s, "sg_reduce_add", run));
    const uint32_t items = run.items, n = run.n;
    const std::vector<int> &host = run.host;
    launch(run.k, items, 2);
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t group = i / items, l = i % items, first = group * items + l / s * s;
      const uint32_t last = std::min(first + s, (group + 1) * items);
      int sum = 0;
      for (uint32_t j = first; j < last; ++j) sum += host[j];
      EXPECT_EQ(sum, run.out[i]) << "work-item " << i << " (sub-group " << l / s << " of group " << group << ")";
    }
  }
}

TEST_P(Subgroups, IntelShuffleDownTakesFromCurrentThenNextLikeTheHostReference) {
  constexpr uint32_t delta = 3;
  for (uint32_t s : sizes) {
    SCOPED_TRACE(fmt::format("intel_reqd_sub_group_size({}), delta {}", s, delta));
    TwoGroups run;
    ASSERT_NO_FATAL_FAILURE(two_groups(s, "sg_shuffle_down", run));
    const uint32_t items = run.items, n = run.n;
    const std::vector<int> &host = run.host;
    ZE_ASSERT_OK(zeKernelSetArgumentValue(run.k, 2, sizeof(delta), &delta));
    launch(run.k, items, 2);
    uint32_t checked = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t group = i / items, l = i % items, lane = l % s, first = group * items + l / s * s;
      const uint32_t actual = std::min(first + s, (group + 1) * items) - first;
      // Past the end of `current`, lanes read `next` from lane - S (cl_intel_subgroups, by the maximum size).
      const uint32_t from = lane + delta < s ? lane + delta : lane + delta - s;
      // A source lane missing from a partial sub-group is undefined by the extension; the rest must match.
      if (from >= actual) continue;
      const int expected = lane + delta < s ? host[first + from] : host[first + from] + 1000;
      EXPECT_EQ(expected, run.out[i]) << "work-item " << i << " (lane " << lane << ")";
      ++checked;
    }
    // Full sub-groups check every lane; each group's partial one skips only the lane reading its missing lane S-1.
    EXPECT_EQ(n - 2, checked);
  }
}

INSTANTIATE_TEST_SUITE_P(Schemes, Subgroups, ::testing::Values("", "-zeal-barriers=fibers"),
                         [](const auto &tested) { return std::string(*tested.param ? "fibers" : "regions"); });

} // namespace
} // namespace zeal::cpu::test
