// The loader: where adapters are looked for, what happens to bad ones, and the devices found.
#include "loader/loader.hpp"

#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <string>

namespace {

TEST(Loader, GivenForceLoad_ThenOnlyThoseFilesAreCandidates) {
  zeal::Settings s;
  s.adapters_force_load = "/x/libzeal_adapter_a.so,/y/libzeal_adapter_b.so";
  s.adapters_search_path = "/should/not/be/searched";
  auto candidates = zeal::detail::adapter_candidates(s, ZEAL_TEST_LIB_DIR);
  ASSERT_EQ(candidates.size(), 2u);
  EXPECT_EQ(candidates[0], "/x/libzeal_adapter_a.so");
  EXPECT_EQ(candidates[1], "/y/libzeal_adapter_b.so");
}

TEST(Loader, GivenNoSettings_ThenTheRuntimeFolderComesBeforeTheSystemPath) {
  zeal::Settings s;
  auto candidates = zeal::detail::adapter_candidates(s, ZEAL_TEST_LIB_DIR);
  ASSERT_GE(candidates.size(), 2u);
  EXPECT_EQ(candidates.front(), std::string(ZEAL_TEST_LIB_DIR) + "/libzeal_adapter_level_zero.so");
  EXPECT_EQ(candidates.back(), "libzeal_adapter_level_zero.so");
}

TEST(Loader, GivenAMissingFile_ThenTheErrorNamesItAndSaysWhy) {
  auto adapter = zeal::detail::load_adapter("/nonexistent/libzeal_adapter_ghost.so");
  ASSERT_FALSE(adapter.ok());
  EXPECT_NE(adapter.error().message.find("cannot open adapter '/nonexistent/libzeal_adapter_ghost.so'"),
            std::string::npos)
      << adapter.error().message;
  EXPECT_NE(adapter.error().message.find("No such file"), std::string::npos) << adapter.error().message;
}

TEST(Loader, GivenALibraryWithoutTheEntryPoint_ThenTheErrorNamesTheEntryPoint) {
  std::string libzeal = zeal::detail::runtime_directory() + "/libzeal.so";
  auto adapter = zeal::detail::load_adapter(libzeal);
  ASSERT_FALSE(adapter.ok());
  EXPECT_NE(adapter.error().message.find("has no entry point zealGetAdapterDispatch"), std::string::npos)
      << adapter.error().message;
}

TEST(Loader, GivenAFileThatIsNotASharedObject_ThenItIsRefusedWithDlerror) {
  std::string path = ::testing::TempDir() + "libzeal_adapter_text.so";
  std::ofstream(path) << "not an ELF file";
  auto adapter = zeal::detail::load_adapter(path);
  std::remove(path.c_str());
  ASSERT_FALSE(adapter.ok());
  EXPECT_NE(adapter.error().message.find("cannot open adapter"), std::string::npos) << adapter.error().message;
}

TEST(Loader, FindsTheLevelZeroAdapterBesideLibzeal) {
  const auto &adapters = zeal::detail::adapters(zeal::detail::AdapterScope::selected);
  ASSERT_FALSE(adapters.empty());
  EXPECT_EQ(adapters.front()->backend, "level_zero");
  EXPECT_NE(adapters.front()->path.find("libzeal_adapter_level_zero.so"), std::string::npos);
}

TEST(Loader, FindsTheCpuDevice) {
  auto cpus = zeal::device::get_devices(zeal::device_type::cpu);
  ASSERT_FALSE(cpus.empty());
  EXPECT_EQ(cpus.front().backend(), "level_zero");
  EXPECT_FALSE(cpus.front().name().empty());
  EXPECT_FALSE(cpus.front().sub_group_sizes().empty());
  EXPECT_GE(cpus.front().max_work_group_size(), 256u);
  // With no GPU present the default device is the CPU.
  if (zeal::device::get_devices(zeal::device_type::gpu).empty()) {
    EXPECT_TRUE(zeal::device().is_cpu());
  } else {
    EXPECT_TRUE(zeal::device().is_gpu());
  }
}

// zeal::platform answers what the C ABI answers for the device's platform handle.
std::string abi_platform_string(const zeal::device &dev, zeal_platform_info_t key) {
  const zeal_adapter_dispatch_t &d = dev.dispatch();
  const zeal_platform_handle_t handle = dev.get_platform().native_handle();
  size_t size = 0;
  EXPECT_EQ(d.platformGetInfo(handle, key, 0, nullptr, &size), ZEAL_RESULT_SUCCESS);
  std::string value(size, '\0');
  EXPECT_EQ(d.platformGetInfo(handle, key, size, value.data(), nullptr), ZEAL_RESULT_SUCCESS);
  return value.substr(0, value.find('\0'));
}

TEST(Platform, TheCpuDevicesPlatformNamesItselfAndItsLevelZeroVersionAsTheCAbiDoes) {
  auto cpus = zeal::device::get_devices(zeal::device_type::cpu);
  ASSERT_FALSE(cpus.empty());
  const zeal::device &cpu = cpus.front();
  const zeal::platform platform = cpu.get_platform();
  EXPECT_EQ(platform, cpu.get_platform());
  EXPECT_EQ(platform.name(), "zeal CPU Level-Zero");
  EXPECT_EQ(platform.vendor(), "zeal");
  EXPECT_TRUE(std::regex_match(platform.backend_version(), std::regex("[0-9]+\\.[0-9]+"))) << platform.backend_version();
  EXPECT_TRUE(std::regex_match(platform.driver_version(), std::regex("[0-9]+\\.[0-9]+\\.[0-9]+")))
      << platform.driver_version();
  EXPECT_EQ(platform.name(), abi_platform_string(cpu, ZEAL_PLATFORM_INFO_NAME));
  EXPECT_EQ(platform.backend_version(), abi_platform_string(cpu, ZEAL_PLATFORM_INFO_BACKEND_VERSION));
  EXPECT_EQ(platform.driver_version(), abi_platform_string(cpu, ZEAL_PLATFORM_INFO_VERSION));
  EXPECT_EQ(platform.info_string(ZEAL_PLATFORM_INFO_BACKEND), cpu.backend());
}

TEST(Platform, GivenAnUnknownInfoKey_ThenTheErrorSaysTheAdapterDoesNotKnowIt) {
  const zeal::platform platform = zeal::device::get_devices(zeal::device_type::cpu).at(0).get_platform();
  try {
    (void)platform.info_string(static_cast<zeal_platform_info_t>(999));
    FAIL() << "expected an error for platform info key 999";
  } catch (const zeal::exception &e) {
    EXPECT_NE(std::string(e.what()).find("platform info key 999 is not known"), std::string::npos) << e.what();
  }
}

} // namespace

namespace {

std::string broken(const char *kind) {
  return std::string(ZEAL_TEST_BROKEN_ADAPTER_DIR) + "/libzeal_adapter_" + kind + ".so";
}

TEST(BrokenAdapters, GivenAWrongAbiMajor_ThenTheErrorNamesBothVersions) {
  auto adapter = zeal::detail::load_adapter(broken("wrong_abi"));
  ASSERT_FALSE(adapter.ok());
  EXPECT_NE(adapter.error().message.find("speaks zeal ABI version 99.0, not 0."), std::string::npos)
      << adapter.error().message;
}

TEST(BrokenAdapters, GivenAnAdapterRefusingOurVersion_ThenTheErrorSaysSo) {
  auto adapter = zeal::detail::load_adapter(broken("refuses_abi"));
  ASSERT_FALSE(adapter.ok());
  EXPECT_NE(adapter.error().message.find("refused zeal ABI version 0."), std::string::npos) << adapter.error().message;
}

TEST(BrokenAdapters, GivenAFailingInit_ThenTheAdaptersOwnMessageIsKept) {
  auto adapter = zeal::detail::load_adapter(broken("failing_init"));
  ASSERT_FALSE(adapter.ok());
  EXPECT_NE(adapter.error().message.find("failed to initialise: the test adapter has no devices to offer"),
            std::string::npos)
      << adapter.error().message;
}

TEST(BrokenAdapters, TheBackendComesFromTheFileName) {
  EXPECT_EQ(zeal::detail::backend_of_adapter_file("/a/b/libzeal_adapter_level_zero.so"), "level_zero");
  EXPECT_EQ(zeal::detail::backend_of_adapter_file("libzeal_adapter_opencl.so"), "opencl");
  EXPECT_EQ(zeal::detail::backend_of_adapter_file("/a/libfoo.so"), "");
}

} // namespace
