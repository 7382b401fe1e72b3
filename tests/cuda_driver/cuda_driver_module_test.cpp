// The CUDA driver's modules through the Level Zero loader: SPIR-V and PTX (a native binary as it is), the build
// flags and the PTX cache, dynamic linking, and function pointers within a module and across modules (the joint
// module, cuda_driver/runtime/joint_module.hpp). Tests that need a GPU skip without one, saying so.
#include "cuda_driver_fixture.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

namespace zeal::test {
namespace {

// PTX written by hand (by another compiler, say) is a native binary as it is: every parameter taken by value.
constexpr char scale_ptx[] = R"(
.version 7.0
.target sm_80
.address_size 64
.visible .entry scale(.param .u64 data, .param .f32 factor) {
  .reg .b32 %r<5>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [data];
  ld.param.f32 %f1, [factor];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.s32 %r4, %r1, %r2, %r3;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.s32 %rd3, %r4, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.f32 %f2, [%rd4];
  mul.f32 %f2, %f2, %f1;
  st.global.f32 [%rd4], %f2;
  ret;
}
)";

// scale_ptx as a native binary.
ze_result_t create_scale_module(ze_context_handle_t context, ze_device_handle_t device, ze_module_handle_t &module) {
  std::span<const uint8_t> ptx(reinterpret_cast<const uint8_t *>(scale_ptx), sizeof scale_ptx);
  return create_module(context, device, ptx, module, nullptr, ZE_MODULE_FORMAT_NATIVE);
}

TEST_F(CudaDriver, PtxAsANativeBinaryRunsAsItIs) {
  ze_module_handle_t module = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_scale_module(context, device, module));
  ze_kernel_handle_t kernel = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(module, "scale", kernel));
  constexpr uint32_t n = 1024;
  float *data = static_cast<float *>(shared_memory(n * sizeof(float)));
  for (uint32_t i = 0; i < n; ++i) data[i] = float(i);
  float factor = 2.5f;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 0, sizeof data, &data));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 1, sizeof factor, &factor));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(kernel, 128, 1, 1));
  ze_group_count_t groups{n / 128, 1, 1};
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(list, kernel, &groups, nullptr, 0, nullptr));
  finish();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(float(i) * 2.5f, data[i]) << i;
  zeMemFree(context, data);
  zeKernelDestroy(kernel);
  zeModuleDestroy(module);
}

TEST_F(CudaDriver, AnUnknownKernelNameAndBadPtxGetTheirCodes) {
  ze_module_handle_t module = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_scale_module(context, device, module));
  ze_kernel_handle_t kernel = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_NAME, create_kernel(module, "no_such_kernel", kernel));
  zeModuleDestroy(module);
  const char broken[] = ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry f() { bogus; }\n";
  ze_module_build_log_handle_t log = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE,
            create_module(context, device, {reinterpret_cast<const uint8_t *>(broken), sizeof broken}, module,
                          nullptr, ZE_MODULE_FORMAT_NATIVE, &log));
  std::string text;
  read_build_log(log, text);
  EXPECT_NE(std::string::npos, text.find("CUDA could not load the module's PTX")) << text;
}

TEST_F(CudaDriver, ASpirvVectorAddRunsAndItsNativeBinaryBuildsAgain) {
  std::vector<uint8_t> spirv = read_kernel("vector_add");
  ASSERT_FALSE(spirv.empty());
  ze_module_handle_t module = nullptr;
  ASSERT_NO_FATAL_FAILURE(build(spirv, module));
  ze_module_handle_t again = nullptr;
  ASSERT_NO_FATAL_FAILURE(rebuild_from_native(module, again));
  constexpr uint32_t n = 1 << 20;
  float *a = static_cast<float *>(shared_memory(n * 4)), *b = static_cast<float *>(shared_memory(n * 4));
  float *c = static_cast<float *>(shared_memory(n * 4));
  for (uint32_t i = 0; i < n; ++i) a[i] = float(i), b[i] = float(2 * i), c[i] = -1;
  for (ze_module_handle_t m : {module, again}) {
    ze_kernel_handle_t kernel = nullptr;
    ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(m, "vector_add", kernel));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 0, 8, &a));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 1, 8, &b));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 2, 8, &c));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(kernel, 256, 1, 1));
    ze_group_count_t groups{n / 256, 1, 1};
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(list, kernel, &groups, nullptr, 0, nullptr));
    finish();
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(float(3 * i), c[i]) << i;
    std::fill(c, c + n, -1.0f);
    zeKernelDestroy(kernel);
  }
  for (float *p : {a, b, c}) zeMemFree(context, p);
  zeModuleDestroy(again);
  zeModuleDestroy(module);
}

// The native binary says which flags its code was built with, as Intel's compiler's binaries do; a flag neither
// zeal nor Intel's compiler knows gets a line in the build log (the build goes on).
TEST_F(CudaDriver, TheNativeBinaryRecordsTheBuildFlagsAndTheLogNamesAnUnknownOne) {
  for (const auto &[flags, record] : {std::pair("-ze-opt-level=3 -ze-opt-large-register-file", "-ze-opt-level=O3"),
                                      std::pair("-ze-opt-disable -library-compilation",
                                                "-ze-opt-level=O0 -library-compilation")}) {
    ze_module_handle_t module = nullptr;
    ASSERT_EQ(ZE_RESULT_SUCCESS, create_module(context, device, read_kernel("vector_add"), module, flags));
    size_t size = 0;
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetNativeBinary(module, &size, nullptr));
    std::string native(size, '\0');
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetNativeBinary(module, &size, reinterpret_cast<uint8_t *>(native.data())));
    EXPECT_NE(std::string::npos, native.find(std::string("// zeal.build ") + record + "\n")) << flags;
    zeModuleDestroy(module);
  }
  ze_module_handle_t module = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_module(context, device, read_kernel("vector_add"), module, "-no-such-flag",
                                             ZE_MODULE_FORMAT_IL_SPIRV, &log));
  std::string text;
  read_build_log(log, text);
  EXPECT_NE(std::string::npos, text.find("unknown build flag '-no-such-flag' ignored")) << text;
  zeModuleDestroy(module);
}

TEST_F(CudaDriver, ASecondBuildOfAModuleIsReadFromTheCacheAndACorruptEntryIsBuiltAgain) {
  std::vector<uint8_t> spirv = read_kernel("vector_add");
  const char *flags = "-ze-opt-level=1"; // a key no other test builds (the cache entries are counted)
  size_t before = cached_modules();
  uintmax_t whole = 0;
  for (int build = 0; build < 3; ++build) {
    ze_module_handle_t module = nullptr;
    ASSERT_EQ(ZE_RESULT_SUCCESS, create_module(context, device, spirv, module, flags)) << "build " << build;
    ze_kernel_handle_t kernel = nullptr;
    EXPECT_EQ(ZE_RESULT_SUCCESS, create_kernel(module, "vector_add", kernel)) << "build " << build;
    zeKernelDestroy(kernel);
    zeModuleDestroy(module);
    EXPECT_EQ(before + 1, cached_modules()) << "build " << build << " should leave exactly one entry";
    std::filesystem::path newest;
    for (const auto &entry : std::filesystem::directory_iterator(cache_dir / "cuda"))
      if (newest.empty() || entry.last_write_time() > std::filesystem::last_write_time(newest)) newest = entry.path();
    if (build == 0) whole = std::filesystem::file_size(newest);
    if (build == 2) {
      EXPECT_EQ(whole, std::filesystem::file_size(newest)) << "the corrupt entry was not written again";
    }
    if (build == 1) std::filesystem::resize_file(newest, whole / 2);
  }
}

TEST_F(CudaDriver, DynamicLinkResolvesAnImportedFunctionAndSharesAVariableAndNamesWhatIsMissing) {
  std::vector<uint8_t> library_spirv = read_kernel("link_library"), user_spirv = read_kernel("link_user");
  ze_module_handle_t library = nullptr, user = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_module(context, device, library_spirv, library, "-library-compilation"));
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_module(context, device, user_spirv, user));
  ze_module_properties_t props{ZE_STRUCTURE_TYPE_MODULE_PROPERTIES, nullptr, 0};
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetProperties(user, &props));
  EXPECT_EQ(ZE_MODULE_PROPERTY_FLAG_IMPORTS, props.flags);
  ze_kernel_handle_t kernel = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED, create_kernel(user, "use_helper", kernel));

  ze_module_build_log_handle_t log = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_MODULE_LINK_FAILURE, zeModuleDynamicLink(1, &user, &log));
  std::string text;
  read_build_log(log, text);
  EXPECT_NE(std::string::npos,
            text.find("module 0 (kernels: use_helper): unresolved import 'link_helper': no module in the link exports it"))
      << text;

  ze_module_handle_t both[] = {user, library};
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleDynamicLink(2, both, &log));
  read_build_log(log, text);
  EXPECT_EQ("", text);
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetProperties(user, &props));
  EXPECT_EQ(0u, props.flags);
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(user, "use_helper", kernel));
  constexpr uint32_t n = 256;
  int *out = static_cast<int *>(shared_memory(n * 4));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 0, 8, &out));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(kernel, 64, 1, 1));
  ze_group_count_t groups{n / 64, 1, 1};
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(list, kernel, &groups, nullptr, 0, nullptr));
  finish();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(int(3 * i + 1 + 1000), out[i]) << i;
  // The variable is the library's own, not a copy: what the host writes to it through the library, the importing
  // kernel reads.
  void *offset = nullptr;
  size_t size = 0;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetGlobalPointer(library, "link_offset", &size, &offset));
  const int two_thousand = 2000;
  ASSERT_EQ(ZE_RESULT_SUCCESS,
            zeCommandListAppendMemoryCopy(list, offset, &two_thousand, sizeof two_thousand, nullptr, 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(list, kernel, &groups, nullptr, 0, nullptr));
  finish();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(int(3 * i + 1 + 2000), out[i]) << i;
  void *imported = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME, zeModuleGetGlobalPointer(user, "link_offset", &size, &imported))
      << "a variable is its exporter's to give, as on the CPU driver";
  zeMemFree(context, out);
  zeKernelDestroy(kernel);
  zeModuleDestroy(user);
  zeModuleDestroy(library);
}

// zeModuleGetFunctionPointer hands out device addresses that the module's kernel calls through (as level-zero-tests'
// module_fptr_call case does); a name the module does not export is refused.
TEST_F(CudaDriver, FunctionPointersFromTheModuleAreCalledThroughByItsKernel) {
  ze_module_handle_t module = nullptr;
  ASSERT_NO_FATAL_FAILURE(build(read_kernel("function_pointer_self"), module));
  void *add = nullptr, *times = nullptr, *none = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetFunctionPointer(module, "add_int", &add));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetFunctionPointer(module, "times_three", &times));
  EXPECT_NE(add, times);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_FUNCTION_NAME, zeModuleGetFunctionPointer(module, "no_such_function", &none));
  ze_kernel_handle_t kernel = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(module, "call_fptr", kernel));
  int *values = static_cast<int *>(shared_memory(64 * sizeof(int)));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 0, 8, &values));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(kernel, 64, 1, 1));
  ze_group_count_t one{1, 1, 1};
  for (auto [function, factor, offset] : {std::tuple{add, 1, 1}, std::tuple{times, 3, 0}}) {
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 1, 8, &function));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(list, kernel, &one, nullptr, 0, nullptr));
    finish();
    for (int i = 0; i < 64; ++i) ASSERT_EQ(factor * i + offset, values[i]) << i;
  }
  zeMemFree(context, values);
  zeKernelDestroy(kernel);
  zeModuleDestroy(module);
}

// CUDA's function addresses mean something only inside the CUDA module that holds the function: the driver's joint
// module holds every module that calls through pointers or whose function a pointer was asked for. A pointer to a
// library's function is called by another module's kernel; a second build of the same module (the same names) joins
// too, and pointers handed out before stay the same and keep working from kernels made before; a module linked
// with a member joins and shares its variable, whose value, set before the library joined, is carried along.
TEST_F(CudaDriver, FunctionPointersCrossModulesAndStayTheSameAsMoreModulesJoin) {
  ze_module_handle_t library = nullptr, caller = nullptr, second = nullptr, user = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_module(context, device, read_kernel("link_library"), library,
                                             "-library-compilation"));
  void *offset = nullptr;
  size_t size = 0;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetGlobalPointer(library, "link_offset", &size, &offset));
  ASSERT_EQ(sizeof(int), size);
  const int seven = 7;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(list, offset, &seven, sizeof seven, nullptr, 0, nullptr));
  finish();

  ASSERT_NO_FATAL_FAILURE(build(read_kernel("function_pointer_self"), caller));
  void *helper = nullptr, *add = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetFunctionPointer(library, "link_helper", &helper));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetFunctionPointer(caller, "add_int", &add));
  constexpr int n = 64;
  int *values = static_cast<int *>(shared_memory(n * sizeof(int)));
  ze_group_count_t one{1, 1, 1};
  auto run = [&](ze_kernel_handle_t kernel, void *function) {
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 0, 8, &values));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(kernel, 1, 8, &function));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(kernel, n, 1, 1));
    ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(list, kernel, &one, nullptr, 0, nullptr));
    finish();
  };
  ze_kernel_handle_t first = nullptr, again = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(caller, "call_fptr", first));
  ASSERT_NO_FATAL_FAILURE(run(first, helper));
  for (int i = 0; i < n; ++i) ASSERT_EQ(3 * i + 1, values[i]) << "the library's function, at " << i;
  ASSERT_NO_FATAL_FAILURE(run(first, add));
  for (int i = 0; i < n; ++i) ASSERT_EQ(i + 1, values[i]) << "the caller's own function, at " << i;

  // A regular list recorded before the next join, executed after it.
  ze_command_queue_handle_t queue = nullptr;
  ze_command_list_handle_t regular = nullptr;
  ASSERT_NO_FATAL_FAILURE(queue_and_regular_list(queue, regular));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(first, 1, 8, &helper));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(regular, first, &one, nullptr, 0, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(regular));

  ASSERT_NO_FATAL_FAILURE(build(read_kernel("function_pointer_self"), second));
  std::fill(values, values + n, 0);
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(queue, 1, &regular, nullptr));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueSynchronize(queue, UINT64_MAX));
  for (int i = 0; i < n; ++i) ASSERT_EQ(3 * i + 1, values[i]) << "the list recorded before the join, at " << i;
  zeCommandListDestroy(regular);
  zeCommandQueueDestroy(queue);
  void *second_add = nullptr, *helper_again = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetFunctionPointer(second, "add_int", &second_add));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetFunctionPointer(library, "link_helper", &helper_again));
  EXPECT_NE(add, second_add);
  EXPECT_EQ(helper, helper_again);
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(second, "call_fptr", again));
  ASSERT_NO_FATAL_FAILURE(run(again, helper));
  for (int i = 0; i < n; ++i) ASSERT_EQ(3 * i + 1, values[i]) << "the second module's kernel, at " << i;
  ASSERT_NO_FATAL_FAILURE(run(first, second_add));
  for (int i = 0; i < n; ++i) ASSERT_EQ(i + 1, values[i]) << "the first module's kernel, made before, at " << i;

  ASSERT_EQ(ZE_RESULT_SUCCESS, create_module(context, device, read_kernel("link_user"), user));
  ze_module_handle_t both[] = {user, library};
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleDynamicLink(2, both, nullptr));
  ze_kernel_handle_t use = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create_kernel(user, "use_helper", use));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(use, 0, 8, &values));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(use, n, 1, 1));
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(list, use, &one, nullptr, 0, nullptr));
  finish();
  for (int i = 0; i < n; ++i) ASSERT_EQ(3 * i + 1 + seven, values[i]) << "the library's variable, at " << i;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetGlobalPointer(library, "link_offset", &size, &offset));
  int read = 0;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(list, &read, offset, sizeof read, nullptr, 0, nullptr));
  finish();
  EXPECT_EQ(seven, read);

  // The library destroyed, and one more module joining after: the pointer taken from it stays callable, and the
  // module linked with it still runs.
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleDestroy(library));
  ze_module_handle_t third = nullptr;
  ASSERT_NO_FATAL_FAILURE(build(read_kernel("function_pointer_self"), third));
  void *third_add = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetFunctionPointer(third, "add_int", &third_add));
  ASSERT_NO_FATAL_FAILURE(run(first, helper));
  for (int i = 0; i < n; ++i) ASSERT_EQ(3 * i + 1, values[i]) << "the destroyed library's function, at " << i;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(list, use, &one, nullptr, 0, nullptr));
  finish();
  for (int i = 0; i < n; ++i) ASSERT_EQ(3 * i + 1 + seven, values[i]) << "the linked module, at " << i;

  zeMemFree(context, values);
  for (ze_kernel_handle_t k : {first, again, use}) zeKernelDestroy(k);
  for (ze_module_handle_t m : {user, second, caller, third}) zeModuleDestroy(m);
}

} // namespace
} // namespace zeal::test
