// Enum values crossing the C ABI: numbers outside an enum are refused with a sentence, never read as the enum.
// Run under UBSan (-fsanitize=enum), these prove the adapter reads every such value as its integer.
#include "adapter_fixture.hpp"

using namespace zeal_test;

namespace {

// A number no enum of the ABI has; a C caller may pass any.
constexpr uint32_t kOutOfRange = 999;

// 999 written into an enum-typed field through its integer representation, as a
// C caller (or a caller with a newer header) would: no enum value is ever formed.
template <class Enum>
void write_number(Enum &field, uint32_t number) {
  static_assert(sizeof(Enum) == sizeof(number));
  std::memcpy(&field, &number, sizeof number);
}

} // namespace

TEST_F(AdapterTest, GivenUnknownProgramFormat_WhenCreating_ThenInvalidEnumerationNamesTheFormat) {
  auto spirv = read_kernel("vector_add.spv");
  zeal_program_desc_t desc{ZEAL_PROGRAM_FORMAT_SPIRV, spirv.data(), spirv.size(), 0, nullptr};
  write_number(desc.format, kOutOfRange);
  zeal_program_handle_t program = nullptr;
  EXPECT_EQ(d.programCreate(context, device, &desc, &program), ZEAL_RESULT_ERROR_INVALID_ENUMERATION);
  EXPECT_EQ(last_error(),
            "programCreate: the descriptor's format 999 is not a zeal_program_format_t (SPIRV 1 or NATIVE 2)");
  EXPECT_EQ(program, nullptr);
}

TEST_F(AdapterTest, GivenUnknownUsmKind_WhenAllocating_ThenInvalidEnumerationNamesTheKind) {
  uint32_t kind = kOutOfRange;
  void *p = nullptr;
  EXPECT_EQ(d.usmAlloc(context, device, static_cast<zeal_usm_kind_t>(kind), 64, 0, &p),
            ZEAL_RESULT_ERROR_INVALID_ENUMERATION);
  EXPECT_EQ(last_error(), "usmAlloc: kind 999 is not a zeal_usm_kind_t (HOST 1, DEVICE 2 or SHARED 3)");
  EXPECT_EQ(p, nullptr);
  kind = 0; // below the enum's first value too
  EXPECT_EQ(d.usmAlloc(context, device, static_cast<zeal_usm_kind_t>(kind), 64, 0, &p),
            ZEAL_RESULT_ERROR_INVALID_ENUMERATION);
  EXPECT_EQ(last_error(), "usmAlloc: kind 0 is not a zeal_usm_kind_t (HOST 1, DEVICE 2 or SHARED 3)");
}

TEST_F(AdapterTest, GivenUnknownDeviceType_WhenListingDevices_ThenInvalidEnumerationNamesTheType) {
  uint32_t n = 0;
  zeal_platform_handle_t platform = nullptr;
  ASSERT_EQ(d.platformGet(adapter, &n, nullptr), ZEAL_RESULT_SUCCESS) << last_error();
  n = 1;
  ASSERT_EQ(d.platformGet(adapter, &n, &platform), ZEAL_RESULT_SUCCESS) << last_error();
  for (int32_t type : {999, -1}) {
    uint32_t count = 0;
    EXPECT_EQ(d.deviceGet(platform, static_cast<zeal_device_type_t>(type), &count, nullptr),
              ZEAL_RESULT_ERROR_INVALID_ENUMERATION);
    EXPECT_EQ(last_error(),
              "deviceGet: type " + std::to_string(type) + " is not a zeal_device_type_t (ALL 0 to ACCELERATOR 4)");
  }
}

TEST_F(AdapterTest, GivenUnknownQueueFlags_WhenCreatingQueue_ThenInvalidEnumerationNamesTheFlags) {
  zeal_queue_handle_t q = nullptr;
  EXPECT_EQ(d.queueCreate(context, device, kOutOfRange, &q), ZEAL_RESULT_ERROR_INVALID_ENUMERATION);
  EXPECT_EQ(last_error(), "queueCreate: flags 0x3e7 has bits the adapter does not know");
  EXPECT_EQ(q, nullptr);
}

TEST_F(AdapterTest, GivenUnknownInfoKeys_WhenQuerying_ThenInvalidEnumerationNamesTheKey) {
  int32_t key = static_cast<int32_t>(kOutOfRange);
  uint32_t n = 1;
  zeal_platform_handle_t platform = nullptr;
  ASSERT_EQ(d.platformGet(adapter, &n, &platform), ZEAL_RESULT_SUCCESS) << last_error();
  size_t size = 0;
  EXPECT_EQ(d.platformGetInfo(platform, static_cast<zeal_platform_info_t>(key), 0, nullptr, &size),
            ZEAL_RESULT_ERROR_INVALID_ENUMERATION);
  EXPECT_EQ(last_error(), "platform info key 999 is not known to the adapter");
  EXPECT_EQ(d.deviceGetInfo(device, static_cast<zeal_device_info_t>(key), 0, nullptr, &size),
            ZEAL_RESULT_ERROR_INVALID_ENUMERATION);
  EXPECT_EQ(last_error(), "device '" + device_name + "' info key 999 is not known to the adapter");
}

class EnumArgTest : public VectorAddProgramTest {
protected:
  void SetUp() override {
    VectorAddProgramTest::SetUp();
    if (HasFatalFailure()) return;
    k = kernel("scale");
    ASSERT_NE(k, nullptr);
  }
  void TearDown() override {
    if (k) {
      EXPECT_EQ(d.kernelRelease(k), ZEAL_RESULT_SUCCESS);
    }
    VectorAddProgramTest::TearDown();
  }
  zeal_kernel_handle_t k = nullptr;
};

TEST_F(EnumArgTest, GivenUnknownArgumentKind_WhenSettingIt_ThenInvalidEnumerationNamesKindAndArgument) {
  const int factor = 3;
  zeal_kernel_arg_t arg{1, ZEAL_KERNEL_ARG_VALUE, sizeof(factor), &factor};
  write_number(arg.kind, kOutOfRange);
  EXPECT_EQ(d.kernelSetArg(k, &arg), ZEAL_RESULT_ERROR_INVALID_ENUMERATION);
  EXPECT_EQ(last_error(), "argument 1 of kernel 'scale' has kind 999, which is not a zeal_kernel_arg_kind_t "
                          "(VALUE 1, USM_POINTER 2, LOCAL 3, IMAGE 4 or SAMPLER 5)");
}

TEST_F(EnumArgTest, GivenUnknownArgumentKind_WhenLaunching_ThenInvalidEnumerationAndNothingRuns) {
  auto *out = alloc<int>(16);
  ASSERT_NE(out, nullptr);
  const int factor = 3;
  zeal_kernel_arg_t args[] = {usm_arg(0, out), {1, ZEAL_KERNEL_ARG_VALUE, sizeof(factor), &factor}};
  write_number(args[1].kind, kOutOfRange);
  auto launch = launch_1d(16, 0, 2, args);
  EXPECT_EQ(d.enqueueKernelLaunch(queue, k, &launch, 0, nullptr, nullptr), ZEAL_RESULT_ERROR_INVALID_ENUMERATION);
  EXPECT_EQ(last_error(), "argument 1 of kernel 'scale' has kind 999, which is not a zeal_kernel_arg_kind_t "
                          "(VALUE 1, USM_POINTER 2, LOCAL 3, IMAGE 4 or SAMPLER 5)");
  EXPECT_EQ(d.usmFree(context, out), ZEAL_RESULT_SUCCESS);
}
