// SPV_INTEL_global_variable_host_access rewritten away: modules without it read in place, modules with it rewritten.
#include "spirv/host_access.hpp"
#include "tests/support/allocation_counter.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <string_view>

namespace {

constexpr uint32_t OpExtension = 10, OpMemoryModel = 14, OpCapability = 17, OpVariable = 59, OpDecorate = 71;
constexpr uint32_t Addresses = 4, Linkage = 5, HostAccessCapability = 6187;
constexpr uint32_t LinkageAttributes = 41, HostAccessINTEL = 6188, ReadWriteINTEL = 2, Export = 0;
constexpr uint32_t variable = 7;

std::vector<uint32_t> literal(std::string_view text) {
  std::vector<uint32_t> words(text.size() / 4 + 1, 0);
  std::memcpy(words.data(), text.data(), text.size());
  return words;
}

std::vector<uint32_t> op(uint32_t opcode, std::initializer_list<std::vector<uint32_t>> operands) {
  std::vector<uint32_t> words{0};
  for (const auto &o : operands) words.insert(words.end(), o.begin(), o.end());
  words[0] = uint32_t(words.size()) << 16 | opcode;
  return words;
}

std::vector<uint32_t> words_of(std::initializer_list<std::vector<uint32_t>> instructions) {
  std::vector<uint32_t> words{0x07230203, 0x00010000, 0, 10, 0};
  for (const auto &i : instructions) words.insert(words.end(), i.begin(), i.end());
  return words;
}

// The module's bytes one byte into `storage`, so that they are not aligned to a word.
std::span<const uint8_t> unaligned(const std::vector<uint32_t> &words, std::vector<uint8_t> &storage) {
  storage.assign(words.size() * 4 + 1, 0);
  std::memcpy(storage.data() + 1, words.data(), words.size() * 4);
  return {storage.data() + 1, words.size() * 4};
}

std::vector<uint32_t> words_in(const std::vector<uint8_t> &bytes) {
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

const std::vector<uint32_t> memory_model = op(OpMemoryModel, {{2, 2}});
const std::vector<uint32_t> global = op(OpVariable, {{1, variable, 5}});

TEST(SpirvHostAccess, GivenAModuleWithoutTheExtension_ThenItIsReadInPlaceWithoutAllocatingAndLeftAsItIs) {
  const std::vector<uint32_t> words =
      words_of({op(OpCapability, {{Addresses}}), op(OpCapability, {{Linkage}}), memory_model,
                op(OpDecorate, {{variable, LinkageAttributes}, literal("dg"), {Export}}), global});
  std::vector<uint8_t> storage;
  const std::span<const uint8_t> input = unaligned(words, storage);
  zeal::spirv::HostAccessRewrite rewrite;
  const auto counts = zeal::test::count_allocations([&] { rewrite = zeal::spirv::rewrite_host_access(input); });
  EXPECT_EQ(counts.all, 0u);
  EXPECT_TRUE(rewrite.spirv.empty());
  EXPECT_TRUE(rewrite.aliases.empty());
  EXPECT_EQ(rewrite.module_or(input).data(), input.data());
  EXPECT_EQ(rewrite.module_or(input).size(), input.size());
}

TEST(SpirvHostAccess, GivenAHostAccessVariableWithoutLinkage_ThenItIsExportedUnderItsHostNameAndTheExtensionIsGone) {
  const std::vector<uint32_t> words = words_of(
      {op(OpCapability, {{Addresses}}), op(OpCapability, {{HostAccessCapability}}),
       op(OpExtension, {literal("SPV_INTEL_global_variable_host_access")}), memory_model,
       op(OpDecorate, {{variable, HostAccessINTEL, ReadWriteINTEL}, literal("dg")}), global});
  std::vector<uint8_t> storage;
  const std::span<const uint8_t> input = unaligned(words, storage);
  const zeal::spirv::HostAccessRewrite rewrite = zeal::spirv::rewrite_host_access(input);
  ASSERT_FALSE(rewrite.spirv.empty());
  EXPECT_EQ(rewrite.module_or(input).data(), rewrite.spirv.data());
  EXPECT_EQ(words_in(rewrite.spirv),
            words_of({op(OpCapability, {{Addresses}}), op(OpCapability, {{Linkage}}), memory_model,
                      op(OpDecorate, {{variable, LinkageAttributes}, literal("dg"), {Export}}), global}));
  EXPECT_TRUE(rewrite.aliases.empty());
}

TEST(SpirvHostAccess, GivenAHostAccessVariableExportedUnderAnotherName_ThenTheHostNameIsAnAliasOfIt) {
  const std::vector<uint32_t> words = words_of(
      {op(OpCapability, {{Addresses}}), op(OpCapability, {{Linkage}}), op(OpCapability, {{HostAccessCapability}}),
       memory_model, op(OpDecorate, {{variable, LinkageAttributes}, literal("_Z2dg"), {Export}}),
       op(OpDecorate, {{variable, HostAccessINTEL, ReadWriteINTEL}, literal("dg")}), global});
  std::vector<uint8_t> storage;
  const zeal::spirv::HostAccessRewrite rewrite = zeal::spirv::rewrite_host_access(unaligned(words, storage));
  ASSERT_FALSE(rewrite.spirv.empty());
  EXPECT_EQ(words_in(rewrite.spirv),
            words_of({op(OpCapability, {{Addresses}}), op(OpCapability, {{Linkage}}), memory_model,
                      op(OpDecorate, {{variable, LinkageAttributes}, literal("_Z2dg"), {Export}}), global}));
  ASSERT_EQ(rewrite.aliases.size(), 1u);
  EXPECT_EQ(rewrite.aliases[0], (std::pair<std::string, std::string>("dg", "_Z2dg")));
}

TEST(SpirvHostAccess, GivenAWordCountPastTheEnd_ThenTheModuleIsLeftToTheReaderUnchanged) {
  std::vector<uint32_t> words = words_of({op(OpCapability, {{HostAccessCapability}}), memory_model});
  words.push_back(9u << 16 | OpDecorate);
  std::vector<uint8_t> storage;
  const std::span<const uint8_t> input = unaligned(words, storage);
  const zeal::spirv::HostAccessRewrite rewrite = zeal::spirv::rewrite_host_access(input);
  EXPECT_TRUE(rewrite.spirv.empty());
  EXPECT_EQ(rewrite.module_or(input).data(), input.data());
}

} // namespace
