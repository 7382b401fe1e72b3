// Shared helpers of the module_linker tests: fixtures by name, inspection, and inputs for plan_link.
#pragma once

#include "module_linker/link_plan.hpp"
#include "module_linker/module_info.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace zeal::module_linker::test {

inline std::vector<uint32_t> fixture_words(const std::string &name) {
  std::ifstream in(std::string(ZEAL_TEST_KERNEL_DIR) + "/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing fixture " << name;
  std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return to_words(bytes).value_or(std::vector<uint32_t>{});
}

inline ModuleInfo inspect_words(std::span<const uint32_t> words) {
  auto info = inspect_spirv(words, InspectOptions{Validation::Collect});
  EXPECT_TRUE(info.ok()) << (info.ok() ? "" : info.error().message);
  return info.ok() ? std::move(info).value() : ModuleInfo{};
}

inline ModuleInput input(const std::string &fixture, ImageMetadata meta = {}) {
  return ModuleInput{fixture, inspect_words(fixture_words(fixture)), std::move(meta), false};
}

} // namespace zeal::module_linker::test
