// The walk over SPIR-V instruction headers and the literal-string reader (spirv/words.hpp).
#include "spirv/words.hpp"

#include <gtest/gtest.h>
#include <spirv/unified1/spirv.hpp>

#include <cstdint>
#include <vector>

namespace zeal::spirv {
namespace {

constexpr uint32_t word(uint32_t count, uint32_t opcode) { return count << 16 | opcode; }

// A header, then OpCapability Addressing, OpMemoryModel Physical64 OpenCL, OpNop.
std::vector<uint32_t> small_module() {
  return {spv::MagicNumber, 0x00010000, 0, 10, 0,
          word(2, spv::OpCapability), spv::CapabilityAddresses,
          word(3, spv::OpMemoryModel), spv::AddressingModelPhysical64, spv::MemoryModelOpenCL,
          word(1, spv::OpNop)};
}

struct Seen {
  size_t at;
  uint32_t opcode, count;
  bool cut;
  size_t words;
};

std::vector<Seen> walk(std::span<const uint32_t> module, size_t first = header_words, size_t end = SIZE_MAX) {
  std::vector<Seen> seen;
  for (const Instruction &i : instructions(module, first, end)) {
    seen.push_back({i.at, i.opcode, i.count, i.cut, i.words.size()});
  }
  return seen;
}

TEST(SpirvWords, EachInstructionComesWithItsPlaceOpcodeAndWords) {
  const std::vector<uint32_t> module = small_module();
  const std::vector<Seen> seen = walk(module);
  ASSERT_EQ(3u, seen.size());
  EXPECT_EQ(5u, seen[0].at);
  EXPECT_EQ(uint32_t(spv::OpCapability), seen[0].opcode);
  EXPECT_EQ(2u, seen[0].words);
  EXPECT_EQ(7u, seen[1].at);
  EXPECT_EQ(3u, seen[1].count);
  EXPECT_EQ(10u, seen[2].at);
  EXPECT_EQ(uint32_t(spv::OpNop), seen[2].opcode);
  for (const Seen &s : seen) EXPECT_FALSE(s.cut);
  const Instruction model = instruction_at(module, 7);
  ASSERT_EQ(3u, model.words.size());
  EXPECT_EQ(uint32_t(spv::MemoryModelOpenCL), model.words[2]);
}

TEST(SpirvWords, AWordCountOfZeroEndsTheWalkMarkedCut) {
  std::vector<uint32_t> module = small_module();
  module[7] = word(0, spv::OpMemoryModel);
  const std::vector<Seen> seen = walk(module);
  ASSERT_EQ(2u, seen.size());
  EXPECT_TRUE(seen[1].cut);
  EXPECT_EQ(7u, seen[1].at);
  EXPECT_EQ(0u, seen[1].count);
  EXPECT_EQ(0u, seen[1].words) << "a cut instruction has no words to read";
}

TEST(SpirvWords, ACountPastTheEndEndsTheWalkMarkedCut) {
  std::vector<uint32_t> module = small_module();
  module.back() = word(4, spv::OpNop); // three words short
  const std::vector<Seen> seen = walk(module);
  ASSERT_EQ(3u, seen.size());
  EXPECT_TRUE(seen[2].cut);
  EXPECT_EQ(4u, seen[2].count);
  // The same instruction fits when the walk ends before it: [first, end) is what counts.
  const std::vector<Seen> head = walk(module, header_words, 10);
  ASSERT_EQ(2u, head.size());
  EXPECT_FALSE(head[1].cut);
  // A range inside a function, as the block orderer walks one.
  const std::vector<Seen> middle = walk(module, 7, 10);
  ASSERT_EQ(1u, middle.size());
  EXPECT_EQ(7u, middle[0].at);
}

TEST(SpirvWords, AModuleShorterThanItsHeaderOrARangePastTheEndWalksNothing) {
  const std::vector<uint32_t> header_only = {spv::MagicNumber, 0x00010000, 0};
  EXPECT_TRUE(walk(header_only).empty());
  EXPECT_TRUE(walk(std::span<const uint32_t>()).empty());
  EXPECT_TRUE(walk(small_module(), 50).empty());
}

TEST(SpirvWords, LiteralStringsEndAtTheirNulOrTheirWords) {
  // "OpenCL.std" packed little-endian: 10 bytes and a nul in three words.
  const std::vector<uint32_t> packed = {0x6e65704f, 0x732e4c43, 0x00006474};
  EXPECT_EQ("OpenCL.std", literal_string(packed));
  EXPECT_EQ("OpenCL.s", literal_string(std::span(packed).first(2))) << "no nul: what the words hold";
  EXPECT_EQ("", literal_string({}));
  const std::vector<uint32_t> empty = {0};
  EXPECT_EQ("", literal_string(empty));
}

} // namespace
} // namespace zeal::spirv
