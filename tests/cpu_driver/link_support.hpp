// Helpers of the module-linking, native-binary and spec-constant tests: builds with flags, links, runs a kernel.
#pragma once

#include "test_support.hpp"

#include <string>
#include <utility>
#include <vector>

namespace zeal::cpu::test {

class LinkingDriver : public CpuDriver {
protected:
  ze_module_handle_t library(const char *spv) {
    ze_module_handle_t m = nullptr;
    std::string log;
    EXPECT_EQ(ZE_RESULT_SUCCESS, build(read_kernel(spv), m, &log, "-library-compilation")) << spv << ": " << log;
    return m;
  }
  ze_module_handle_t plain(const char *spv) {
    ze_module_handle_t m = nullptr;
    std::string log;
    EXPECT_EQ(ZE_RESULT_SUCCESS, build(read_kernel(spv), m, &log)) << spv << ": " << log;
    return m;
  }

  static std::string log_text(ze_module_build_log_handle_t log) {
    std::string text;
    zeal::test::ZeCall read = zeal::test::read_build_log(log, text);
    EXPECT_EQ(ZE_RESULT_SUCCESS, read.result) << read.name;
    return text;
  }

  ze_result_t link(std::vector<ze_module_handle_t> linked, std::string *text = nullptr) {
    ze_module_build_log_handle_t log = nullptr;
    ze_result_t r = zeModuleDynamicLink(static_cast<uint32_t>(linked.size()), linked.data(), &log);
    EXPECT_NE(nullptr, log);
    std::string t = log != nullptr ? log_text(log) : std::string();
    if (text != nullptr) *text = t;
    return r;
  }

  // Links `linked`, a fatal failure with the log when it fails: call through ASSERT_NO_FATAL_FAILURE.
  void link_ok(std::vector<ze_module_handle_t> linked) {
    std::string log;
    ASSERT_EQ(ZE_RESULT_SUCCESS, link(std::move(linked), &log)) << log;
  }

  // Linking `linked` fails with exactly `expected_log`.
  void expect_link_failure(std::vector<ze_module_handle_t> linked, const std::string &expected_log) {
    std::string log;
    EXPECT_EQ(ZE_RESULT_ERROR_MODULE_LINK_FAILURE, link(std::move(linked), &log));
    EXPECT_EQ(expected_log, log);
  }

  // Runs `k` over n work-items in groups of 1 with `out` (n ints) as argument 0; returns out.
  std::vector<int> run(ze_kernel_handle_t k, size_t n, std::vector<std::pair<size_t, const void *>> more = {}) {
    int *out = shared_array<int>(n);
    std::fill(out, out + n, -1);
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 0, sizeof(out), &out));
    for (uint32_t i = 0; i < more.size(); ++i) {
      EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, i + 1, more[i].first, more[i].second));
    }
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(k, 1, 1, 1));
    ze_command_list_handle_t list = immediate_list();
    ze_group_count_t groups{static_cast<uint32_t>(n), 1, 1};
    ze_event_handle_t done = event();
    ze_result_t launched = zeCommandListAppendLaunchKernel(list, k, &groups, done, 0, nullptr);
    EXPECT_EQ(ZE_RESULT_SUCCESS, launched);
    // A bounded wait: a failed test must not hang the suite.
    if (launched == ZE_RESULT_SUCCESS) {
      EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(done, 30'000'000'000ull));
    }
    return std::vector<int>(out, out + n);
  }
};

} // namespace zeal::cpu::test
