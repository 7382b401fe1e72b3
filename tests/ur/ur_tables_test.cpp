// The plugin as UR's loader sees it before any call: 26 table getters that take only the SDK's API version
// and fill every slot.
#include <unified-runtime/ur_ddi.h>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstring>
#include <string>

namespace zeal_ur_test {
namespace {

// The getter names, in the order UR's loader asks for them (shared/notes/ur-abi.md), with each table's size.
struct Getter {
  const char *name;
  size_t table_size;
};
const Getter kGetters[] = {
    {"urGetAdapterProcAddrTable", sizeof(ur_adapter_dditable_t)},
    {"urGetBindlessImagesExpProcAddrTable", sizeof(ur_bindless_images_exp_dditable_t)},
    {"urGetCommandBufferExpProcAddrTable", sizeof(ur_command_buffer_exp_dditable_t)},
    {"urGetContextProcAddrTable", sizeof(ur_context_dditable_t)},
    {"urGetEnqueueProcAddrTable", sizeof(ur_enqueue_dditable_t)},
    {"urGetEnqueueExpProcAddrTable", sizeof(ur_enqueue_exp_dditable_t)},
    {"urGetEventProcAddrTable", sizeof(ur_event_dditable_t)},
    {"urGetEventExpProcAddrTable", sizeof(ur_event_exp_dditable_t)},
    {"urGetGraphExpProcAddrTable", sizeof(ur_graph_exp_dditable_t)},
    {"urGetIPCExpProcAddrTable", sizeof(ur_ipc_exp_dditable_t)},
    {"urGetKernelProcAddrTable", sizeof(ur_kernel_dditable_t)},
    {"urGetMemProcAddrTable", sizeof(ur_mem_dditable_t)},
    {"urGetMemoryExportExpProcAddrTable", sizeof(ur_memory_export_exp_dditable_t)},
    {"urGetPhysicalMemProcAddrTable", sizeof(ur_physical_mem_dditable_t)},
    {"urGetPlatformProcAddrTable", sizeof(ur_platform_dditable_t)},
    {"urGetProgramProcAddrTable", sizeof(ur_program_dditable_t)},
    {"urGetProgramExpProcAddrTable", sizeof(ur_program_exp_dditable_t)},
    {"urGetQueueProcAddrTable", sizeof(ur_queue_dditable_t)},
    {"urGetQueueExpProcAddrTable", sizeof(ur_queue_exp_dditable_t)},
    {"urGetSamplerProcAddrTable", sizeof(ur_sampler_dditable_t)},
    {"urGetUSMProcAddrTable", sizeof(ur_usm_dditable_t)},
    {"urGetUSMExpProcAddrTable", sizeof(ur_usm_exp_dditable_t)},
    {"urGetUsmP2PExpProcAddrTable", sizeof(ur_usm_p2p_exp_dditable_t)},
    {"urGetVirtualMemProcAddrTable", sizeof(ur_virtual_mem_dditable_t)},
    {"urGetDeviceProcAddrTable", sizeof(ur_device_dditable_t)},
    {"urGetDeviceExpProcAddrTable", sizeof(ur_device_exp_dditable_t)},
};
static_assert(sizeof(kGetters) / sizeof(kGetters[0]) == 26);

// Every table is a struct of function pointers only; a getter is called through this one type, with a
// buffer of the table's size, as the loader calls it through each table's own type.
using AnyGetter = ur_result_t (*)(ur_api_version_t, void *);

class UrTables : public ::testing::Test {
protected:
  void SetUp() override {
    plugin = dlopen(ZEAL_UR_ADAPTER_PATH, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(nullptr, plugin) << dlerror();
  }
  AnyGetter getter(const char *name) { return reinterpret_cast<AnyGetter>(dlsym(plugin, name)); }
  void *plugin = nullptr; // kept loaded: the adapter initialises Level Zero once per process
};

TEST_F(UrTables, EveryGetterFillsEverySlot) {
  for (const Getter &g : kGetters) {
    AnyGetter get = getter(g.name);
    ASSERT_NE(nullptr, get) << g.name << " is not exported";
    std::string table(g.table_size, '\0');
    ASSERT_EQ(UR_RESULT_SUCCESS, get(UR_API_VERSION_CURRENT, table.data())) << g.name;
    for (size_t offset = 0; offset < g.table_size; offset += sizeof(void *)) {
      void *slot = nullptr;
      std::memcpy(&slot, table.data() + offset, sizeof slot);
      EXPECT_NE(nullptr, slot) << g.name << ": slot " << offset / sizeof(void *) << " is null";
    }
  }
}

TEST_F(UrTables, GivenAnotherApiVersion_ThenEveryGetterRefusesIt) {
  for (int number : {UR_MAKE_VERSION(0, 11), UR_MAKE_VERSION(0, 13), UR_MAKE_VERSION(1, 0)}) {
    const auto other = static_cast<ur_api_version_t>(number);
    for (const Getter &g : kGetters) {
      std::string table(g.table_size, '\0');
      EXPECT_EQ(UR_RESULT_ERROR_UNSUPPORTED_VERSION, getter(g.name)(other, table.data())) << g.name;
      EXPECT_EQ(std::string(g.table_size, '\0'), table) << g.name << " wrote a table it refused";
    }
  }
}

TEST_F(UrTables, GivenANullTable_ThenInvalidNullPointer) {
  for (const Getter &g : kGetters)
    EXPECT_EQ(UR_RESULT_ERROR_INVALID_NULL_POINTER, getter(g.name)(UR_API_VERSION_CURRENT, nullptr)) << g.name;
}

} // namespace
} // namespace zeal_ur_test
