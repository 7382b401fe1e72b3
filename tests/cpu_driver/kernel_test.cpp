// Modules and kernels: building SPIR-V, build failures, arguments, group sizes, and launches that compute.
#include "test_support.hpp"

#include <vector>

namespace zeal::cpu::test {
namespace {

class Kernels : public CpuDriver {
protected:
  void SetUp() override {
    CpuDriver::SetUp();
    if (HasFatalFailure()) return;
    std::string log;
    ASSERT_EQ(ZE_RESULT_SUCCESS, build(read_kernel("vector_add.spv"), module, &log)) << log;
  }

  // Sets up c = a + b over n floats with group size 64; returns the kernel.
  ze_kernel_handle_t vector_add(size_t n, float *&a, float *&b, float *&c) {
    a = shared_array<float>(n);
    b = shared_array<float>(n);
    c = shared_array<float>(n);
    for (size_t i = 0; i < n; ++i) {
      a[i] = float(i);
      b[i] = float(2 * i) + 0.5f;
      c[i] = -1;
    }
    ze_kernel_handle_t k = kernel(module, "vector_add");
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(k, 64, 1, 1));
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 0, sizeof(a), &a));
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 1, sizeof(b), &b));
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 2, sizeof(c), &c));
    return k;
  }

  static void expect_sums(const float *a, const float *b, const float *c, size_t n) {
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(a[i] + b[i], c[i]) << "element " << i;
  }

  // Runs `name` of `spv` over n = group * groups ints holding 0, 1, ..., with work-groups of `group` and a local
  // array of `group` ints as argument 1; `data` is the shared array afterwards.
  void run_with_local_ints(const char *spv, const char *name, uint32_t group, uint32_t groups, int *&data) {
    ze_module_handle_t m = nullptr;
    std::string log;
    ASSERT_EQ(ZE_RESULT_SUCCESS, build(read_kernel(spv), m, &log)) << log;
    const uint32_t n = group * groups;
    data = shared_array<int>(n);
    for (uint32_t i = 0; i < n; ++i) data[i] = int(i);
    ze_kernel_handle_t k = kernel(m, name);
    ZE_ASSERT_OK(zeKernelSetGroupSize(k, group, 1, 1));
    ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 0, sizeof(data), &data));
    ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 1, group * sizeof(int), nullptr));
    ZE_ASSERT_OK(launch_and_wait(k, {groups, 1, 1}));
  }

  ze_module_handle_t module = nullptr;
};

TEST_F(Kernels, ModuleListsItsKernels) {
  uint32_t count = 0;
  ZE_ASSERT_OK(zeModuleGetKernelNames(module, &count, nullptr));
  ASSERT_EQ(2u, count);
  std::vector<const char *> names(count);
  ZE_ASSERT_OK(zeModuleGetKernelNames(module, &count, names.data()));
  std::vector<std::string> got(names.begin(), names.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ((std::vector<std::string>{"fill_value", "vector_add"}), got);
}

TEST_F(Kernels, VectorAddOnAnImmediateList) {
  constexpr size_t n = 64 * 97;
  float *a, *b, *c;
  ze_kernel_handle_t k = vector_add(n, a, b, c);
  ze_command_list_handle_t list = immediate_list();
  ze_event_handle_t done = event();
  ze_group_count_t groups{n / 64, 1, 1};
  ZE_ASSERT_OK(zeCommandListAppendLaunchKernel(list, k, &groups, done, 0, nullptr));
  ZE_ASSERT_OK(zeEventHostSynchronize(done, UINT64_MAX));
  expect_sums(a, b, c, n);
  ze_kernel_timestamp_result_t ts{};
  ZE_ASSERT_OK(zeEventQueryKernelTimestamp(done, &ts));
  EXPECT_LT(ts.global.kernelStart, ts.global.kernelEnd);
}

// ZE_experimental_global_offset: the ids of later launches start at the offset; the launch before keeps its own.
TEST_F(Kernels, AGlobalOffsetShiftsTheIdsOfTheLaunchesAppendedAfterIt) {
  constexpr size_t n = 64 * 40, launched = 64 * 8, offset = 96;
  float *a, *b, *c;
  ze_kernel_handle_t k = vector_add(n, a, b, c);
  ze_command_list_handle_t list = regular_list();
  ze_group_count_t groups{launched / 64, 1, 1};
  ZE_ASSERT_OK(zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr));
  ZE_ASSERT_OK(zeKernelSetGlobalOffsetExp(k, offset * 2, 0, 0));
  ZE_ASSERT_OK(zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr));
  ZE_ASSERT_OK(zeKernelSetGlobalOffsetExp(k, offset * 2 + launched + offset, 0, 0));
  ZE_ASSERT_OK(zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr));
  ZE_ASSERT_OK(zeCommandListClose(list));
  ze_command_queue_handle_t q = make_queue();
  ZE_ASSERT_OK(zeCommandQueueExecuteCommandLists(q, 1, &list, nullptr));
  ZE_ASSERT_OK(zeCommandQueueSynchronize(q, UINT64_MAX));
  // Written: [0, launched), [2 offset, 2 offset + launched), [3 offset + launched, 3 offset + 2 launched).
  auto written = [&](size_t i) {
    return i < launched || (i >= 2 * offset && i < 2 * offset + launched) ||
           (i >= 3 * offset + launched && i < 3 * offset + 2 * launched);
  };
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(written(i) ? a[i] + b[i] : -1.0f, c[i]) << "element " << i;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeKernelSetGlobalOffsetExp(nullptr, 0, 0, 0));
}

// Indirect launches read their group counts (and how many kernels run) when they run, not when appended.
TEST_F(Kernels, IndirectLaunchesReadTheirGroupCountsWhenTheyRun) {
  constexpr size_t n = 64 * 16;
  float *a, *b, *c;
  ze_kernel_handle_t add = vector_add(n, a, b, c);
  int *filled = shared_array<int>(n);
  std::fill(filled, filled + n, 0);
  ze_kernel_handle_t fill = kernel(module, "fill_value");
  ZE_ASSERT_OK(zeKernelSetGroupSize(fill, 64, 1, 1));
  ZE_ASSERT_OK(zeKernelSetArgumentValue(fill, 0, sizeof(filled), &filled));
  const int seven = 7;
  ZE_ASSERT_OK(zeKernelSetArgumentValue(fill, 1, sizeof(seven), &seven));

  auto *groups = shared_array<ze_group_count_t>(2);
  auto *count = shared_array<uint32_t>(1);
  groups[0] = {0, 0, 0};
  ze_command_list_handle_t list = regular_list();
  ZE_ASSERT_OK(zeCommandListAppendLaunchKernelIndirect(list, add, groups, nullptr, 0, nullptr));
  ZE_ASSERT_OK(zeCommandListAppendBarrier(list, nullptr, 0, nullptr));
  ze_kernel_handle_t both[] = {add, fill};
  ZE_ASSERT_OK(zeCommandListAppendLaunchMultipleKernelsIndirect(list, 2, both, count, groups, nullptr, 0, nullptr));
  ZE_ASSERT_OK(zeCommandListClose(list));
  ze_command_queue_handle_t q = make_queue();

  // First run: the single launch covers half, the multiple launch runs its first kernel only (the same half).
  groups[0] = {n / 64 / 2, 1, 1};
  groups[1] = {n / 64, 1, 1};
  *count = 1;
  ZE_ASSERT_OK(zeCommandQueueExecuteCommandLists(q, 1, &list, nullptr));
  ZE_ASSERT_OK(zeCommandQueueSynchronize(q, UINT64_MAX));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(i < n / 2 ? a[i] + b[i] : -1.0f, c[i]) << "element " << i;
  EXPECT_EQ(0, std::count(filled, filled + n, seven));
  // Second run: the whole array, and both kernels.
  groups[0] = {n / 64, 1, 1};
  *count = 2;
  ZE_ASSERT_OK(zeCommandQueueExecuteCommandLists(q, 1, &list, nullptr));
  ZE_ASSERT_OK(zeCommandQueueSynchronize(q, UINT64_MAX));
  expect_sums(a, b, c, n);
  EXPECT_EQ(n, size_t(std::count(filled, filled + n, seven)));

  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
            zeCommandListAppendLaunchKernelIndirect(immediate_list(), add, nullptr, nullptr, 0, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeCommandListAppendLaunchMultipleKernelsIndirect(
                                                      immediate_list(), 2, both, nullptr, groups, nullptr, 0, nullptr));
}

TEST_F(Kernels, VectorAddOnARegularListExecutedOnAQueue) {
  constexpr size_t n = 64 * 33;
  float *a, *b, *c;
  ze_kernel_handle_t k = vector_add(n, a, b, c);
  ze_command_list_handle_t list = regular_list();
  ze_group_count_t groups{n / 64, 1, 1};
  ZE_ASSERT_OK(zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr));
  ZE_ASSERT_OK(zeCommandListClose(list));
  ze_command_queue_handle_t q = make_queue();
  ZE_ASSERT_OK(zeCommandQueueExecuteCommandLists(q, 1, &list, nullptr));
  ZE_ASSERT_OK(zeCommandQueueSynchronize(q, UINT64_MAX));
  expect_sums(a, b, c, n);
}

TEST_F(Kernels, ArgumentsAreCapturedAtAppendTime) {
  constexpr size_t n = 128;
  auto *first = shared_array<int>(n);
  auto *second = shared_array<int>(n);
  ze_kernel_handle_t k = kernel(module, "fill_value");
  ZE_ASSERT_OK(zeKernelSetGroupSize(k, 32, 1, 1));
  ze_command_list_handle_t list = immediate_list();
  ze_event_handle_t gate = event(), done = event();
  ze_group_count_t groups{n / 32, 1, 1};
  // The launches wait on a gate, so they surely run after the arguments changed.
  int value = 11;
  ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 0, sizeof(first), &first));
  ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 1, sizeof(value), &value));
  ZE_ASSERT_OK(zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 1, &gate));
  value = 22;
  ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 0, sizeof(second), &second));
  ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 1, sizeof(value), &value));
  ZE_ASSERT_OK(zeCommandListAppendLaunchKernel(list, k, &groups, done, 0, nullptr));
  ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 1, sizeof(value), &n)); // changes nothing appended
  ZE_ASSERT_OK(zeEventHostSignal(gate));
  ZE_ASSERT_OK(zeEventHostSynchronize(done, UINT64_MAX));
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(11, first[i]) << "element " << i;
    ASSERT_EQ(22, second[i]) << "element " << i;
  }
}

TEST_F(Kernels, UnknownKernelNameIsInvalidKernelName) {
  ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "no_such_kernel"};
  ze_kernel_handle_t k = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_NAME, zeKernelCreate(module, &desc, &k));
  EXPECT_EQ(nullptr, k);
}

TEST_F(Kernels, ArgumentIndexAndSizeAreChecked) {
  ze_kernel_handle_t k = kernel(module, "fill_value");
  int value = 0;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX, zeKernelSetArgumentValue(k, 2, sizeof(value), &value));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, zeKernelSetArgumentValue(k, 1, 8, &value));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, zeKernelSetArgumentValue(k, 0, 4, &value));
  ZE_EXPECT_OK(zeKernelSetArgumentValue(k, 0, sizeof(void *), nullptr)) << "a null value is a null pointer";
}

// As on Intel's driver, a by-value argument given fewer bytes than its type takes them, zero-extended
// (level-zero-tests set size_t parameters from an int); more bytes are refused.
TEST_F(Kernels, AShorterValueIsZeroExtendedAndALongerOneRefused) {
  ze_module_handle_t wide = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, build(read_kernel("wide_value.spv"), wide));
  ze_kernel_handle_t k = kernel(wide, "fill_wide");
  auto *out = shared_array<uint64_t>(8);
  ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 0, sizeof(out), &out));
  const uint64_t earlier = ~0ull;
  ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 1, sizeof(earlier), &earlier));
  const int32_t short_value = 1000;
  ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 1, sizeof(short_value), &short_value));
  const uint8_t longer[16] = {};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, zeKernelSetArgumentValue(k, 1, sizeof(longer), longer));
  ZE_ASSERT_OK(zeKernelSetGroupSize(k, 8, 1, 1));
  ZE_ASSERT_OK(launch_and_wait(k, {1, 1, 1}));
  for (uint64_t i = 0; i < 8; ++i) EXPECT_EQ(1000 + i, out[i]) << "the high bytes are zero, not the earlier value's";
}

TEST_F(Kernels, GroupSizeIsCheckedAgainstTheLimits) {
  ze_kernel_handle_t k = kernel(module, "vector_add");
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION, zeKernelSetGroupSize(k, 2048, 1, 1));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION, zeKernelSetGroupSize(k, 64, 64, 1));
  ZE_EXPECT_OK(zeKernelSetGroupSize(k, 32, 32, 1));
  uint32_t x = 0, y = 0, z = 0;
  ZE_ASSERT_OK(zeKernelSuggestGroupSize(k, 1000, 3, 1, &x, &y, &z));
  EXPECT_EQ(0u, 1000 % x);
  EXPECT_EQ(0u, 3 % y);
  EXPECT_LE(x * y * z, 1024u);
}

TEST_F(Kernels, PropertiesAndName) {
  ze_kernel_handle_t k = kernel(module, "fill_value");
  ze_kernel_properties_t p{};
  p.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
  ZE_ASSERT_OK(zeKernelGetProperties(k, &p));
  EXPECT_EQ(2u, p.numKernelArgs);
  size_t size = 0;
  ZE_ASSERT_OK(zeKernelGetName(k, &size, nullptr));
  std::string name(size, '\0');
  ZE_ASSERT_OK(zeKernelGetName(k, &size, name.data()));
  EXPECT_STREQ("fill_value", name.c_str());
}

TEST_F(Kernels, LocalArgumentsArePerWorkGroup) {
  constexpr uint32_t group = 16, n = group * 40;
  int *data = nullptr;
  ASSERT_NO_FATAL_FAILURE(run_with_local_ints("work_items.spv", "local_slot", group, n / group, data));
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(int(2 * i + i / group), data[i]) << "element " << i;
}

TEST_F(Kernels, TwoDimensionalLaunchCoversEveryWorkItem) {
  ze_module_handle_t m = nullptr;
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, build(read_kernel("work_items.spv"), m, &log)) << log;
  constexpr uint32_t w = 48, h = 20;
  auto *out = shared_array<uint32_t>(w * h);
  ze_kernel_handle_t k = kernel(m, "ids_2d");
  ZE_ASSERT_OK(zeKernelSetGroupSize(k, 8, 4, 1));
  ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 0, sizeof(out), &out));
  ZE_ASSERT_OK(launch_and_wait(k, {w / 8, h / 4, 1}));
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) ASSERT_EQ(y * 1000 + x, out[y * w + x]) << x << "," << y;
}

// Work-group barriers order local memory: each group's slice comes back
// reversed only if every work-item stored before any loaded, over many
// groups spread across the worker threads.
TEST_F(Kernels, GivenAWorkGroupBarrier_ThenLocalReverseRunsCorrectly) {
  constexpr uint32_t group = 64, n = group * 100;
  int *data = nullptr;
  ASSERT_NO_FATAL_FAILURE(run_with_local_ints("local_reverse.spv", "local_reverse", group, n / group, data));
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(int(i / group * group + group - 1 - i % group), data[i]) << "element " << i;
  }
}

using Modules = CpuDriver;

TEST_F(Modules, MalformedSpirvIsABuildFailureWithALog) {
  std::vector<uint8_t> spirv = read_kernel("vector_add.spv");
  ASSERT_GT(spirv.size(), 64u);
  spirv.resize(spirv.size() / 2); // cut in the middle of an instruction stream
  ze_module_handle_t m = nullptr;
  std::string log;
  EXPECT_EQ(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE, build(spirv, m, &log));
  EXPECT_EQ(nullptr, m);
  EXPECT_FALSE(log.empty());
}

TEST_F(Modules, GivenAnInputOfZeroBytes_ThenInvalidSizeAndNoModuleNorLog) {
  std::vector<uint8_t> spirv = read_kernel("vector_add.spv");
  for (ze_module_format_t format : {ZE_MODULE_FORMAT_IL_SPIRV, ZE_MODULE_FORMAT_NATIVE}) {
    ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, format, 0, spirv.data(), nullptr, nullptr};
    ze_module_handle_t m = nullptr;
    ze_module_build_log_handle_t log = nullptr;
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE, zeModuleCreate(context, device, &desc, &m, &log));
    EXPECT_EQ(nullptr, m);
    EXPECT_EQ(nullptr, log);
  }
}

TEST_F(Modules, ANativeBinaryOfZerosIsRefusedWithALog) {
  std::vector<uint8_t> bytes(64, 0);
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_NATIVE, bytes.size(), bytes.data(),
                        "", nullptr};
  ze_module_handle_t m = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY, zeModuleCreate(context, device, &desc, &m, &log));
  ASSERT_NE(nullptr, log);
  std::string text;
  zeal::test::ZeCall read = zeal::test::read_build_log(log, text);
  ZE_ASSERT_OK(read.result) << read.name;
  EXPECT_NE(std::string::npos, text.find("the binary is not a zeal CPU native binary")) << text;
}

} // namespace
} // namespace zeal::cpu::test
