// Which imports a driver provides itself (spirv/imports.hpp): SPIR-V's built-ins, a driver's library, the rest.
#include "spirv/imports.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace zeal::spirv;

TEST(DriverImports, SpirvBuiltInsAreProvidedByEveryDriver) {
  EXPECT_TRUE(is_spirv_builtin_name("__spirv_BuiltInGlobalInvocationId"));
  EXPECT_TRUE(is_spirv_builtin_name("__spirv_ControlBarrier"));
  EXPECT_TRUE(driver_provides("__spirv_Something"));
  EXPECT_FALSE(is_driver_library_name("__spirv_Something"));
}

TEST(DriverImports, IntelCompilerBuiltInsAndTheDeviceAssertAreADriversLibrary) {
  EXPECT_TRUE(is_driver_library_name("__builtin_spirv_OpConvertFToBF16INTEL_f32"));
  EXPECT_TRUE(is_driver_library_name("__devicelib_assert_fail"));
  EXPECT_FALSE(is_spirv_builtin_name("__builtin_spirv_OpConvertFToBF16INTEL_f32"));
  EXPECT_TRUE(driver_provides("__devicelib_assert_fail"));
}

TEST(DriverImports, OtherNamesMustComeFromAnotherModule) {
  for (const char *name : {"real_import", "_Z3foov", "__devicelib_other", "__spirv", "spirv_x", "__builtin_spirv"}) {
    EXPECT_FALSE(driver_provides(name)) << name;
  }
}

TEST(ProducerLibraries, ChipStarAndDpcppLibrariesAreNamedByTheirPrefixes) {
  EXPECT_NE(std::string_view::npos, producer_library("__chip_sin_f32").find("chipStar's device library"));
  EXPECT_NE(std::string_view::npos, producer_library("__devicelib_memcpy").find("DPC++'s device libraries"));
  EXPECT_NE(std::string_view::npos, producer_library("__imf_saturatef").find("Intel math functions"));
  // What a driver provides itself is no producer's import; other names are nobody's.
  EXPECT_TRUE(producer_library("__devicelib_assert_fail").empty());
  EXPECT_TRUE(producer_library("__spirv_ocl_sin").empty());
  EXPECT_TRUE(producer_library("my_function").empty());
  EXPECT_TRUE(producer_library_clause("my_function").empty());
  EXPECT_EQ(0u, producer_library_clause("__chip_x").find(" (it is one of chipStar's device library"));
}

TEST(ProducerLibraries, TheBuildLogNoteGroupsImportsByLibraryAndNamesAFewOfMany) {
  const std::vector<std::string> imports = {"__chip_a", "user_fn", "__chip_b", "__chip_c", "__chip_d", "__chip_e",
                                            "__devicelib_memset"};
  const std::string note = producer_library_note(imports);
  EXPECT_NE(std::string::npos, note.find("imports '__chip_a', '__chip_b', '__chip_c', '__chip_d' and 1 more from "
                                         "chipStar's device library"))
      << note;
  EXPECT_NE(std::string::npos, note.find("imports '__devicelib_memset' from DPC++'s device libraries")) << note;
  EXPECT_EQ(std::string::npos, note.find("user_fn")) << note;
  EXPECT_EQ(2, std::count(note.begin(), note.end(), '\n'));
  EXPECT_EQ("", producer_library_note(std::vector<std::string>{"user_fn"}));
}

TEST(DriverImports, IntelsSubGroupMatrixProductsAreADriversLibraryMangledOrNot) {
  EXPECT_TRUE(is_driver_library_name("_Z38intel_sub_group_f16_f16_matrix_mad_k16Dv8_iS_Dv8_f"));
  EXPECT_TRUE(is_driver_library_name("_Z39intel_sub_group_tf32_tf32_matrix_mad_k8Dv4_fDv8_fS0_"));
  EXPECT_TRUE(is_igc_matrix_builtin("intel_sub_group_i4_u4_matrix_mad_k64"));
  EXPECT_TRUE(driver_provides("_Z36intel_sub_group_i8_i8_matrix_mad_k32Dv8_iS_S_"));
  // The split forms take two sub-groups: not provided; nor are look-alike names.
  EXPECT_FALSE(is_igc_matrix_builtin("_Z44intel_sub_group_f16_f16_split_matrix_mad_k16Dv4_iDv8_iDv8_f"));
  EXPECT_FALSE(is_igc_matrix_builtin("_Z99intel_sub_group_f16_f16_matrix_mad_k16")); // a length past the name
  EXPECT_FALSE(is_igc_matrix_builtin("my_matrix_mad_k16"));
}
