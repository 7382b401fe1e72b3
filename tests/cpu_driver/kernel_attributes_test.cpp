// Kernel hints and attributes: indirect access, source attributes, cache configuration, cooperative group count,
// scheduling hints.
#include "test_support.hpp"
#include "tests/support/usable_cpus.hpp"

#include <cstdlib>
#include <cstring>
#include <string>

namespace zeal::cpu::test {
namespace {

class KernelAttributes : public CpuDriver {
protected:
  void SetUp() override {
    CpuDriver::SetUp();
    if (HasFatalFailure()) return;
    std::string log;
    ASSERT_EQ(ZE_RESULT_SUCCESS, build(read_kernel("attributes.spv"), module, &log)) << log;
  }

  // The attributes through the two calls: the size (a zero *pSize asks for it), then the text into a
  // buffer of that size. A null pString asks for the size too, but loader 1.8's validation layer refuses
  // it (the 1.4 text marks pString required; see ANullStringAsksForTheSize...).
  std::string source_attributes(ze_kernel_handle_t k) {
    std::string text(1, '#');
    char *buffer = text.data();
    uint32_t size = 0;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelGetSourceAttributes(k, &size, &buffer));
    EXPECT_EQ('#', text[0]) << "a size query writes nothing";
    text.assign(size, '#');
    buffer = text.data();
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelGetSourceAttributes(k, &size, &buffer));
    EXPECT_EQ(text.data(), buffer) << "the caller's buffer stays the caller's";
    EXPECT_EQ(text.size(), size_t{size});
    EXPECT_EQ('\0', text.back()) << "terminated";
    text.pop_back();
    return text;
  }

  ze_module_handle_t module = nullptr;
};

TEST_F(KernelAttributes, SourceAttributesListRequiredSizesAsIntelsDriverWritesThem) {
  EXPECT_EQ("reqd_work_group_size(8,1,1) intel_reqd_sub_group_size(16)",
            source_attributes(kernel(module, "both_attributes")));
  EXPECT_EQ("reqd_work_group_size(4,2,1)", source_attributes(kernel(module, "group_size_only")));
  EXPECT_EQ("intel_reqd_sub_group_size(8)", source_attributes(kernel(module, "sub_group_size_only")));
  EXPECT_EQ("", source_attributes(kernel(module, "no_attributes")));
}

// SPIR-V's VecTypeHint names an integer type by its width only, so `uint` in the source reads back as `int`.
TEST_F(KernelAttributes, SourceAttributesListHintsWithTheirOpenCLTypes) {
  EXPECT_EQ("work_group_size_hint(16,2,1) vec_type_hint(float4)", source_attributes(kernel(module, "hints")));
  EXPECT_EQ("reqd_work_group_size(2,2,2) work_group_size_hint(2,2,2) vec_type_hint(int) intel_reqd_sub_group_size(8)",
            source_attributes(kernel(module, "every_attribute")));
}

TEST_F(KernelAttributes, NativeBinariesKeepTheSourceAttributes) {
  size_t bytes = 0;
  ZE_ASSERT_OK(zeModuleGetNativeBinary(module, &bytes, nullptr));
  std::vector<uint8_t> blob(bytes);
  ZE_ASSERT_OK(zeModuleGetNativeBinary(module, &bytes, blob.data()));
  ze_module_handle_t loaded = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, build(blob, loaded, nullptr, "", ZE_MODULE_FORMAT_NATIVE));
  EXPECT_EQ("reqd_work_group_size(2,2,2) work_group_size_hint(2,2,2) vec_type_hint(int) intel_reqd_sub_group_size(8)",
            source_attributes(kernel(loaded, "every_attribute")));
}

TEST_F(KernelAttributes, ASmallBufferGetsTheStartOfTheAttributesTerminated) {
  ze_kernel_handle_t k = kernel(module, "group_size_only");
  char buffer[8];
  char *p = buffer;
  uint32_t size = sizeof(buffer);
  ZE_ASSERT_OK(zeKernelGetSourceAttributes(k, &size, &p));
  EXPECT_EQ(std::string("reqd_wo"), buffer);
  EXPECT_EQ(8u, size);
}

TEST_F(KernelAttributes, ANullStringPointerReceivesTheKernelsOwnCopy) {
  // The 1.4 text: "pointer to null-terminated string, whose lifetime is tied to the kernel object".
  ze_kernel_handle_t k = kernel(module, "both_attributes");
  char *text = nullptr;
  uint32_t size = 0;
  ZE_ASSERT_OK(zeKernelGetSourceAttributes(k, &size, &text));
  ASSERT_NE(nullptr, text);
  EXPECT_EQ(std::string("reqd_work_group_size(8,1,1) intel_reqd_sub_group_size(16)"), text);
  EXPECT_EQ(std::strlen(text) + 1, size_t{size});
}

TEST_F(KernelAttributes, ANullStringAsksForTheSizeWhereTheValidationLayerLetsItThrough) {
  ze_kernel_handle_t k = kernel(module, "sub_group_size_only");
  uint32_t size = 0;
  ze_result_t result = zeKernelGetSourceAttributes(k, &size, nullptr);
  const char *validation = std::getenv("ZE_ENABLE_PARAMETER_VALIDATION");
  if (validation != nullptr && std::string(validation) == "1") {
    // Loader 1.8's layer checks the 1.4 text, in which pString is required, before the driver sees the call.
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, result);
  } else {
    ZE_EXPECT_OK(result);
    EXPECT_EQ(std::strlen("intel_reqd_sub_group_size(8)") + 1, size_t{size});
  }
}

TEST_F(KernelAttributes, SourceAttributesNeedASizePointer) {
  char *text = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
            zeKernelGetSourceAttributes(kernel(module, "no_attributes"), nullptr, &text));
}

TEST_F(KernelAttributes, IndirectAccessFlagsAreKeptAndUnknownBitsRefused) {
  ze_kernel_handle_t k = kernel(module, "no_attributes");
  ze_kernel_indirect_access_flags_t flags = 0xff;
  ZE_ASSERT_OK(zeKernelGetIndirectAccess(k, &flags));
  EXPECT_EQ(0u, flags) << "none until set";
  constexpr ze_kernel_indirect_access_flags_t host = ZE_KERNEL_INDIRECT_ACCESS_FLAG_HOST,
                                              dev = ZE_KERNEL_INDIRECT_ACCESS_FLAG_DEVICE,
                                              shared = ZE_KERNEL_INDIRECT_ACCESS_FLAG_SHARED;
  for (ze_kernel_indirect_access_flags_t set : {host | shared, host | dev | shared, 0u}) {
    ZE_ASSERT_OK(zeKernelSetIndirectAccess(k, set));
    ZE_ASSERT_OK(zeKernelGetIndirectAccess(k, &flags));
    EXPECT_EQ(set, flags);
  }
  ZE_ASSERT_OK(zeKernelSetIndirectAccess(k, dev));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION, zeKernelSetIndirectAccess(k, 0x8));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION, zeKernelSetIndirectAccess(k, 0x9));
  ZE_ASSERT_OK(zeKernelGetIndirectAccess(k, &flags));
  EXPECT_EQ(dev, flags) << "a refused call changes nothing";
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeKernelGetIndirectAccess(k, nullptr));
}

TEST_F(KernelAttributes, CacheConfigAcceptsEveryValidCombinationAndRefusesUnknownBits) {
  ze_kernel_handle_t k = kernel(module, "no_attributes");
  for (ze_cache_config_flags_t flags : {0u, 1u, 2u, 3u}) ZE_EXPECT_OK(zeKernelSetCacheConfig(k, flags)) << flags;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION, zeKernelSetCacheConfig(k, 0x4));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION, zeKernelSetCacheConfig(k, 0x7));
}

// Each group of a cooperative launch gets a thread of its own: up to 64 groups per worker thread, up to 1024
// work-items per worker thread, never fewer groups than worker threads.
TEST_F(KernelAttributes, TheMaxCooperativeGroupCountFollowsTheWorkerThreadsAndTheGroupSize) {
  // ZEAL_CPU_THREADS when set, else one worker per CPU the process may run on (the device's EU count on the host profile).
  const char *variable = std::getenv("ZEAL_CPU_THREADS");
  uint32_t threads = variable != nullptr ? uint32_t(std::atoi(variable)) : 0;
  if (threads == 0) threads = zeal::test::usable_cpus();
  ze_kernel_handle_t k = kernel(module, "no_attributes");
  const struct {
    uint32_t x, y, z, expected;
  } cases[] = {
      {1, 1, 1, 64 * threads}, {16, 1, 1, 64 * threads}, {8, 4, 1, 32 * threads},
      {16, 16, 1, 4 * threads}, {8, 8, 8, 2 * threads}, {1024, 1, 1, threads},
  };
  for (const auto &c : cases) {
    ZE_ASSERT_OK(zeKernelSetGroupSize(k, c.x, c.y, c.z));
    uint32_t count = 0;
    ZE_ASSERT_OK(zeKernelSuggestMaxCooperativeGroupCount(k, &count));
    EXPECT_EQ(c.expected, count) << c.x << " x " << c.y << " x " << c.z << " on " << threads << " threads";
  }
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeKernelSuggestMaxCooperativeGroupCount(k, nullptr));
}

// ZE_experimental_scheduling_hints: the device lists no hints, a kernel accepts (and ignores) each, refuses unknown bits.
TEST_F(KernelAttributes, SchedulingHintsAreListedAsNoneAcceptedAndUnknownBitsRefused) {
  ze_scheduling_hint_exp_properties_t hints{ZE_STRUCTURE_TYPE_SCHEDULING_HINT_EXP_PROPERTIES, nullptr, 0x7};
  ze_device_module_properties_t module_properties{};
  module_properties.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
  module_properties.pNext = &hints;
  ZE_ASSERT_OK(zeDeviceGetModuleProperties(device, &module_properties));
  EXPECT_EQ(&hints, module_properties.pNext) << "the chain is the caller's";
  EXPECT_EQ(0u, hints.schedulingHintFlags);
  ze_kernel_handle_t k = kernel(module, "no_attributes");
  for (ze_scheduling_hint_exp_flags_t flags : {0u, 1u, 2u, 4u, 7u}) {
    ze_scheduling_hint_exp_desc_t hint{ZE_STRUCTURE_TYPE_SCHEDULING_HINT_EXP_DESC, nullptr, flags};
    ZE_EXPECT_OK(zeKernelSchedulingHintExp(k, &hint)) << flags;
  }
  ze_scheduling_hint_exp_desc_t unknown{ZE_STRUCTURE_TYPE_SCHEDULING_HINT_EXP_DESC, nullptr, 0x8};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION, zeKernelSchedulingHintExp(k, &unknown));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeKernelSchedulingHintExp(k, nullptr));
}

} // namespace
} // namespace zeal::cpu::test
