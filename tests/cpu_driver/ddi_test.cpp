// The driver's exported surface, opened directly: only table getters, and the checks they make.
#include "test_support.hpp"

#include <level_zero/ze_ddi.h>
#include <level_zero/zet_ddi.h>

#include <dlfcn.h>

#include <cstdlib>
#include <string>

namespace zeal::cpu::test {
namespace {

class TableGetters : public ::testing::Test {
protected:
  void SetUp() override {
    const char *path = std::getenv("ZE_ENABLE_ALT_DRIVERS");
    ASSERT_NE(nullptr, path);
    library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(nullptr, library) << dlerror();
  }
  void TearDown() override {
    if (library != nullptr) dlclose(library);
  }
  void *library = nullptr;
};

TEST_F(TableGetters, EveryMandatoryGetterIsExported) {
  const char *getters[] = {
      "zeGetGlobalProcAddrTable", "zeGetDriverProcAddrTable", "zeGetDeviceProcAddrTable",
      "zeGetContextProcAddrTable", "zeGetCommandQueueProcAddrTable", "zeGetCommandListProcAddrTable",
      "zeGetEventProcAddrTable", "zeGetEventPoolProcAddrTable", "zeGetFenceProcAddrTable",
      "zeGetImageProcAddrTable", "zeGetKernelProcAddrTable", "zeGetMemProcAddrTable",
      "zeGetModuleProcAddrTable", "zeGetModuleBuildLogProcAddrTable", "zeGetPhysicalMemProcAddrTable",
      "zeGetSamplerProcAddrTable", "zeGetVirtualMemProcAddrTable", "zetGetDeviceProcAddrTable",
      "zetGetContextProcAddrTable", "zetGetCommandListProcAddrTable", "zetGetKernelProcAddrTable",
      "zetGetModuleProcAddrTable", "zetGetDebugProcAddrTable", "zetGetMetricProcAddrTable",
      "zetGetMetricGroupProcAddrTable", "zetGetMetricQueryProcAddrTable", "zetGetMetricQueryPoolProcAddrTable",
      "zetGetMetricStreamerProcAddrTable", "zetGetTracerExpProcAddrTable", "zesGetDeviceProcAddrTable",
      "zesGetDriverProcAddrTable", "zesGetDiagnosticsProcAddrTable", "zesGetEngineProcAddrTable",
      "zesGetFabricPortProcAddrTable", "zesGetFanProcAddrTable", "zesGetFirmwareProcAddrTable",
      "zesGetFrequencyProcAddrTable", "zesGetLedProcAddrTable", "zesGetMemoryProcAddrTable",
      "zesGetPerformanceFactorProcAddrTable", "zesGetPowerProcAddrTable", "zesGetPsuProcAddrTable",
      "zesGetRasProcAddrTable", "zesGetSchedulerProcAddrTable", "zesGetStandbyProcAddrTable",
      "zesGetTemperatureProcAddrTable"};
  EXPECT_EQ(46u, std::size(getters));
  for (const char *name : getters) EXPECT_NE(nullptr, dlsym(library, name)) << name;
  EXPECT_EQ(nullptr, dlsym(library, "_ZN4zeal6loggerEPKc")) << "internal symbols stay hidden";
}

TEST_F(TableGetters, NewerVersionsAndNullTablesAreRefused) {
  auto get = reinterpret_cast<ze_pfnGetDriverProcAddrTable_t>(dlsym(library, "zeGetDriverProcAddrTable"));
  ASSERT_NE(nullptr, get);
  ze_driver_dditable_t table{};
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_VERSION, get(static_cast<ze_api_version_t>(ZE_MAKE_VERSION(1, 5)), &table));
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_VERSION, get(static_cast<ze_api_version_t>(ZE_MAKE_VERSION(2, 0)), &table));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, get(ZE_API_VERSION_1_4, nullptr));
  ZE_ASSERT_OK(get(ZE_API_VERSION_1_0, &table));
  ZE_ASSERT_OK(get(ZE_API_VERSION_1_4, &table));
}

TEST_F(TableGetters, EveryEntryIsFilledAndUnimplementedOnesAnswerUnsupported) {
  auto get = reinterpret_cast<ze_pfnGetDeviceProcAddrTable_t>(dlsym(library, "zeGetDeviceProcAddrTable"));
  ASSERT_NE(nullptr, get);
  ze_device_dditable_t table{};
  ZE_ASSERT_OK(get(ZE_API_VERSION_1_4, &table));
  auto *entries = reinterpret_cast<void **>(&table);
  for (size_t i = 0; i < sizeof(table) / sizeof(void *); ++i) EXPECT_NE(nullptr, entries[i]) << "entry " << i;
  // Implemented entries check their arguments.
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, table.pfnGetImageProperties(nullptr, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, table.pfnGetExternalMemoryProperties(nullptr, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, table.pfnCanAccessPeer(nullptr, nullptr, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, table.pfnGetCacheProperties(nullptr, nullptr, nullptr));

  auto get_list =
      reinterpret_cast<ze_pfnGetCommandListProcAddrTable_t>(dlsym(library, "zeGetCommandListProcAddrTable"));
  ASSERT_NE(nullptr, get_list);
  ze_command_list_dditable_t list{};
  ZE_ASSERT_OK(get_list(ZE_API_VERSION_1_4, &list));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
            list.pfnAppendImageCopy(nullptr, nullptr, nullptr, nullptr, 0, nullptr));
  // The fabric topology extension is not implemented: its entries answer that.
  auto get_fabric =
      reinterpret_cast<ze_pfnGetFabricVertexExpProcAddrTable_t>(dlsym(library, "zeGetFabricVertexExpProcAddrTable"));
  ASSERT_NE(nullptr, get_fabric);
  ze_fabric_vertex_exp_dditable_t fabric{};
  ZE_ASSERT_OK(get_fabric(ZE_API_VERSION_1_4, &fabric));
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, fabric.pfnGetExp(nullptr, nullptr, nullptr));
  // Image views are implemented: a null handle is answered as such.
  auto get_image = reinterpret_cast<ze_pfnGetImageExpProcAddrTable_t>(dlsym(library, "zeGetImageExpProcAddrTable"));
  ASSERT_NE(nullptr, get_image);
  ze_image_exp_dditable_t image{};
  ZE_ASSERT_OK(get_image(ZE_API_VERSION_1_4, &image));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, image.pfnViewCreateExp(nullptr, nullptr, nullptr, nullptr, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
            list.pfnAppendLaunchKernelIndirect(nullptr, nullptr, nullptr, nullptr, 0, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
            list.pfnAppendMemoryCopyRegion(nullptr, nullptr, nullptr, 0, 0, nullptr, nullptr, 0, 0, nullptr, 0,
                                           nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
            list.pfnAppendWriteGlobalTimestamp(nullptr, nullptr, nullptr, 0, nullptr));

  auto get_kernel = reinterpret_cast<ze_pfnGetKernelProcAddrTable_t>(dlsym(library, "zeGetKernelProcAddrTable"));
  ASSERT_NE(nullptr, get_kernel);
  ze_kernel_dditable_t kernel{};
  ZE_ASSERT_OK(get_kernel(ZE_API_VERSION_1_4, &kernel));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, kernel.pfnSetIndirectAccess(nullptr, 0));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, kernel.pfnGetSourceAttributes(nullptr, nullptr, nullptr));

  auto get_tracer = reinterpret_cast<zet_pfnGetTracerExpProcAddrTable_t>(dlsym(library, "zetGetTracerExpProcAddrTable"));
  ASSERT_NE(nullptr, get_tracer);
  zet_tracer_exp_dditable_t tracer{};
  ZE_ASSERT_OK(get_tracer(ZE_API_VERSION_1_4, &tracer));
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, tracer.pfnCreate(nullptr, nullptr, nullptr));
}

} // namespace
} // namespace zeal::cpu::test
