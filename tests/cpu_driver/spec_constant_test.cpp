// Specialization constants (ze_module_constants_t): defaults, scalars of each size, a composite, unknown ids.
#include "link_support.hpp"

namespace zeal::cpu::test {
namespace {

// spec_constants.spvasm: out[0] = id 7 (u32, 42), out[1..2] = vector of ids 9, 10 (3, 4),
// fout[0] = id 8 (float, 1.5), lout[0] = id 11 (u64, 5000000000).
class SpecConstants : public LinkingDriver {
protected:
  struct Values {
    std::vector<int> ints;
    float f;
    uint64_t l;
  };
  Values run_spec(ze_module_handle_t module) {
    float *f = shared_array<float>(1);
    uint64_t *l = shared_array<uint64_t>(1);
    std::vector<int> ints = run(kernel(module, "spec_constants"), 1, {{sizeof(f), &f}, {sizeof(l), &l}});
    (void)ints;
    return {ints, *f, *l};
  }
  ze_result_t build_with(const ze_module_constants_t *constants, ze_module_handle_t &module, std::string &text) {
    std::vector<uint8_t> spirv = read_kernel("spec_constants.spv");
    ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV, spirv.size(),
                          spirv.data(), nullptr, constants};
    ze_module_build_log_handle_t log = nullptr;
    ze_result_t r = zeModuleCreate(context, device, &desc, &module, &log);
    text = log != nullptr ? log_text(log) : std::string(); // a refused descriptor makes no log
    if (module != nullptr) modules.push_back(module);
    return r;
  }
};

TEST_F(SpecConstants, WithoutValuesTheDefaultsHold) {
  ze_module_handle_t module = nullptr;
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, build_with(nullptr, module, log)) << log;
  int *out = nullptr;
  (void)out;
  Values v = run_spec(module);
  EXPECT_EQ(42, v.ints[0]);
  EXPECT_EQ(1.5f, v.f);
  EXPECT_EQ(5000000000ull, v.l);
}

TEST_F(SpecConstants, ScalarsOfEverySizeAndACompositesConstituentsAreSpecialised) {
  uint32_t i32 = 100;
  float f32 = 2.25f;
  uint32_t x = 77, y = 88;
  uint64_t i64 = uint64_t{1} << 40;
  uint32_t ids[] = {7, 8, 9, 10, 11};
  const void *values[] = {&i32, &f32, &x, &y, &i64};
  ze_module_constants_t constants{5, ids, values};
  ze_module_handle_t module = nullptr;
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, build_with(&constants, module, log)) << log;
  EXPECT_EQ("", log);
  float *f = shared_array<float>(1);
  uint64_t *l = shared_array<uint64_t>(1);
  ze_kernel_handle_t k = kernel(module, "spec_constants");
  int *out = shared_array<int>(3);
  ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 0, sizeof(out), &out));
  ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 1, sizeof(f), &f));
  ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 2, sizeof(l), &l));
  ZE_ASSERT_OK(launch_and_wait(k, {1, 1, 1}));
  EXPECT_EQ(100, out[0]);
  EXPECT_EQ(77, out[1]);
  EXPECT_EQ(88, out[2]);
  EXPECT_EQ(2.25f, *f);
  EXPECT_EQ(uint64_t{1} << 40, *l);
}

TEST_F(SpecConstants, AnIdTheModuleLacksIsNotedAndIgnored) {
  uint32_t value = 5;
  uint32_t ids[] = {99, 7};
  const void *values[] = {&value, &value};
  ze_module_constants_t constants{2, ids, values};
  ze_module_handle_t module = nullptr;
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, build_with(&constants, module, log)) << log;
  EXPECT_EQ("specialization constant 99 is not in the module; its value is ignored\n", log);
  EXPECT_EQ(5, run_spec(module).ints[0]);
}

// Constants are optional, but given ones must be whole: a null array or value is refused, never read.
TEST_F(SpecConstants, GivenConstantsWithANullArrayOrValue_ThenInvalidNullPointerAndNoModule) {
  uint32_t value = 5;
  uint32_t ids[] = {7, 8};
  const void *values[] = {&value, nullptr};
  const ze_module_constants_t broken[] = {{2, nullptr, values}, {2, ids, nullptr}, {2, ids, values}};
  for (const ze_module_constants_t &constants : broken) {
    ze_module_handle_t module = nullptr;
    std::string log;
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, build_with(&constants, module, log));
    EXPECT_EQ(nullptr, module);
  }
  // No constants at all: the arrays are not read.
  const ze_module_constants_t none{0, nullptr, nullptr};
  ze_module_handle_t module = nullptr;
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, build_with(&none, module, log)) << log;
  EXPECT_EQ(42, run_spec(module).ints[0]);
}

} // namespace
} // namespace zeal::cpu::test
