// Imports a producer's runtime library provides (issue 47): chipStar links its device library (`__chip_*`) when
// the program runs. The module builds with its imports and says whose they are; a link without the library names
// it; with it, the kernel runs.
#include "link_support.hpp"

namespace zeal::cpu::test {
namespace {

using ProducerImports = LinkingDriver;

int chip_user(int i) { return std::max(std::abs(i - 10), 3); }

TEST_F(ProducerImports, AModuleImportingChipStarsLibrarySaysWhoseTheImportsAre) {
  ze_module_handle_t user = nullptr;
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, build(read_kernel("chipstar_user.spv"), user, &log)) << log;
  // Both imports, in the module's order, in one line that names the library.
  EXPECT_NE(std::string::npos, log.find("info: the module imports '__chip_max_i32', '__chip_abs_i32' from chipStar's "
                                        "device library, which chipStar links when the program runs"))
      << log;
}

TEST_F(ProducerImports, ALinkWithoutTheLibraryNamesItAndALinkWithItRuns) {
  ze_module_handle_t user = plain("chipstar_user.spv");
  std::string log;
  EXPECT_EQ(ZE_RESULT_ERROR_MODULE_LINK_FAILURE, link({user}, &log));
  EXPECT_NE(std::string::npos, log.find("unresolved import '__chip_abs_i32': no module in the link exports it (it is "
                                        "one of chipStar's device library"))
      << log;
  ze_module_handle_t library_module = library("chipstar_library.spv");
  ASSERT_EQ(ZE_RESULT_SUCCESS, link({user, library_module}, &log)) << log;
  std::vector<int> expected(32);
  for (int i = 0; i < 32; ++i) expected[size_t(i)] = chip_user(i);
  EXPECT_EQ(expected, run(kernel(user, "chip_user"), 32));
}

} // namespace
} // namespace zeal::cpu::test
