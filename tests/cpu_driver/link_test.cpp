// Module linking: zeModuleDynamicLink (and its errors), module programs, linkage inspection, global and function pointers.
#include "link_support.hpp"
#include "tests/support/capture_stderr.hpp"
#include "tests/support/host_access_spirv.hpp"

#include <thread>

namespace zeal::cpu::test {
namespace {

using Linking = LinkingDriver;

std::vector<int> expected(size_t n, int (*f)(int)) {
  std::vector<int> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = f(int(i));
  return v;
}

int helper_plus_offset(int i) { return 3 * i + 1 + 1000; }

// The module's property flags: ZE_MODULE_PROPERTY_FLAG_IMPORTS while it has imports no link has resolved.
ze_module_property_flags_t module_flags(ze_module_handle_t m) {
  ze_module_properties_t props{};
  props.stype = ZE_STRUCTURE_TYPE_MODULE_PROPERTIES;
  EXPECT_EQ(ZE_RESULT_SUCCESS, zeModuleGetProperties(m, &props));
  return props.flags;
}

TEST_F(Linking, AModuleWithImportsSaysSoAndMakesNoKernelsUntilLinked) {
  ze_module_handle_t user = plain("link_user.spv");
  EXPECT_EQ(ZE_MODULE_PROPERTY_FLAG_IMPORTS, module_flags(user));
  ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "use_helper"};
  ze_kernel_handle_t k = nullptr;
  std::string warning = zeal::test::capture_stderr(
      [&] { EXPECT_EQ(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED, zeKernelCreate(user, &desc, &k)); });
  // Both imports named, in the module's order.
  EXPECT_NE(std::string::npos, warning.find("kernel 'use_helper': the module imports 'link_offset', 'link_helper', "
                                            "which no zeModuleDynamicLink has resolved yet"))
      << warning;
}

TEST_F(Linking, DynamicLinkResolvesAnImportedFunctionAndVariable) {
  ze_module_handle_t lib = library("link_library.spv");
  ze_module_handle_t user = plain("link_user.spv");
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, link({user, lib}, &log)) << log;
  EXPECT_EQ("", log);
  EXPECT_EQ(0u, module_flags(user));
  EXPECT_EQ(expected(64, helper_plus_offset), run(kernel(user, "use_helper"), 64));
}

TEST_F(Linking, AnUnresolvedImportFailsWithOneLinePerSymbolNamingModuleAndSymbol) {
  ze_module_handle_t other = library("link_library_dup.spv"); // exports link_helper only
  ze_module_handle_t user = plain("link_user.spv");
  expect_link_failure({other, user},
                      "module 1 (kernels: use_helper): unresolved import 'link_offset': no module in the link exports "
                      "it\n");
  expect_link_failure(
      {user},
      "module 0 (kernels: use_helper): unresolved import 'link_offset': no module in the link exports it\n"
      "module 0 (kernels: use_helper): unresolved import 'link_helper': no module in the link exports it\n");
  // A failed link changes nothing: the module links once its exporter comes.
  ze_module_handle_t lib = library("link_library.spv");
  ASSERT_NO_FATAL_FAILURE(link_ok({user, lib}));
  EXPECT_EQ(expected(8, helper_plus_offset), run(kernel(user, "use_helper"), 8));
}

TEST_F(Linking, TwoModulesExportingAnImportedSymbolAreAnAmbiguityError) {
  ze_module_handle_t lib = library("link_library.spv");
  ze_module_handle_t dup = library("link_library_dup.spv");
  ze_module_handle_t user = plain("link_user.spv");
  expect_link_failure({lib, dup, user},
                      "module 2 (kernels: use_helper): import 'link_helper' is exported by 2 modules (0, 1), which is "
                      "ambiguous\n");
  // Exporting the same name is no problem while nobody imports it.
  ze_module_handle_t twice_user = plain("link_other_user.spv");
  ASSERT_NO_FATAL_FAILURE(link_ok({lib, dup, twice_user}));
}

TEST_F(Linking, ALinkedModuleIsNotLinkedAgainButProvidesForLaterLinks) {
  ze_module_handle_t lib = library("link_library.spv");
  ze_module_handle_t user = plain("link_user.spv");
  ASSERT_NO_FATAL_FAILURE(link_ok({user, lib}));
  // Linked modules in a later call only provide, even with nothing to provide them with.
  ASSERT_NO_FATAL_FAILURE(link_ok({user}));
  ze_module_handle_t other = plain("link_other_user.spv");
  ASSERT_NO_FATAL_FAILURE(link_ok({lib, other, user}));
  EXPECT_EQ(expected(16, [](int i) { return 2 * i; }), run(kernel(other, "use_twice"), 16));
  EXPECT_EQ(expected(16, helper_plus_offset), run(kernel(user, "use_helper"), 16));
}

int chain(int i) { return ((i * 10 + 4) * 10 + 3) * 10 + 2; }

TEST_F(Linking, AChainOfFourModulesLinksInOneCallInAnyOrder) {
  ze_module_handle_t a = plain("chain_a.spv");
  ze_module_handle_t b = library("chain_b.spv");
  ze_module_handle_t c = library("chain_c.spv");
  ze_module_handle_t d = library("chain_d.spv");
  ASSERT_NO_FATAL_FAILURE(link_ok({d, b, a, c}));
  EXPECT_EQ(expected(32, chain), run(kernel(a, "chain"), 32));
}

TEST_F(Linking, AChainMissingALinkNamesTheModuleThatImportsIt) {
  ze_module_handle_t a = plain("chain_a.spv");
  ze_module_handle_t b = library("chain_b.spv");
  ze_module_handle_t d = library("chain_d.spv");
  expect_link_failure({a, b, d},
                      "module 1 (no kernels): unresolved import 'chain_c': no module in the link exports it\n");
  ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "chain"};
  ze_kernel_handle_t k = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED, zeKernelCreate(a, &desc, &k));
}

TEST_F(Linking, GlobalPointerReachesTheVariableImportersUse) {
  ze_module_handle_t lib = library("link_library.spv");
  ze_module_handle_t user = plain("link_user.spv");
  size_t size = 0;
  void *pointer = nullptr;
  ZE_ASSERT_OK(zeModuleGetGlobalPointer(lib, "link_offset", &size, &pointer));
  EXPECT_EQ(sizeof(int), size);
  ASSERT_NE(nullptr, pointer);
  EXPECT_EQ(1000, *static_cast<int *>(pointer));
  *static_cast<int *>(pointer) = 5000;
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, link({user, lib}, &log)) << log;
  EXPECT_EQ(expected(8, [](int i) { return 3 * i + 1 + 5000; }), run(kernel(user, "use_helper"), 8));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME, zeModuleGetGlobalPointer(lib, "no_such_variable", &size, &pointer));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME, zeModuleGetGlobalPointer(lib, "link_helper", &size, &pointer));
}

std::vector<uint8_t> host_access_module() { return zeal::test::with_host_access(read_kernel("host_access.spv")); }

TEST_F(Linking, GlobalPointerFindsVariablesByTheirHostAccessNames) {
  ze_module_handle_t m = nullptr;
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, build(host_access_module(), m, &log)) << log;
  size_t size = 0;
  void *counter = nullptr, *table = nullptr, *exported = nullptr;
  ZE_ASSERT_OK(zeModuleGetGlobalPointer(m, "counter_host_name", &size, &counter));
  EXPECT_EQ(sizeof(uint32_t), size);
  ZE_ASSERT_OK(zeModuleGetGlobalPointer(m, "table_host_name", &size, &table));
  ZE_ASSERT_OK(zeModuleGetGlobalPointer(m, "exported_table", &size, &exported));
  EXPECT_EQ(exported, table); // one variable, two names
  ASSERT_NE(nullptr, counter);
  EXPECT_EQ(5u, *static_cast<uint32_t *>(counter));
  EXPECT_EQ(100u, *static_cast<uint32_t *>(table));
  *static_cast<uint32_t *>(counter) = 40;
  *static_cast<uint32_t *>(table) = 2000;
  EXPECT_EQ(expected(4, [](int i) { return 2040 + i; }), run(kernel(m, "read_host_variables"), 4));
  // The source names of the variables are not host names.
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME, zeModuleGetGlobalPointer(m, "counter", &size, &counter));
  // The host name is not a link name: only "exported_table" and the host-only name of `counter` are exports.
  ze_linkage_inspection_ext_desc_t desc{ZE_STRUCTURE_TYPE_LINKAGE_INSPECTION_EXT_DESC, nullptr,
                                        ZE_LINKAGE_INSPECTION_EXT_FLAG_EXPORTS};
  ze_module_build_log_handle_t inspection = nullptr;
  ZE_ASSERT_OK(zeModuleInspectLinkageExt(&desc, 1, &m, &inspection));
  EXPECT_EQ("Exports:\n  0: counter_host_name\n  0: exported_table\n", log_text(inspection));
}

TEST_F(Linking, HostAccessNamesSurviveANativeBinary) {
  ze_module_handle_t m = nullptr;
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, build(host_access_module(), m, &log)) << log;
  size_t bytes = 0;
  ZE_ASSERT_OK(zeModuleGetNativeBinary(m, &bytes, nullptr));
  std::vector<uint8_t> blob(bytes);
  ZE_ASSERT_OK(zeModuleGetNativeBinary(m, &bytes, blob.data()));
  ze_module_handle_t native = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, build(blob, native, &log, "", ZE_MODULE_FORMAT_NATIVE)) << log;
  size_t size = 0;
  void *table = nullptr, *exported = nullptr;
  ZE_ASSERT_OK(zeModuleGetGlobalPointer(native, "table_host_name", &size, &table));
  ZE_ASSERT_OK(zeModuleGetGlobalPointer(native, "exported_table", &size, &exported));
  EXPECT_EQ(exported, table);
  EXPECT_EQ(100u, *static_cast<uint32_t *>(table));
}

TEST_F(Linking, AFunctionPointerFromALibraryIsCalledIndirectlyByAKernel) {
  ze_module_handle_t lib = library("link_library.spv");
  void *twice = nullptr;
  ZE_ASSERT_OK(zeModuleGetFunctionPointer(lib, "link_twice", &twice));
  ASSERT_NE(nullptr, twice);
  void *helper = nullptr;
  ZE_ASSERT_OK(zeModuleGetFunctionPointer(lib, "link_helper", &helper));
  ze_module_handle_t caller = plain("function_pointer.spv");
  ze_kernel_handle_t k = kernel(caller, "call_through");
  uint64_t address = reinterpret_cast<uint64_t>(twice);
  EXPECT_EQ(expected(16, [](int i) { return 2 * i; }), run(k, 16, {{sizeof(address), &address}}));
  address = reinterpret_cast<uint64_t>(helper);
  EXPECT_EQ(expected(16, [](int i) { return 3 * i + 1; }), run(k, 16, {{sizeof(address), &address}}));
  void *none = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_FUNCTION_NAME, zeModuleGetFunctionPointer(lib, "no_such_function", &none));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_FUNCTION_NAME, zeModuleGetFunctionPointer(lib, "link_offset", &none));
}

TEST_F(Linking, FunctionsOfAModuleBuiltWithoutLibraryCompilationAreNotExported) {
  ze_module_handle_t lib = plain("link_library.spv");
  void *function = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_FUNCTION_NAME, zeModuleGetFunctionPointer(lib, "link_twice", &function));
  size_t size = 0;
  void *pointer = nullptr;
  ZE_EXPECT_OK(zeModuleGetGlobalPointer(lib, "link_offset", &size, &pointer)); // variables always are
}

// A module declaring SPV_INTEL_function_pointers keeps its exported functions callable through pointers without
// -library-compilation, as Intel's driver does: its own kernel calls them through what zeModuleGetFunctionPointer
// gives.
TEST_F(Linking, FunctionsOfAModuleMadeForFunctionPointersAreHandedOutWithoutLibraryCompilation) {
  ze_module_handle_t module = plain("function_pointer_self.spv");
  ASSERT_NE(nullptr, module);
  void *add_int = nullptr, *times_three = nullptr;
  ZE_ASSERT_OK(zeModuleGetFunctionPointer(module, "add_int", &add_int));
  ZE_ASSERT_OK(zeModuleGetFunctionPointer(module, "times_three", &times_three));
  ASSERT_NE(nullptr, add_int);
  ASSERT_NE(add_int, times_three);
  ze_kernel_handle_t k = kernel(module, "call_fptr");
  uint64_t address = reinterpret_cast<uint64_t>(add_int);
  EXPECT_EQ(expected(16, [](int i) { return i + 1; }), run(k, 16, {{sizeof(address), &address}}));
  address = reinterpret_cast<uint64_t>(times_three);
  EXPECT_EQ(expected(16, [](int i) { return 3 * i; }), run(k, 16, {{sizeof(address), &address}}));
  void *none = nullptr;
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_FUNCTION_NAME, zeModuleGetFunctionPointer(module, "call_fptr_helper", &none));
}

TEST_F(Linking, InspectionListsImportsUnresolvableImportsAndExports) {
  ze_module_handle_t dup = library("link_library_dup.spv");
  ze_module_handle_t user = plain("link_user.spv");
  std::vector<ze_module_handle_t> inspected{dup, user};
  ze_linkage_inspection_ext_desc_t desc{ZE_STRUCTURE_TYPE_LINKAGE_INSPECTION_EXT_DESC, nullptr,
                                        ZE_LINKAGE_INSPECTION_EXT_FLAG_IMPORTS |
                                            ZE_LINKAGE_INSPECTION_EXT_FLAG_UNRESOLVABLE_IMPORTS |
                                            ZE_LINKAGE_INSPECTION_EXT_FLAG_EXPORTS};
  ze_module_build_log_handle_t log = nullptr;
  ZE_ASSERT_OK(zeModuleInspectLinkageExt(&desc, 2, inspected.data(), &log));
  EXPECT_EQ("Imports:\n  1: link_offset\n  1: link_helper\n"
            "Unresolvable imports:\n  1: link_offset\n"
            "Exports:\n  0: link_helper\n",
            log_text(log));
  desc.flags = ZE_LINKAGE_INSPECTION_EXT_FLAG_EXPORTS;
  ze_module_handle_t lib = library("link_library.spv");
  ZE_ASSERT_OK(zeModuleInspectLinkageExt(&desc, 1, &lib, &log));
  EXPECT_EQ("Exports:\n  0: link_helper\n  0: link_twice\n  0: link_offset\n", log_text(log));
}

TEST_F(Linking, DifferentImportersLinkConcurrentlyAgainstOneLibrary) {
  ze_module_handle_t lib = library("link_library.spv");
  constexpr int threads = 4;
  std::vector<ze_module_handle_t> users;
  for (int t = 0; t < threads; ++t) users.push_back(plain(t % 2 ? "link_user.spv" : "link_other_user.spv"));
  std::vector<ze_result_t> results(threads, ZE_RESULT_ERROR_UNKNOWN);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      std::vector<ze_module_handle_t> pair{users[t], lib};
      results[t] = zeModuleDynamicLink(2, pair.data(), nullptr);
    });
  }
  for (std::thread &w : workers) w.join();
  for (int t = 0; t < threads; ++t) {
    EXPECT_EQ(ZE_RESULT_SUCCESS, results[t]) << "thread " << t;
    if (t % 2) EXPECT_EQ(expected(8, helper_plus_offset), run(kernel(users[t], "use_helper"), 8));
    else EXPECT_EQ(expected(8, [](int i) { return 2 * i; }), run(kernel(users[t], "use_twice"), 8));
  }
}

// --- ZE_experimental_module_program: static linking --------------------------

class ModulePrograms : public LinkingDriver {
protected:
  ze_result_t build_program(const std::vector<std::vector<uint8_t>> &inputs, std::vector<const char *> flags,
                            ze_module_handle_t &module, std::string &text,
                            std::vector<const ze_module_constants_t *> constants = {}) {
    std::vector<size_t> sizes;
    std::vector<const uint8_t *> data;
    for (const auto &input : inputs) {
      sizes.push_back(input.size());
      data.push_back(input.data());
    }
    ze_module_program_exp_desc_t program{ZE_STRUCTURE_TYPE_MODULE_PROGRAM_EXP_DESC, nullptr,
                                         static_cast<uint32_t>(inputs.size()), sizes.data(), data.data(),
                                         flags.data(), constants.empty() ? nullptr : constants.data()};
    // The desc's own input is ignored when a program is chained.
    ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC, &program, ZE_MODULE_FORMAT_IL_SPIRV, sizes[0], data[0],
                          nullptr, nullptr};
    ze_module_build_log_handle_t log = nullptr;
    module = nullptr;
    ze_result_t r = zeModuleCreate(context, device, &desc, &module, &log);
    if (log != nullptr) text = log_text(log);
    if (module != nullptr) modules.push_back(module);
    return r;
  }
};

TEST_F(ModulePrograms, InputsAreLinkedStaticallyIntoOneModuleWithoutImports) {
  ze_module_handle_t module = nullptr;
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, build_program({read_kernel("link_user.spv"), read_kernel("link_library.spv")},
                                             {"", "-library-compilation"}, module, log))
      << log;
  EXPECT_EQ(0u, module_flags(module));
  EXPECT_EQ(expected(16, helper_plus_offset), run(kernel(module, "use_helper"), 16));
}

TEST_F(ModulePrograms, AChainOfFourInputsAndPerInputFlagsNotes) {
  ze_module_handle_t module = nullptr;
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS,
            build_program({read_kernel("chain_a.spv"), read_kernel("chain_b.spv"), read_kernel("chain_c.spv"),
                           read_kernel("chain_d.spv")},
                          {nullptr, "-ze-opt-level=1", "-bogus-flag", ""}, module, log))
      << log;
  EXPECT_EQ("input 2: unknown build flag '-bogus-flag' ignored\n", log);
  EXPECT_EQ(expected(8, chain), run(kernel(module, "chain"), 8));
}

TEST_F(ModulePrograms, ImportsNoInputDefinesStayImportsForDynamicLinking) {
  ze_module_handle_t ab = nullptr, cd = nullptr;
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS,
            build_program({read_kernel("chain_a.spv"), read_kernel("chain_b.spv")}, {"", ""}, ab, log))
      << log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, build_program({read_kernel("chain_c.spv"), read_kernel("chain_d.spv")},
                                             {"-library-compilation", "-library-compilation"}, cd, log))
      << log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, link({ab, cd}, &log)) << log;
  EXPECT_EQ(expected(8, chain), run(kernel(ab, "chain"), 8));
}

TEST_F(ModulePrograms, ASymbolDefinedByTwoInputsFailsTheBuildWithTheLinkersMessage) {
  ze_module_handle_t module = nullptr;
  std::string log;
  EXPECT_EQ(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE,
            build_program({read_kernel("link_library.spv"), read_kernel("link_library_dup.spv")}, {"", ""}, module,
                          log));
  EXPECT_EQ(nullptr, module);
  EXPECT_NE(std::string::npos, log.find("input 1 of the program could not be linked with the inputs before it: "))
      << log;
  EXPECT_NE(std::string::npos, log.find("Linking globals named 'link_helper': symbol multiply defined")) << log;
}

} // namespace
} // namespace zeal::cpu::test
