// Kernels refused one by one: a module mixing runnable kernels with kernels that call images or missing built-ins
// builds, its other kernels run, and only those fail at zeKernelCreate, each with a sentence saying why.
#include "link_support.hpp"
#include "tests/support/capture_stderr.hpp"

#include <cstring>

namespace zeal::cpu::test {
namespace {

using zeal::test::capture_stderr;

class RefusedKernels : public LinkingDriver {
protected:
  // zeKernelCreate's result, and what it logged in `warning`.
  ze_result_t create(ze_module_handle_t module, const char *name, std::string *warning = nullptr) {
    ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
    ze_kernel_handle_t k = nullptr;
    ze_result_t r = ZE_RESULT_ERROR_UNKNOWN;
    std::string text = capture_stderr([&] { r = zeKernelCreate(module, &desc, &k); });
    if (k != nullptr) kernels.push_back(k);
    EXPECT_EQ(r == ZE_RESULT_SUCCESS, k != nullptr);
    if (warning != nullptr) *warning = text;
    return r;
  }
  std::vector<std::string> kernel_names(ze_module_handle_t module) {
    uint32_t count = 0;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeModuleGetKernelNames(module, &count, nullptr));
    std::vector<const char *> names(count);
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeModuleGetKernelNames(module, &count, names.data()));
    return {names.begin(), names.end()};
  }
};

// Every unsupported call the kernel reaches, in the order its code reaches them.
constexpr const char *sample_image_refusal =
    "kernel 'sample_image' calls 'intel_sub_group_block_read(ocl_image2d_ro, int vector[2])' "
    "(_Z26intel_sub_group_block_read14ocl_image2d_roDv2_i), which reads or writes an image in sub-group blocks: this "
    "driver does so on global memory only";
// The call two functions down, named with the helper making it.
constexpr const char *prefetch_refusal =
    "kernel 'prefetch_twice_removed' calls 'prefetch(float vector[4] const AS1*, unsigned long)' "
    "(_Z8prefetchPU3AS1KDv4_fm) through 'fetch_ahead', which is neither defined in the module nor provided by this "
    "driver";

TEST_F(RefusedKernels, AModuleMixingThemBuildsAndListsEachRefusalInItsLog) {
  ze_module_handle_t module = nullptr;
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, build(read_kernel("refused_kernels.spv"), module, &log)) << log;
  EXPECT_NE(std::string::npos, log.find(std::string("info: kernel refused: ") + sample_image_refusal)) << log;
  EXPECT_NE(std::string::npos, log.find(std::string("info: kernel refused: ") + prefetch_refusal)) << log;
  EXPECT_EQ(std::string::npos, log.find("scale_buffer")) << log;
  // Every kernel is listed, refused or not.
  EXPECT_EQ((std::vector<std::string>{"scale_buffer", "sample_image", "prefetch_twice_removed"}),
            kernel_names(module));
}

TEST_F(RefusedKernels, TheBufferKernelRunsAndTheOthersAreUnsupportedFeatures) {
  ze_module_handle_t module = plain("refused_kernels.spv");
  ASSERT_NE(nullptr, module);
  std::string warning;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, create(module, "sample_image", &warning));
  EXPECT_NE(std::string::npos, warning.find(std::string("zeKernelCreate: ") + sample_image_refusal)) << warning;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, create(module, "prefetch_twice_removed", &warning));
  EXPECT_NE(std::string::npos, warning.find(prefetch_refusal)) << warning;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create(module, "scale_buffer"));
  int factor = 5;
  std::vector<int> want(16);
  for (int i = 0; i < 16; ++i) want[i] = 5 * i;
  EXPECT_EQ(want, run(kernels.back(), 16, {{sizeof(factor), &factor}}));
}

// Unresolved imports keep their rule: no kernel of the module until it is linked. Linking makes the kernels that
// reach no unsupported call runnable, not the one writing an image in sub-group blocks.
TEST_F(RefusedKernels, AnImportStillWaitsForTheLinkWhileAnImageBlockKernelIsRefusedForGood) {
  ze_module_handle_t user = plain("refused_with_import.spv");
  ze_module_handle_t lib = library("link_library.spv");
  ASSERT_NE(nullptr, user);
  std::string warning;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED, create(user, "use_import", &warning));
  EXPECT_NE(std::string::npos, warning.find("the module imports 'link_helper'")) << warning;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, create(user, "write_image", &warning));
  EXPECT_NE(std::string::npos,
            warning.find("kernel 'write_image' calls 'intel_sub_group_block_write(ocl_image2d_wo, int vector[2], "
                         "unsigned int)' (_Z27intel_sub_group_block_write14ocl_image2d_woDv2_ij), which reads or writes "
                         "an image in sub-group blocks: this driver does so on global memory only"))
      << warning;
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, link({user, lib}, &log)) << log;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, create(user, "write_image"));
  ASSERT_EQ(ZE_RESULT_SUCCESS, create(user, "use_import"));
  std::vector<int> want(8);
  for (int i = 0; i < 8; ++i) want[i] = 3 * i + 2;
  EXPECT_EQ(want, run(kernels.back(), 8));
}

// A library's exported function calling an image built-in does not stop the library: its other exports link.
TEST_F(RefusedKernels, ALibraryWithoutKernelsWhoseExportReadsImageBlocksBuildsAndNotesIt) {
  ze_module_handle_t lib = nullptr;
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, build(read_kernel("image_library.spv"), lib, &log, "-library-compilation")) << log;
  EXPECT_NE(std::string::npos,
            log.find("info: exported function 'first_texel' calls "
                     "'intel_sub_group_block_read(ocl_image2d_ro, int vector[2])' "
                     "(_Z26intel_sub_group_block_read14ocl_image2d_roDv2_i), which reads or writes an image in "
                     "sub-group blocks: this driver does so on global memory only; such a call is compiled as a trap"))
      << log;
  EXPECT_TRUE(kernel_names(lib).empty());
  void *add_one = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetFunctionPointer(lib, "add_one", &add_one));
  EXPECT_NE(nullptr, add_one);
}


// A kernel of another module reaching a library's exported function that reaches a call this driver lacks would run
// into that function's trap, which ends the process: the link refuses it instead, naming the chain, and notes it in
// its log; the kernels reaching only the library's other exports run.
constexpr const char *warm_up_refusal =
    "kernel 'uses_warm_up' calls 'warm_up' of module 1 (no kernels), which this driver cannot run: exported function "
    "'warm_up' calls 'prefetch(float vector[4] const AS1*, unsigned long)' (_Z8prefetchPU3AS1KDv4_fm) through "
    "'prefetch_next', which is neither defined in the module nor provided by this driver";

TEST_F(RefusedKernels, ALinkRefusesTheKernelsReachingALibraryExportThatWouldTrap) {
  ze_module_handle_t user = plain("trapping_user.spv");
  ze_module_handle_t lib = library("trapping_library.spv");
  ASSERT_NE(nullptr, user);
  ASSERT_NE(nullptr, lib);
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, link({user, lib}, &log)) << log;
  EXPECT_NE(std::string::npos, log.find(std::string("info: module 0 (kernels: uses_warm_up, uses_relay, uses_add_two): "
                                                    "kernel refused: ") +
                                        warm_up_refusal))
      << log;
  EXPECT_NE(std::string::npos, log.find("kernel 'uses_relay' calls 'relay' of module 1 (no kernels), which this "
                                        "driver cannot run: exported function 'relay' calls"))
      << log;
  std::string warning;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, create(user, "uses_warm_up", &warning));
  EXPECT_NE(std::string::npos, warning.find(std::string("zeKernelCreate: ") + warm_up_refusal)) << warning;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, create(user, "uses_relay"));
  ASSERT_EQ(ZE_RESULT_SUCCESS, create(user, "uses_add_two"));
  std::vector<int> want(8);
  for (int i = 0; i < 8; ++i) want[i] = i + 2;
  EXPECT_EQ(want, run(kernels.back(), 8));
}

// A library linked by an earlier call keeps the exports found to trap through the imports that call bound, so a
// later call linking a module that imports them refuses its kernels the same way, naming the whole chain.
TEST_F(RefusedKernels, ALibraryLinkedEarlierKeepsTheExportsThatWouldTrapThroughItsImports) {
  ze_module_handle_t middle = library("trapping_middle.spv");
  ze_module_handle_t lib = library("trapping_library.spv");
  ze_module_handle_t top = plain("trapping_top.spv");
  ASSERT_NE(nullptr, middle);
  ASSERT_NE(nullptr, lib);
  ASSERT_NE(nullptr, top);
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, link({middle, lib}, &log)) << log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, link({top, middle}, &log)) << log;
  const std::string refusal =
      "kernel 'uses_doubled_relay' calls 'doubled_relay' of module 1 (no kernels), which this driver cannot run: "
      "exported function 'doubled_relay' calls 'relay' of a module it was linked with (no kernels): exported "
      "function 'relay' calls";
  EXPECT_NE(std::string::npos, log.find("info: module 0 (kernels: uses_doubled_relay, uses_add_four): kernel "
                                        "refused: " + refusal))
      << log;
  std::string warning;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, create(top, "uses_doubled_relay", &warning));
  EXPECT_NE(std::string::npos, warning.find(refusal)) << warning;
  EXPECT_NE(std::string::npos, warning.find("'prefetch_next', which is neither defined")) << warning;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create(top, "uses_add_four"));
  std::vector<int> want(8);
  for (int i = 0; i < 8; ++i) want[i] = i + 4;
  EXPECT_EQ(want, run(kernels.back(), 8));
}

// Native binaries keep what each kernel and export reaches, so the same link refuses the same kernels.
TEST_F(RefusedKernels, NativeBinariesKeepWhatALinkNeedsToRefuse) {
  auto native = [&](ze_module_handle_t m) {
    size_t bytes = 0;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeModuleGetNativeBinary(m, &bytes, nullptr));
    std::vector<uint8_t> blob(bytes);
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeModuleGetNativeBinary(m, &bytes, blob.data()));
    ze_module_handle_t loaded = nullptr;
    std::string log;
    EXPECT_EQ(ZE_RESULT_SUCCESS, build(blob, loaded, &log, "", ZE_MODULE_FORMAT_NATIVE)) << log;
    return loaded;
  };
  ze_module_handle_t user = native(plain("trapping_user.spv"));
  ze_module_handle_t lib = native(library("trapping_library.spv"));
  ASSERT_NE(nullptr, user);
  ASSERT_NE(nullptr, lib);
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, link({user, lib}, &log)) << log;
  std::string warning;
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, create(user, "uses_warm_up", &warning));
  EXPECT_NE(std::string::npos, warning.find(warm_up_refusal)) << warning;
  ASSERT_EQ(ZE_RESULT_SUCCESS, create(user, "uses_add_two"));
  EXPECT_EQ(5, run(kernels.back(), 4)[3]);
}

} // namespace
} // namespace zeal::cpu::test
