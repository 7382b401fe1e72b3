// Which imports a driver provides itself (spirv/imports.hpp): SPIR-V's built-ins, a driver's library, the rest.
#include "spirv/imports.hpp"

#include <gtest/gtest.h>

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
