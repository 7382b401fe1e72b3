// Sub-group queries and enforcement on whatever sizes the device reports (run once per CPU driver profile).
#include "adapter_fixture.hpp"

#include <algorithm>
#include <cstring>

using namespace zeal_test;

namespace {

bool has(const std::vector<uint32_t> &sizes, uint32_t s) { return std::find(sizes.begin(), sizes.end(), s) != sizes.end(); }

uint32_t sub_group_info(zeal_kernel_handle_t k, zeal_device_handle_t dev, zeal_kernel_sub_group_info_t key,
                        const size_t *local = nullptr) {
  uint32_t v = 0;
  EXPECT_EQ(dispatch().kernelGetSubGroupInfo(k, dev, key, local, sizeof(v), &v, nullptr), ZEAL_RESULT_SUCCESS)
      << dispatch().getLastErrorMessage();
  return v;
}

} // namespace

class SubGroupTest : public AdapterTest {
protected:
  void SetUp() override {
    AdapterTest::SetUp();
    if (HasFatalFailure()) return;
    sizes = sub_group_sizes(device);
    ASSERT_FALSE(sizes.empty());
    program = build("sub_groups.spv");
    ASSERT_NE(program, nullptr);
    ls = alloc<uint32_t>(kItems);
  }
  void TearDown() override {
    if (ls) {
      EXPECT_EQ(d.usmFree(context, ls), ZEAL_RESULT_SUCCESS);
    }
    if (program) {
      EXPECT_EQ(d.programRelease(program), ZEAL_RESULT_SUCCESS);
    }
    AdapterTest::TearDown();
  }
  zeal_result_t run(zeal_kernel_handle_t k, size_t local) {
    std::fill(ls, ls + kItems, 0u);
    const zeal_kernel_arg_t args[] = {usm_arg(0, ls)};
    auto launch = launch_1d(kItems, local, 1, args);
    zeal_result_t r = d.enqueueKernelLaunch(queue, k, &launch, 0, nullptr, nullptr);
    if (r == ZEAL_RESULT_SUCCESS) {
      EXPECT_EQ(d.queueFinish(queue), ZEAL_RESULT_SUCCESS);
    }
    return r;
  }

  static constexpr size_t kItems = 256;
  std::vector<uint32_t> sizes;
  zeal_program_handle_t program = nullptr;
  uint32_t *ls = nullptr;
};

TEST_F(SubGroupTest, DeviceQueriesAreConsistentWithTheReportedSizes) {
  auto max_wg = device_value<size_t>(device, ZEAL_DEVICE_INFO_MAX_WORK_GROUP_SIZE);
  EXPECT_EQ(device_value<uint32_t>(device, ZEAL_DEVICE_INFO_MAX_NUM_SUB_GROUPS), max_wg / sizes.front());
  auto primary = device_value<uint32_t>(device, ZEAL_DEVICE_INFO_PRIMARY_SUB_GROUP_SIZE);
  EXPECT_TRUE(has(sizes, primary)) << primary << " not in " << sizes_text(sizes);
  // zeal's CPU driver runs a work-group's sub-groups on one thread, switching only at barriers.
  if (device_name.rfind("zeal", 0) == 0) {
    EXPECT_EQ(device_value<uint32_t>(device, ZEAL_DEVICE_INFO_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS), 0u);
  }
  EXPECT_TRUE(std::is_sorted(sizes.begin(), sizes.end()));
}

// The one program builds whatever the device lacks; each kernel either runs with
// exactly its size or is refused with the sentence naming size, kernel, device and sizes.
TEST_F(SubGroupTest, EachRequiredSizeRunsExactlyOrIsRefusedWithoutSpoilingTheProgram) {
  for (uint32_t size : {8u, 16u, 32u, 64u}) {
    const std::string name = "needs_" + std::to_string(size);
    zeal_kernel_handle_t k = kernel_of(program, name.c_str());
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(sub_group_info(k, device, ZEAL_KERNEL_SUB_GROUP_INFO_COMPILE_SUB_GROUP_SIZE), size);
    EXPECT_EQ(sub_group_info(k, device, ZEAL_KERNEL_SUB_GROUP_INFO_COMPILE_NUM_SUB_GROUPS), 0u);
    const size_t local[3] = {128, 1, 1};
    EXPECT_EQ(sub_group_info(k, device, ZEAL_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE, local), size);
    EXPECT_GE(sub_group_info(k, device, ZEAL_KERNEL_SUB_GROUP_INFO_MAX_NUM_SUB_GROUPS), 1u);
    zeal_result_t r = run(k, 128);
    if (has(sizes, size)) {
      ASSERT_EQ(r, ZEAL_RESULT_SUCCESS) << name << ": " << last_error();
      EXPECT_EQ(std::count(ls, ls + kItems, 128u), static_cast<long>(kItems)) << name;
    } else {
      EXPECT_EQ(r, ZEAL_RESULT_ERROR_KERNEL_NOT_SUPPORTED) << name;
      EXPECT_EQ(last_error(), "sub-group size " + std::to_string(size) + " required by kernel '" + name +
                                  "' is not supported by device '" + device_name + "' (supported: " +
                                  sizes_text(sizes) + ")");
      uint32_t args = 0;
      EXPECT_EQ(d.kernelGetInfo(k, ZEAL_KERNEL_INFO_NUM_ARGS, sizeof(args), &args, nullptr),
                ZEAL_RESULT_ERROR_KERNEL_NOT_SUPPORTED);
    }
    EXPECT_EQ(d.kernelRelease(k), ZEAL_RESULT_SUCCESS);
  }
  zeal_kernel_handle_t plain = kernel_of(program, "plain");
  ASSERT_NE(plain, nullptr);
  ASSERT_EQ(run(plain, 64), ZEAL_RESULT_SUCCESS) << last_error();
  EXPECT_EQ(ls[kItems - 1], 64u);
  EXPECT_EQ(sub_group_info(plain, device, ZEAL_KERNEL_SUB_GROUP_INFO_COMPILE_SUB_GROUP_SIZE), 0u);
  EXPECT_EQ(d.kernelRelease(plain), ZEAL_RESULT_SUCCESS);
  // The refused kernels are still the program's kernels.
  std::string names = program_string(program, ZEAL_PROGRAM_INFO_KERNEL_NAMES);
  for (const char *k : {"needs_8", "needs_16", "needs_32", "needs_64", "plain"})
    EXPECT_NE(names.find(k), std::string::npos) << names;
}

TEST_F(SubGroupTest, WithoutALocalSizeTheChosenOneHoldsWholeSubGroupsOfTheRequiredSize) {
  for (uint32_t size : sizes) {
    if (size < 8 || size > 64) continue;
    const std::string name = "needs_" + std::to_string(size);
    zeal_kernel_handle_t k = kernel_of(program, name.c_str());
    ASSERT_NE(k, nullptr);
    ASSERT_EQ(run(k, 0), ZEAL_RESULT_SUCCESS) << name << ": " << last_error();
    EXPECT_EQ(ls[0] % size, 0u) << name << " ran with local size " << ls[0];
    EXPECT_EQ(d.kernelRelease(k), ZEAL_RESULT_SUCCESS);
  }
}

TEST_F(SubGroupTest, MaxSubGroupSizeOfASmallWorkGroupIsItsSize) {
  zeal_kernel_handle_t k = kernel_of(program, "plain");
  ASSERT_NE(k, nullptr);
  const size_t tiny[3] = {2, 1, 1};
  EXPECT_EQ(sub_group_info(k, device, ZEAL_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE, tiny), 2u);
  uint32_t v = 0;
  EXPECT_EQ(d.kernelGetSubGroupInfo(k, device, ZEAL_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE, nullptr, sizeof(v), &v,
                                    nullptr),
            ZEAL_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(last_error(), "kernelGetSubGroupInfo: MAX_SUB_GROUP_SIZE needs a local size");
  EXPECT_EQ(d.kernelGetSubGroupInfo(k, device, static_cast<zeal_kernel_sub_group_info_t>(99), nullptr, sizeof(v), &v,
                                    nullptr),
            ZEAL_RESULT_ERROR_INVALID_ENUMERATION);
  EXPECT_EQ(last_error(), "kernel sub-group info key 99 is not known to the adapter");
  EXPECT_EQ(d.kernelRelease(k), ZEAL_RESULT_SUCCESS);
}
