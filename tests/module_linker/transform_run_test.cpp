// Stripped, split and merged modules built and launched on the CPU driver through the Level Zero loader.
#include "../cpu_driver/test_support.hpp"

#include "module_linker/spirv_transform.hpp"

#include <span>

namespace ml = zeal::module_linker;

namespace {

class TransformedModules : public zeal::cpu::test::CpuDriver {
protected:
  static std::vector<uint32_t> words_of(const std::string &fixture) {
    auto bytes = zeal::cpu::test::read_kernel(fixture);
    return ml::to_words(bytes).value_or(std::vector<uint32_t>{});
  }
  static std::vector<uint8_t> bytes_of(const std::vector<uint32_t> &words) {
    const auto *p = reinterpret_cast<const uint8_t *>(words.data());
    return {p, p + words.size() * 4};
  }

  // Builds `words`, runs `kernel` over n ints holding 0..n-1 and returns what the kernel left.
  std::vector<int> run(const std::vector<uint32_t> &words, const char *kernel_name, size_t n = 64) {
    ze_module_handle_t module = nullptr;
    std::string log;
    EXPECT_EQ(ZE_RESULT_SUCCESS, build(bytes_of(words), module, &log)) << log;
    if (module == nullptr) return {};
    ze_kernel_handle_t k = kernel(module, kernel_name);
    if (k == nullptr) return {};
    int *data = shared_array<int>(n);
    for (size_t i = 0; i < n; ++i) data[i] = static_cast<int>(i);
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(k, 16, 1, 1));
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 0, sizeof(data), &data));
    ze_command_list_handle_t list = immediate_list();
    ze_event_handle_t done = event();
    ze_group_count_t groups{static_cast<uint32_t>(n / 16), 1, 1};
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(list, k, &groups, done, 0, nullptr));
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(done, UINT64_MAX));
    return std::vector<int>(data, data + n);
  }

  static void expect_incremented(const std::vector<int> &out, size_t n = 64) {
    ASSERT_EQ(out.size(), n);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], static_cast<int>(i) + 1) << "element " << i;
  }
};

} // namespace

TEST_F(TransformedModules, GivenModuleStrippedForDg2_ThenRemainingKernelRuns_AndRemovedOneIsGone) {
  auto stripped = ml::strip_unsupported_kernels(words_of("strip_mix.spv"), *ml::find_device_profile("dg2"));
  ASSERT_TRUE(stripped.ok()) << stripped.error().message;
  ASSERT_EQ(stripped->removed.size(), 2u);
  expect_incremented(run(stripped->words, "add_one"));
  ze_module_handle_t module = modules.back();
  ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "dbl"};
  ze_kernel_handle_t k = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_NAME, zeKernelCreate(module, &desc, &k));
}

TEST_F(TransformedModules, GivenPerKernelSplit_ThenTheKernelsPartRunsAlone) {
  auto parts = ml::split_per_kernel(words_of("device_mix.spv"));
  ASSERT_TRUE(parts.ok()) << parts.error().message;
  auto add_one = std::find_if(parts->begin(), parts->end(), [](auto &p) { return p.name == "add_one"; });
  ASSERT_NE(add_one, parts->end());
  expect_incremented(run(add_one->words, "add_one"));
}

TEST_F(TransformedModules, GivenCallerMergedWithProvider_ThenTheMergedKernelRuns) {
  std::vector<std::vector<uint32_t>> inputs = {words_of("call_f.spv"), words_of("def_f.spv")};
  auto merged = ml::merge_modules(inputs);
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  expect_incremented(run(merged.value(), "call_f"));
}

TEST_F(TransformedModules, GivenPerKernelSplitModeOverTwoSources_ThenTheKernelPartRuns) {
  std::vector<ml::ModulePart> sources = {{"call_f", words_of("call_f.spv")}, {"def_f", words_of("def_f.spv")}};
  auto parts = ml::apply_split_mode(sources, ml::SplitMode::PerKernel);
  ASSERT_TRUE(parts.ok()) << parts.error().message;
  ASSERT_EQ((*parts)[0].name, "call_f");
  expect_incremented(run((*parts)[0].words, "call_f"));
}
