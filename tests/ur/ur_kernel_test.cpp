// urKernel* through UR's loader: creation, info, group and sub-group info (the zeal ABI's answers, byte for byte),
// execution hints, a kernel the device cannot honour, and the UR codes for bad input.
#include "ur_program_fixture.hpp"

namespace zeal_ur_test {
namespace {

class KernelTest : public UrPrograms {
protected:
  void TearDown() override {
    if (zeal_program != nullptr) {
      EXPECT_EQ(ZEAL_RESULT_SUCCESS, zeal.d.programRelease(zeal_program));
    }
    if (zeal_context != nullptr) {
      EXPECT_EQ(ZEAL_RESULT_SUCCESS, zeal.d.contextRelease(zeal_context));
    }
    zeal.close();
    UrPrograms::TearDown();
  }
  // The same SPIR-V built through the zeal ABI.
  void build_through_zeal(const std::string &file) {
    ASSERT_NO_FATAL_FAILURE(zeal.open(device_name(device)));
    ASSERT_EQ(ZEAL_RESULT_SUCCESS, zeal.d.contextCreate(1, &zeal.device, &zeal_context));
    const std::vector<uint8_t> spirv = kernel_file(file);
    const zeal_program_desc_t desc{ZEAL_PROGRAM_FORMAT_SPIRV, spirv.data(), spirv.size(), 0, nullptr};
    ASSERT_EQ(ZEAL_RESULT_SUCCESS, zeal.d.programCreate(zeal_context, zeal.device, &desc, &zeal_program));
    ASSERT_EQ(ZEAL_RESULT_SUCCESS, zeal.d.programBuild(zeal_program, nullptr));
  }
  // Every sub-group fact of `name` through both faces; UR's MAX_SUB_GROUP_SIZE is the zeal ABI's for the widest
  // local range the kernel allows (its required one, else its maximum work-group size).
  void expect_same_sub_group_facts(ur_kernel_handle_t k, const char *name) {
    zeal_kernel_handle_t zk = nullptr;
    ASSERT_EQ(ZEAL_RESULT_SUCCESS, zeal.d.kernelCreate(zeal_program, name, &zk));
    auto zeal_info = [&](zeal_kernel_info_t key) {
      return info_bytes([&](size_t size, void *value, size_t *ret) { return zeal.d.kernelGetInfo(zk, key, size, value, ret); });
    };
    std::array<size_t, 3> widest{};
    std::memcpy(widest.data(), zeal_info(ZEAL_KERNEL_INFO_COMPILE_WORK_GROUP_SIZE).data(), sizeof widest);
    if (widest[0] == 0) widest = {info_value<size_t>(group_info(k, UR_KERNEL_GROUP_INFO_WORK_GROUP_SIZE)), 1, 1};
    auto zeal_sub_group = [&](zeal_kernel_sub_group_info_t key) {
      return info_bytes([&](size_t size, void *value, size_t *ret) {
        return zeal.d.kernelGetSubGroupInfo(zk, zeal.device, key, widest.data(), size, value, ret);
      });
    };
    EXPECT_EQ(zeal_sub_group(ZEAL_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE),
              info_bytes(sub_group_info(k, UR_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE))) << name;
    EXPECT_EQ(zeal_sub_group(ZEAL_KERNEL_SUB_GROUP_INFO_MAX_NUM_SUB_GROUPS),
              info_bytes(sub_group_info(k, UR_KERNEL_SUB_GROUP_INFO_MAX_NUM_SUB_GROUPS))) << name;
    EXPECT_EQ(zeal_sub_group(ZEAL_KERNEL_SUB_GROUP_INFO_COMPILE_NUM_SUB_GROUPS),
              info_bytes(sub_group_info(k, UR_KERNEL_SUB_GROUP_INFO_COMPILE_NUM_SUB_GROUPS))) << name;
    EXPECT_EQ(zeal_sub_group(ZEAL_KERNEL_SUB_GROUP_INFO_COMPILE_SUB_GROUP_SIZE),
              info_bytes(sub_group_info(k, UR_KERNEL_SUB_GROUP_INFO_SUB_GROUP_SIZE_INTEL))) << name;
    EXPECT_EQ(zeal_info(ZEAL_KERNEL_INFO_NAME), info_bytes(kernel_info(k, UR_KERNEL_INFO_FUNCTION_NAME))) << name;
    EXPECT_EQ(zeal_info(ZEAL_KERNEL_INFO_MAX_WORK_GROUP_SIZE), info_bytes(group_info(k, UR_KERNEL_GROUP_INFO_WORK_GROUP_SIZE)));
    EXPECT_EQ(zeal_info(ZEAL_KERNEL_INFO_COMPILE_WORK_GROUP_SIZE),
              info_bytes(group_info(k, UR_KERNEL_GROUP_INFO_COMPILE_WORK_GROUP_SIZE))) << name;
    EXPECT_EQ(ZEAL_RESULT_SUCCESS, zeal.d.kernelRelease(zk));
  }

  ZealAbi zeal;
  zeal_context_handle_t zeal_context = nullptr;
  zeal_program_handle_t zeal_program = nullptr;
};

TEST_F(KernelTest, AKernelDescribesItself) {
  ur_program_handle_t p = built("vector_add.spv");
  ur_kernel_handle_t k = kernel(p, "fixed_group");
  ASSERT_NE(nullptr, k);
  EXPECT_EQ("fixed_group", info_string(kernel_info(k, UR_KERNEL_INFO_FUNCTION_NAME)));
  EXPECT_EQ(1u, info_value<uint32_t>(kernel_info(k, UR_KERNEL_INFO_NUM_ARGS)));
  EXPECT_EQ(context, info_value<ur_context_handle_t>(kernel_info(k, UR_KERNEL_INFO_CONTEXT)));
  EXPECT_EQ(p, info_value<ur_program_handle_t>(kernel_info(k, UR_KERNEL_INFO_PROGRAM)));
  EXPECT_EQ("reqd_work_group_size(8,1,1)", info_string(kernel_info(k, UR_KERNEL_INFO_ATTRIBUTES)));
  EXPECT_EQ(0u, info_value<uint32_t>(kernel_info(k, UR_KERNEL_INFO_SPILL_MEM_SIZE)))
      << "one device's; the CPU driver spills to each work-item's own stack, never to a scratch buffer";
  EXPECT_EQ(1u, info_value<uint32_t>(kernel_info(k, UR_KERNEL_INFO_REFERENCE_COUNT)));
  UR_ASSERT_OK(urKernelRetain(k));
  EXPECT_EQ(2u, info_value<uint32_t>(kernel_info(k, UR_KERNEL_INFO_REFERENCE_COUNT)));
  UR_ASSERT_OK(urKernelRelease(k));
  std::array<size_t, 3> compiled{};
  UR_ASSERT_OK(urKernelGetGroupInfo(k, device, UR_KERNEL_GROUP_INFO_COMPILE_WORK_GROUP_SIZE, sizeof(compiled),
                                    compiled.data(), nullptr));
  EXPECT_EQ((std::array<size_t, 3>{8, 1, 1}), compiled);
  ASSERT_TRUE(has_native_handle(urKernelGetNativeHandle, k)) << "the Level Zero kernel";
}

TEST_F(KernelTest, GroupInfoAnswersFromTheKernelAndTheDevice) {
  ur_kernel_handle_t k = kernel(built("sub_groups.spv"), "needs_16");
  ASSERT_NE(nullptr, k);
  EXPECT_EQ("intel_reqd_sub_group_size(16)", info_string(kernel_info(k, UR_KERNEL_INFO_ATTRIBUTES)));
  EXPECT_GE(info_value<size_t>(group_info(k, UR_KERNEL_GROUP_INFO_WORK_GROUP_SIZE)), 16u);
  EXPECT_EQ(16u, info_value<size_t>(group_info(k, UR_KERNEL_GROUP_INFO_PREFERRED_WORK_GROUP_SIZE_MULTIPLE)));
  info_value<size_t>(group_info(k, UR_KERNEL_GROUP_INFO_LOCAL_MEM_SIZE));
  info_value<size_t>(group_info(k, UR_KERNEL_GROUP_INFO_PRIVATE_MEM_SIZE));
  // The most groups of the largest local size, per dimension.
  std::array<size_t, 3> groups{}, items{}, global{};
  UR_ASSERT_OK(urDeviceGetInfo(device, UR_DEVICE_INFO_MAX_WORK_GROUPS_3D, sizeof(groups), groups.data(), nullptr));
  UR_ASSERT_OK(urDeviceGetInfo(device, UR_DEVICE_INFO_MAX_WORK_ITEM_SIZES, sizeof(items), items.data(), nullptr));
  UR_ASSERT_OK(urKernelGetGroupInfo(k, device, UR_KERNEL_GROUP_INFO_GLOBAL_WORK_SIZE, sizeof(global), global.data(),
                                    nullptr));
  for (size_t d = 0; d < 3; ++d) EXPECT_EQ(groups[d] * items[d], global[d]) << "dimension " << d;
  size_t size = 0;
  EXPECT_EQ(UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
            urKernelGetGroupInfo(k, device, UR_KERNEL_GROUP_INFO_COMPILE_MAX_WORK_GROUP_SIZE, 0, nullptr, &size));
}

TEST_F(KernelTest, SubGroupAndGroupFactsAreTheZealAbisAnswers) {
  ASSERT_NO_FATAL_FAILURE(build_through_zeal("sub_groups.spv"));
  ur_program_handle_t p = built("sub_groups.spv");
  for (const char *name : {"needs_8", "needs_16", "needs_32", "needs_64", "plain"}) {
    ur_kernel_handle_t k = kernel(p, name);
    ASSERT_NE(nullptr, k) << name;
    expect_same_sub_group_facts(k, name);
  }
}

// A kernel requiring a sub-group size the device lacks is created and answers what it can, as in the zeal ABI;
// what needs the driver's kernel is the refusal, as ADAPTER_SPECIFIC with the zeal sentence.
TEST_F(KernelTest, GivenARequiredSubGroupSizeTheDeviceLacks_ThenTheKernelAnswersItsInfoAndNamesTheRefusal) {
  ASSERT_NO_FATAL_FAILURE(build_through_zeal("sub_group_2.spv"));
  ur_program_handle_t p = built("sub_group_2.spv");
  ur_kernel_handle_t k = kernel(p, "needs_sub_group_2");
  ASSERT_NE(nullptr, k);
  EXPECT_EQ(2u, info_value<uint32_t>(sub_group_info(k, UR_KERNEL_SUB_GROUP_INFO_SUB_GROUP_SIZE_INTEL)));
  EXPECT_EQ("intel_reqd_sub_group_size(2)", info_string(kernel_info(k, UR_KERNEL_INFO_ATTRIBUTES)));
  expect_same_sub_group_facts(k, "needs_sub_group_2");
  size_t size = 0;
  EXPECT_EQ(UR_RESULT_ERROR_ADAPTER_SPECIFIC, urKernelGetInfo(k, UR_KERNEL_INFO_NUM_ARGS, 0, nullptr, &size));
  EXPECT_NE(std::string::npos, error().find("sub-group size 2 required by kernel 'needs_sub_group_2'")) << error();
  EXPECT_EQ(UR_RESULT_ERROR_ADAPTER_SPECIFIC, native_of(urKernelGetNativeHandle, k).result);
  const ur_bool_t yes = true;
  UR_EXPECT_OK(urKernelSetExecInfo(k, UR_KERNEL_EXEC_INFO_USM_INDIRECT_ACCESS, sizeof(yes), nullptr, &yes))
      << "a hint to a kernel that never runs changes nothing";
}

TEST_F(KernelTest, GivenAnUnknownName_ThenTheSentenceListsTheProgramsKernels) {
  ur_program_handle_t p = built("vector_add.spv");
  ur_kernel_handle_t k = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_KERNEL_NAME, urKernelCreate(p, "no_such_kernel", &k));
  EXPECT_NE(std::string::npos, error().find("has no kernel named 'no_such_kernel' (its kernels: vector_add, scale, "
                                            "fixed_group)"))
      << error();
  EXPECT_EQ(nullptr, k);
  ur_program_handle_t input = with_il("vector_add.spv");
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE, urKernelCreate(input, "scale", &k));
  EXPECT_NE(std::string::npos, error().find("is not executable: build it, or link it with others")) << error();
}

TEST_F(KernelTest, ExecutionHintsAreAcceptedAndBadOnesRefused) {
  ur_kernel_handle_t k = kernel(built("vector_add.spv"), "scale");
  ASSERT_NE(nullptr, k);
  const ur_bool_t yes = true;
  UR_EXPECT_OK(urKernelSetExecInfo(k, UR_KERNEL_EXEC_INFO_USM_INDIRECT_ACCESS, sizeof(yes), nullptr, &yes)) << error();
  int allocation = 0;
  void *pointers[] = {&allocation, nullptr};
  UR_EXPECT_OK(urKernelSetExecInfo(k, UR_KERNEL_EXEC_INFO_USM_PTRS, sizeof(pointers), nullptr, pointers)) << error();
  const ur_kernel_cache_config_t config = UR_KERNEL_CACHE_CONFIG_LARGE_SLM;
  UR_EXPECT_OK(urKernelSetExecInfo(k, UR_KERNEL_EXEC_INFO_CACHE_CONFIG, sizeof(config), nullptr, &config)) << error();
  const int32_t bad_config = 7;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION,
            urKernelSetExecInfo(k, UR_KERNEL_EXEC_INFO_CACHE_CONFIG, sizeof(bad_config), nullptr, &bad_config));
  EXPECT_EQ("urKernelSetExecInfo CACHE_CONFIG of kernel 'scale': 7 is not a ur_kernel_cache_config_t", error());
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE,
            urKernelSetExecInfo(k, UR_KERNEL_EXEC_INFO_USM_INDIRECT_ACCESS, 4, nullptr, &bad_config));
  EXPECT_EQ("urKernelSetExecInfo USM_INDIRECT_ACCESS of kernel 'scale': propSize is 4, not 1", error());
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION,
            urKernelSetExecInfo(k, unknown_key<ur_kernel_exec_info_t>(), sizeof(yes), nullptr, &yes));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER,
            urKernelSetExecInfo(k, UR_KERNEL_EXEC_INFO_USM_INDIRECT_ACCESS, sizeof(yes), nullptr, nullptr));
}

TEST_F(KernelTest, BadInputGetsTheSpecsCodes) {
  ur_program_handle_t p = built("vector_add.spv");
  ur_kernel_handle_t k = kernel(p, "scale");
  ASSERT_NE(nullptr, k);
  ur_kernel_handle_t out = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urKernelCreate(nullptr, "scale", &out));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urKernelCreate(p, nullptr, &out));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urKernelCreate(p, "scale", nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urKernelRetain(nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urKernelRelease(nullptr));
  size_t size = 0;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION, urKernelGetInfo(k, unknown_key<ur_kernel_info_t>(), 0, nullptr, &size));
  EXPECT_EQ(UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION, urKernelGetInfo(k, UR_KERNEL_INFO_NUM_REGS, 0, nullptr, &size));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION,
            urKernelGetGroupInfo(k, device, unknown_key<ur_kernel_group_info_t>(), 0, nullptr, &size));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_ENUMERATION,
            urKernelGetSubGroupInfo(k, device, unknown_key<ur_kernel_sub_group_info_t>(), 0, nullptr, &size));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE,
            urKernelGetSubGroupInfo(k, nullptr, UR_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE, 0, nullptr, &size));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER,
            urKernelGetSubGroupInfo(k, device, UR_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE, 0, nullptr, nullptr));
  uint16_t small = 0;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE,
            urKernelGetSubGroupInfo(k, device, UR_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE, sizeof(small), &small, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_SIZE,
            urKernelGetGroupInfo(k, device, UR_KERNEL_GROUP_INFO_COMPILE_WORK_GROUP_SIZE, sizeof(size), &size, nullptr));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, urKernelGetNativeHandle(k, nullptr));
  // A handle of another kind: only the face knows the kinds.
  auto as_device = reinterpret_cast<ur_device_handle_t>(p);
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_DEVICE,
            urKernelGetGroupInfo(k, as_device, UR_KERNEL_GROUP_INFO_WORK_GROUP_SIZE, 0, nullptr, &size));
  EXPECT_NE(std::string::npos, error().find("is not a live zeal device")) << error();
}

} // namespace
} // namespace zeal_ur_test
