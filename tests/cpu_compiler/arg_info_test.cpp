// KernelInfo: argument kinds, sizes and type names, and the kernel's requirements, as compile_spirv reports them.
#include "test_support.hpp"

namespace zeal::cpu::test {
namespace {

TEST(CpuCompilerKernelInfo, ReportsEveryArgumentsKindSizeAndType) {
  auto program = build("arg_info");
  ASSERT_NE(program, nullptr);
  ASSERT_EQ(program->kernels().size(), 1u);
  const KernelInfo &kernel = program->kernels()[0];
  EXPECT_EQ(kernel.name, "arg_info");
  struct Expected {
    ArgKind kind;
    uint32_t size;
    const char *type;
  };
  // The translator rebuilds type names from SPIR-V types, which keep no
  // typedef names and no signedness: blob_t reads back as "struct blob_t" and
  // ulong as "long" (uchar survives as a special case of the translator).
  const Expected expected[] = {
      {ArgKind::GlobalPointer, 8, "int*"}, {ArgKind::GlobalPointer, 8, "float*"}, {ArgKind::LocalPointer, 8, "char*"},
      {ArgKind::Value, 4, "int"},          {ArgKind::Value, 16, "float4"},        {ArgKind::Value, 40, "struct blob_t"},
      {ArgKind::Value, 8, "long"},         {ArgKind::Value, 1, "uchar"},
  };
  ASSERT_EQ(kernel.args.size(), std::size(expected));
  for (size_t i = 0; i < std::size(expected); ++i) {
    SCOPED_TRACE(::testing::Message() << "argument " << i);
    EXPECT_EQ(kernel.args[i].kind, expected[i].kind);
    EXPECT_EQ(kernel.args[i].size, expected[i].size);
    EXPECT_EQ(kernel.args[i].type_name, expected[i].type);
  }
}

TEST(CpuCompilerKernelInfo, ReportsRequiredWorkGroupAndSubGroupSizes) {
  auto program = build("arg_info");
  ASSERT_NE(program, nullptr);
  const KernelInfo &kernel = *program->find_kernel("arg_info");
  EXPECT_EQ(kernel.required_group_size[0], 8u);
  EXPECT_EQ(kernel.required_group_size[1], 4u);
  EXPECT_EQ(kernel.required_group_size[2], 1u);
  EXPECT_EQ(kernel.required_subgroup_size, 16u);
  EXPECT_FALSE(kernel.uses_barriers);
  EXPECT_EQ(kernel.static_local_bytes, 0u);
}

TEST(CpuCompilerKernelInfo, KernelsWithoutRequirementsReportZeros) {
  auto program = build("vector_add");
  ASSERT_NE(program, nullptr);
  const KernelInfo &kernel = *program->find_kernel("vector_add");
  EXPECT_EQ(kernel.required_group_size[0], 0u);
  EXPECT_EQ(kernel.required_subgroup_size, 0u);
  EXPECT_EQ(program->find_kernel("no_such_kernel"), nullptr);
}

} // namespace
} // namespace zeal::cpu::test
