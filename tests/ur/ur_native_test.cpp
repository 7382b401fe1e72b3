// Native handles into UR, as SYCL's Level Zero interop (make_platform, make_device, make_context,
// make_kernel_bundle, make_kernel, make_event, make_buffer) uses them: Level Zero objects the application made
// itself become UR objects that work, ownership is taken or left as the properties say, and bad handles get
// UR's codes with a sentence.
#include "ur_program_fixture.hpp"

#include <level_zero/ze_api.h>

namespace zeal_ur_test {
namespace {

#define ZE_ASSERT_OK(call) ASSERT_EQ(ZE_RESULT_SUCCESS, (call)) << #call
#define ZE_EXPECT_OK(call) EXPECT_EQ(ZE_RESULT_SUCCESS, (call)) << #call

class UrNative : public UrPrograms {
protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(UrPrograms::SetUp());
    ZE_ASSERT_OK(zeInit(0));
    auto driver = native_of<ze_driver_handle_t>(urPlatformGetNativeHandle, platform);
    UR_ASSERT_OK(driver.result);
    ze_driver = driver.handle;
    auto dev = native_of<ze_device_handle_t>(urDeviceGetNativeHandle, device);
    UR_ASSERT_OK(dev.result);
    ze_device = dev.handle;
  }

  // The application's own Level Zero context and a module of vector_add.spv built in it.
  void make_level_zero_objects() {
    ze_context_desc_t context_desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    ZE_ASSERT_OK(zeContextCreate(ze_driver, &context_desc, &ze_context));
    spirv = kernel_file("vector_add.spv");
    ze_module_desc_t module_desc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_IL_SPIRV, spirv.size(),
                                 spirv.data(), nullptr, nullptr};
    ZE_ASSERT_OK(zeModuleCreate(ze_context, ze_device, &module_desc, &ze_module, nullptr));
  }

  ze_driver_handle_t ze_driver = nullptr;
  ze_device_handle_t ze_device = nullptr;
  ze_context_handle_t ze_context = nullptr;
  ze_module_handle_t ze_module = nullptr;
  std::vector<uint8_t> spirv;
};

TEST_F(UrNative, PlatformsAndDevicesComeBackAsTheirOwnHandles) {
  ur_platform_handle_t p = nullptr;
  UR_ASSERT_OK(urPlatformCreateWithNativeHandle(to_native(ze_driver), adapter, nullptr, &p)) << error();
  EXPECT_EQ(platform, p);
  ur_device_handle_t d = nullptr;
  UR_ASSERT_OK(urDeviceCreateWithNativeHandle(to_native(ze_device), adapter, nullptr, &d)) << error();
  EXPECT_EQ(device, d) << "one native device, one UR handle";
  int not_a_device = 0;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE,
            urDeviceCreateWithNativeHandle(to_native(&not_a_device), adapter, nullptr, &d));
  if (zeal_sees_bad_input()) {
    EXPECT_NE(std::string::npos, error().find("is not the Level Zero device of any of zeal's devices")) << error();
  }
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE,
            urPlatformCreateWithNativeHandle(to_native(&not_a_device), adapter, nullptr, &p));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE,
            urDeviceCreateWithNativeHandle(to_native(ze_device), nullptr, nullptr, &d));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER,
            urPlatformCreateWithNativeHandle(to_native(ze_driver), adapter, nullptr, nullptr));
}

// The whole interop path: the application's context, module, kernel, memory and event, each made a UR object,
// run a kernel together; what UR did not take stays the application's to destroy, and does.
TEST_F(UrNative, AnApplicationsLevelZeroObjectsRunThroughUr) {
  ASSERT_NO_FATAL_FAILURE(make_level_zero_objects());
  // The context and the module are handed over (UR destroys them); the rest stays the application's.
  const ur_context_native_properties_t take_context{UR_STRUCTURE_TYPE_CONTEXT_NATIVE_PROPERTIES, nullptr, true};
  ur_context_handle_t ctx = nullptr;
  UR_ASSERT_OK(urContextCreateWithNativeHandle(to_native(ze_context), adapter, 1, &device, &take_context, &ctx))
      << error();
  uint32_t devices = 0;
  UR_ASSERT_OK(urContextGetInfo(ctx, UR_CONTEXT_INFO_NUM_DEVICES, sizeof devices, &devices, nullptr));
  EXPECT_EQ(1u, devices);
  auto back = native_of<ze_context_handle_t>(urContextGetNativeHandle, ctx);
  UR_ASSERT_OK(back.result);
  EXPECT_EQ(ze_context, back.handle);

  const ur_program_native_properties_t take_module{UR_STRUCTURE_TYPE_PROGRAM_NATIVE_PROPERTIES, nullptr, true};
  ur_program_handle_t program = nullptr;
  UR_ASSERT_OK(urProgramCreateWithNativeHandle(to_native(ze_module), ctx, &take_module, &program)) << error();
  const std::string names = info_string(program_info(program, UR_PROGRAM_INFO_KERNEL_NAMES));
  EXPECT_NE(std::string::npos, names.find("scale")) << names;
  ur_context_handle_t owner = nullptr;
  UR_ASSERT_OK(urProgramGetInfo(program, UR_PROGRAM_INFO_CONTEXT, sizeof owner, &owner, nullptr));
  EXPECT_EQ(ctx, owner);

  ze_kernel_desc_t kernel_desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "scale"};
  ze_kernel_handle_t ze_kernel = nullptr;
  ZE_ASSERT_OK(zeKernelCreate(ze_module, &kernel_desc, &ze_kernel));
  ur_kernel_handle_t kernel = nullptr;
  UR_ASSERT_OK(urKernelCreateWithNativeHandle(to_native(ze_kernel), ctx, program, nullptr, &kernel)) << error();
  EXPECT_EQ("scale", info_string(kernel_info(kernel, UR_KERNEL_INFO_FUNCTION_NAME)));
  uint32_t args = 0;
  UR_ASSERT_OK(urKernelGetInfo(kernel, UR_KERNEL_INFO_NUM_ARGS, sizeof args, &args, nullptr));
  EXPECT_EQ(2u, args);

  constexpr size_t n = 256;
  ze_device_mem_alloc_desc_t device_desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
  ze_host_mem_alloc_desc_t host_desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
  void *memory = nullptr;
  ZE_ASSERT_OK(zeMemAllocShared(ze_context, &device_desc, &host_desc, n * sizeof(int), 64, ze_device, &memory));
  ur_mem_handle_t buffer = nullptr;
  UR_ASSERT_OK(urMemBufferCreateWithNativeHandle(to_native(memory), ctx, nullptr, &buffer)) << error();
  size_t size = 0;
  UR_ASSERT_OK(urMemGetInfo(buffer, UR_MEM_INFO_SIZE, sizeof size, &size, nullptr));
  EXPECT_EQ(n * sizeof(int), size) << "the buffer reaches to the end of the allocation";

  // The application's event gates a launch of its kernel on its memory.
  ze_event_pool_desc_t pool_desc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
  ze_event_pool_handle_t pool = nullptr;
  ZE_ASSERT_OK(zeEventPoolCreate(ze_context, &pool_desc, 1, &ze_device, &pool));
  ze_event_desc_t event_desc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                             ZE_EVENT_SCOPE_FLAG_HOST};
  ze_event_handle_t ze_event = nullptr;
  ZE_ASSERT_OK(zeEventCreate(pool, &event_desc, &ze_event));
  ur_event_handle_t gate = nullptr;
  UR_ASSERT_OK(urEventCreateWithNativeHandle(to_native(ze_event), ctx, nullptr, &gate)) << error();
  ur_event_status_t status{};
  UR_ASSERT_OK(urEventGetInfo(gate, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr));
  EXPECT_NE(UR_EVENT_STATUS_COMPLETE, status);

  ur_queue_handle_t q = nullptr;
  UR_ASSERT_OK(urQueueCreate(ctx, device, nullptr, &q));
  const int three = 3;
  const ur_exp_kernel_arg_properties_t launch_args[2] = {buffer_arg(0, buffer), value(1, &three)};
  const size_t global = n, local = 64;
  ur_event_handle_t done = nullptr;
  UR_ASSERT_OK(urEnqueueKernelLaunchWithArgsExp(q, kernel, 1, nullptr, &global, &local, 2, launch_args, nullptr, 1,
                                                &gate, &done))
      << error();
  UR_ASSERT_OK(urEventGetInfo(done, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr));
  EXPECT_NE(UR_EVENT_STATUS_COMPLETE, status) << "the launch waits for the application's event";
  ZE_ASSERT_OK(zeEventHostSignal(ze_event));
  UR_ASSERT_OK(urEventWait(1, &done));
  std::vector<int> out(n, -1);
  UR_ASSERT_OK(urEnqueueMemBufferRead(q, buffer, true, 0, n * sizeof(int), out.data(), 0, nullptr, nullptr));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(static_cast<int>(i) * 3, out[i]) << "element " << i;
  EXPECT_EQ(static_cast<int>(n - 1) * 3, static_cast<int *>(memory)[n - 1]) << "the application's memory itself";

  UR_EXPECT_OK(urEventRelease(done));
  UR_EXPECT_OK(urQueueRelease(q));
  UR_EXPECT_OK(urEventRelease(gate));
  UR_EXPECT_OK(urMemRelease(buffer));
  UR_EXPECT_OK(urKernelRelease(kernel));
  // What UR was not given is still alive, and the application destroys it.
  ZE_EXPECT_OK(zeEventQueryStatus(ze_event));
  ZE_EXPECT_OK(zeEventDestroy(ze_event));
  ZE_EXPECT_OK(zeEventPoolDestroy(pool));
  ZE_EXPECT_OK(zeMemFree(ze_context, memory));
  ze_kernel_properties_t props{};
  props.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
  ZE_EXPECT_OK(zeKernelGetProperties(ze_kernel, &props));
  ZE_EXPECT_OK(zeKernelDestroy(ze_kernel));
  // The module and the context were given: releasing the UR objects destroys them (a leak shows under ASan).
  UR_EXPECT_OK(urProgramRelease(program));
  UR_EXPECT_OK(urContextRelease(ctx));
}

// Not handed over, a native object outlives the UR object made from it; a native handle from one of zeal's own
// UR objects works the same way.
TEST_F(UrNative, WhatIsNotHandedOverOutlivesItsUrObject) {
  ASSERT_NO_FATAL_FAILURE(make_level_zero_objects());
  ur_context_handle_t ctx = nullptr;
  UR_ASSERT_OK(urContextCreateWithNativeHandle(to_native(ze_context), adapter, 1, &device, nullptr, &ctx)) << error();
  ur_program_handle_t program = nullptr;
  UR_ASSERT_OK(urProgramCreateWithNativeHandle(to_native(ze_module), ctx, nullptr, &program)) << error();
  ur_kernel_handle_t own = nullptr;
  UR_ASSERT_OK(urKernelCreate(program, "vector_add", &own)) << "urKernelCreate on an adopted module: " << error();
  UR_EXPECT_OK(urKernelRelease(own));
  UR_EXPECT_OK(urProgramRelease(program));
  UR_EXPECT_OK(urContextRelease(ctx));
  uint32_t count = 0;
  ZE_EXPECT_OK(zeModuleGetKernelNames(ze_module, &count, nullptr));
  EXPECT_EQ(3u, count);
  ZE_EXPECT_OK(zeModuleDestroy(ze_module));
  ZE_EXPECT_OK(zeContextDestroy(ze_context));

  // A buffer from another buffer's USM, not owned: both see the same bytes, the first keeps its memory.
  ur_mem_handle_t first = nullptr;
  UR_ASSERT_OK(urMemBufferCreate(context, UR_MEM_FLAG_READ_WRITE, 64, nullptr, &first));
  auto usm = native_of(urMemGetNativeHandle, first, device);
  UR_ASSERT_OK(usm.result);
  ur_mem_handle_t second = nullptr;
  UR_ASSERT_OK(urMemBufferCreateWithNativeHandle(usm.handle + 16, context, nullptr, &second)) << error();
  size_t size = 0;
  UR_ASSERT_OK(urMemGetInfo(second, UR_MEM_INFO_SIZE, sizeof size, &size, nullptr));
  EXPECT_EQ(48u, size) << "from the pointer to the end of its allocation";
  ur_queue_handle_t q = nullptr;
  UR_ASSERT_OK(urQueueCreate(context, device, nullptr, &q));
  const uint32_t zero = 0, seven = 7;
  UR_ASSERT_OK(urEnqueueMemBufferFill(q, first, &zero, 4, 0, 64, 0, nullptr, nullptr));
  UR_ASSERT_OK(urEnqueueMemBufferFill(q, second, &seven, 4, 0, 48, 0, nullptr, nullptr));
  UR_EXPECT_OK(urMemRelease(second));
  uint32_t got[16] = {};
  UR_ASSERT_OK(urEnqueueMemBufferRead(q, first, true, 0, sizeof got, got, 0, nullptr, nullptr));
  EXPECT_EQ(0u, got[3]) << "bytes before the second buffer's start are not its";
  EXPECT_EQ(7u, got[4]);
  EXPECT_EQ(7u, got[15]);
  // Ownership of bytes inside an allocation cannot be taken: only its first byte frees it.
  const ur_mem_native_properties_t take{UR_STRUCTURE_TYPE_MEM_NATIVE_PROPERTIES, nullptr, true};
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE, urMemBufferCreateWithNativeHandle(usm.handle + 16, context, &take, &second));
  if (zeal_sees_bad_input()) {
    EXPECT_NE(std::string::npos, error().find("16 bytes into its allocation")) << error();
  }
  UR_EXPECT_OK(urQueueRelease(q));
  UR_EXPECT_OK(urMemRelease(first));
}

TEST_F(UrNative, BadNativeHandlesGetTheSpecsCodes) {
  int on_the_stack = 0;
  ur_mem_handle_t buffer = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE,
            urMemBufferCreateWithNativeHandle(to_native(&on_the_stack), context, nullptr, &buffer));
  if (zeal_sees_bad_input()) {
    EXPECT_NE(std::string::npos, error().find("is not memory Level Zero allocated in this context")) << error();
  }
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urMemBufferCreateWithNativeHandle(0, nullptr, nullptr, &buffer));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER,
            urMemBufferCreateWithNativeHandle(to_native(&on_the_stack), context, nullptr, nullptr));

  ur_context_handle_t ctx = nullptr;
  auto [got_context, native_context] = native_of(urContextGetNativeHandle, context);
  UR_ASSERT_OK(got_context);
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_VALUE,
            urContextCreateWithNativeHandle(native_context, adapter, 0, nullptr, nullptr, &ctx));
  if (zeal_sees_bad_input()) {
    EXPECT_NE(std::string::npos, error().find("cannot ask a Level Zero context for its devices")) << error();
  }
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE,
            urContextCreateWithNativeHandle(native_context, nullptr, 1, &device, nullptr, &ctx));

  ur_program_handle_t program = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urProgramCreateWithNativeHandle(0, context, nullptr, &program));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER,
            urProgramCreateWithNativeHandle(native_context, context, nullptr, nullptr));

  // A kernel of another module than the program's: its name is not the program's.
  ur_program_handle_t vector_add = built("vector_add.spv");
  ur_program_handle_t null_args = built("null_args.spv");
  ASSERT_NE(nullptr, vector_add);
  ASSERT_NE(nullptr, null_args);
  ur_kernel_handle_t foreign = nullptr;
  const std::string other_names = info_string(program_info(null_args, UR_PROGRAM_INFO_KERNEL_NAMES));
  const std::string first_name = other_names.substr(0, other_names.find(';'));
  UR_ASSERT_OK(urKernelCreate(null_args, first_name.c_str(), &foreign));
  auto [got_kernel, native_kernel] = native_of(urKernelGetNativeHandle, foreign);
  UR_ASSERT_OK(got_kernel);
  ur_kernel_handle_t k = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_KERNEL_NAME,
            urKernelCreateWithNativeHandle(native_kernel, context, vector_add, nullptr, &k));
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE,
            urKernelCreateWithNativeHandle(native_kernel, context, nullptr, nullptr, &k))
      << "zeal needs the program of a native kernel";
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urKernelCreateWithNativeHandle(0, context, vector_add, nullptr, &k));
  UR_EXPECT_OK(urKernelRelease(foreign));

  ur_event_handle_t event = nullptr;
  EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_HANDLE, urEventCreateWithNativeHandle(0, nullptr, nullptr, &event));
}

} // namespace
} // namespace zeal_ur_test
