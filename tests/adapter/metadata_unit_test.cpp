// Device-image metadata reading and SPIR-V kernel stripping, called directly (no Level Zero).
#include "adapter/core/metadata.hpp"
#include "adapter/core/spirv_strip.hpp"
#include "module_linker/range_type.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>

using namespace zeal::adapter;

namespace {

zeal_metadata_entry_t entry(const char *key, const char *value) { return {key, value, std::strlen(value)}; }

std::vector<uint8_t> kernel_file(const std::string &name) {
  std::ifstream in(std::string(ZEAL_TEST_KERNEL_DIR) + "/" + name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

TEST(Metadata, ListsAndPerKernelAndPerFunctionEntriesAreRead) {
  const zeal_metadata_entry_t entries[] = {
      entry("kernels", "a;b.c"),
      entry("exports", "f;g"),
      entry("imports", "h"),
      entry("kernel.a.reqd_sub_group_size", "16"),
      entry("kernel.b.c.reqd_work_group_size", "8,2,1"),
      entry("kernel.b.c.range_type", "int"),
      entry("function.f.sub_group_size", "primary"),
      entry("function.f.range_type", "65536"),
      entry("some.future.key", "ignored"),
  };
  auto m = read_metadata(entries, nullptr, 32);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->kernels, (std::vector<std::string>{"a", "b.c"}));
  EXPECT_EQ(m->exports, (std::vector<std::string>{"f", "g"}));
  EXPECT_EQ(m->imports, (std::vector<std::string>{"h"}));
  ASSERT_NE(m->kernel("a"), nullptr);
  EXPECT_EQ(m->kernel("a")->sub_group_size, 16u);
  ASSERT_NE(m->kernel("b.c"), nullptr);
  EXPECT_EQ(m->kernel("b.c")->work_group_size, (std::array<uint32_t, 3>{8, 2, 1}));
  EXPECT_EQ(m->kernel("b.c")->range_limit, 2147483647u);
  ASSERT_NE(m->function("f"), nullptr);
  EXPECT_EQ(m->function("f")->sub_group_size, 32u);
  EXPECT_EQ(m->function("f")->range_limit, 65536u);
}

TEST(Metadata, MalformedValuesNameKeyAndValue) {
  struct Case {
    zeal_metadata_entry_t e;
    const char *message;
  } cases[] = {
      {entry("kernel.k.reqd_sub_group_size", "sixteen"),
       "metadata entry 'kernel.k.reqd_sub_group_size' has value 'sixteen', expected a sub-group size, 'primary' or "
       "'automatic'"},
      {entry("kernel.k.reqd_work_group_size", "8,2"),
       "metadata entry 'kernel.k.reqd_work_group_size' has value '8,2', expected three non-zero sizes 'x,y,z'"},
      {entry("kernel.k.range_type", "float"),
       "metadata entry 'kernel.k.range_type' has value 'float', expected a work-item count or an integer type name"},
      {entry("kernel.range_type", "int"),
       "metadata entry 'kernel.range_type' has value 'int', expected a key of the form prefix.<name>.<property>"},
  };
  for (const auto &c : cases) {
    auto m = read_metadata(std::span(&c.e, 1), nullptr, 16);
    ASSERT_FALSE(m.ok()) << c.e.key;
    EXPECT_EQ(m.error().code, ZEAL_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(m.error().message, c.message);
  }
}

TEST(Metadata, RangeTypeAcceptsNumbersAndIntegerTypeNames) {
  using zeal::module_linker::parse_range_type;
  EXPECT_EQ(parse_range_type("uint8_t")->max, 255u);
  EXPECT_EQ(parse_range_type("unsigned int")->max, 4294967295u);
  EXPECT_EQ(parse_range_type("size_t")->max, UINT64_MAX);
  EXPECT_EQ(parse_range_type("1000")->max, 1000u);
  EXPECT_FALSE(parse_range_type("double").has_value());
}

TEST(Metadata, SpirvFactsMergeAndContradictionsAreRefused) {
  zeal::module_linker::ModuleInfo spirv;
  zeal::module_linker::EntryPoint ep;
  ep.name = "k";
  ep.execution_model = 6;
  ep.required_sub_group_size = 8;
  spirv.entry_points.push_back(ep);
  spirv.exports = {"k", "helper"};
  auto ok = read_metadata({}, &spirv, 16);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->kernels, (std::vector<std::string>{"k"}));
  EXPECT_EQ(ok->kernel("k")->sub_group_size, 8u);
  const zeal_metadata_entry_t contradiction = entry("kernel.k.reqd_sub_group_size", "16");
  auto bad = read_metadata(std::span(&contradiction, 1), &spirv, 16);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "metadata says kernel 'k' requires sub-group size 16 but its SPIR-V says 8");
  const zeal_metadata_entry_t unknown = entry("kernels", "k;ghost");
  auto missing = read_metadata(std::span(&unknown, 1), &spirv, 16);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "metadata names kernel 'ghost' but the SPIR-V module has no such entry point");
}

TEST(SpirvStrip, StrippedKernelIsNoLongerAnEntryPointAndTheOthersStay) {
  auto spirv = kernel_file("sub_groups.spv");
  ASSERT_FALSE(spirv.empty());
  auto before = zeal::module_linker::inspect_spirv(std::span<const uint8_t>(spirv));
  ASSERT_TRUE(before.ok());
  auto stripped = strip_kernels(spirv, {"needs_64"});
  ASSERT_TRUE(stripped.ok()) << stripped.error().message;
  auto after = zeal::module_linker::inspect_spirv(std::span<const uint8_t>(stripped.value()));
  ASSERT_TRUE(after.ok()) << after.error().message;
  EXPECT_EQ(after->entry_points.size() + 1, before->entry_points.size());
  EXPECT_EQ(after->find_entry_point("needs_64"), nullptr);
  ASSERT_NE(after->find_entry_point("needs_32"), nullptr);
  EXPECT_EQ(after->find_entry_point("needs_32")->required_sub_group_size, 32u);
  const uint8_t junk[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  auto bad = strip_kernels(junk, {"k"});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "the binary is not SPIR-V: its first word is 0x04030201, not the magic number 0x07230203");
  auto ragged = strip_kernels(std::span(junk, 7), {"k"});
  ASSERT_FALSE(ragged.ok());
  EXPECT_EQ(ragged.error().message, "SPIR-V to strip is not a whole number of words");
}
