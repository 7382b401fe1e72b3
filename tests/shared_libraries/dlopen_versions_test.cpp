// Two versions of one library (same soname, same symbols, different device code) loaded in turn with
// dlopen: each version's device code runs while it is loaded, never the other's, and nothing built
// from an unloaded version is used by new look-ups; an address taken from it stays callable.
#include "version_lib.hpp"

#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

// A version's library: its build-tree path, or where ZEAL_TEST_VERSION_<n> puts it (the GPU kit runs this elsewhere).
const char *version_path(int version) {
  const char *set = std::getenv(version == 1 ? "ZEAL_TEST_VERSION_1" : "ZEAL_TEST_VERSION_2");
  return set != nullptr && *set != '\0' ? set : version == 1 ? ZEAL_TEST_VERSION_1 : ZEAL_TEST_VERSION_2;
}

constexpr size_t n = 256;

using RunFn = int (*)(zeal::queue *, int *, size_t);
using HostFn = int (*)();

std::vector<int> offsets(int version) {
  std::vector<int> out;
  for (size_t i = 0; i < n; ++i) out.push_back(static_cast<int>(i) + 100 * version);
  return out;
}

class DlopenVersions : public ::testing::Test {
protected:
  void SetUp() override { out = zeal::malloc_shared<int>(n, q); }
  void TearDown() override {
    zeal::free(out, q);
    if (lib != nullptr) dlclose(lib);
  }

  void load(const char *path, int version) {
    lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(lib, nullptr) << dlerror();
    auto host = reinterpret_cast<HostFn>(dlsym(lib, "version_host"));
    ASSERT_NE(host, nullptr) << dlerror();
    ASSERT_EQ(host(), version);
  }
  void unload() {
    ASSERT_EQ(dlclose(lib), 0);
    lib = nullptr;
  }

  std::vector<int> app_kernel() {
    q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("app_version"), out).wait();
    return {out, out + n};
  }
  std::vector<int> library_kernel() {
    auto run = reinterpret_cast<RunFn>(dlsym(lib, "version_run"));
    EXPECT_NE(run, nullptr) << dlerror();
    EXPECT_EQ(run(&q, out, n), 0);
    return {out, out + n};
  }
  std::vector<int> call_through(zeal::device_function_ptr fn) {
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<int>(i);
    q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("app_call_through"), out, fn).wait();
    return {out, out + n};
  }
  void expect_unresolved() {
    try {
      q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("app_version"), out).wait();
      ADD_FAILURE() << "app_version ran with no library exporting version_offset";
    } catch (const zeal::exception &e) {
      EXPECT_EQ(e.code(), zeal::errc::build);
      EXPECT_NE(std::string(e.what()).find("'version_offset'"), std::string::npos) << e.what();
    }
  }

  zeal::queue q;
  int *out = nullptr;
  void *lib = nullptr;
};

TEST_F(DlopenVersions, EachLoadedVersionsDeviceCodeRunsAndAnUnloadedOnesIsNeverUsedAgain) {
  expect_unresolved();

  load(version_path(1), 1);
  EXPECT_EQ(app_kernel(), offsets(1));
  EXPECT_EQ(library_kernel(), offsets(1));
  zeal::device_function_ptr v1 = zeal::get_device_function_pointer(q, "version_offset");
  EXPECT_EQ(call_through(v1), offsets(1));

  unload();
  // The application's kernel was resolved against version 1: unloading it must undo that.
  expect_unresolved();
  EXPECT_THROW((void)zeal::get_device_function_pointer(q, "version_offset"), zeal::exception);
  // An address taken while version 1 was loaded stays valid in its context.
  EXPECT_EQ(call_through(v1), offsets(1));

  load(version_path(2), 2);
  EXPECT_EQ(app_kernel(), offsets(2));
  EXPECT_EQ(library_kernel(), offsets(2));
  zeal::device_function_ptr v2 = zeal::get_device_function_pointer(q, "version_offset");
  EXPECT_EQ(call_through(v2), offsets(2));
  EXPECT_EQ(call_through(v1), offsets(1));
}

TEST_F(DlopenVersions, AVersionLoadedAgainAfterTheOtherRunsItsOwnCodeAgain) {
  load(version_path(2), 2);
  EXPECT_EQ(app_kernel(), offsets(2));
  unload();
  load(version_path(1), 1);
  EXPECT_EQ(app_kernel(), offsets(1));
  EXPECT_EQ(library_kernel(), offsets(1));
  unload();
  load(version_path(2), 2);
  EXPECT_EQ(app_kernel(), offsets(2));
  EXPECT_EQ(library_kernel(), offsets(2));
}

// Launches by kernel_id from several threads while another loads and unloads a library over
// and over: the registry's generation keeps changing under the warm launch path, which must
// still give every thread its own kernel's right results.
TEST_F(DlopenVersions, LaunchesFromSeveralThreadsStayRightWhileALibraryIsLoadedAndUnloaded) {
  zeal::device_function_ptr square = zeal::get_device_function_pointer(q, "app_square_minus_one");
  std::atomic<bool> done{false};
  std::thread loader([&] {
    for (int round = 0; round < 20; ++round) {
      void *handle = dlopen(version_path(1), RTLD_NOW | RTLD_LOCAL);
      if (handle != nullptr) dlclose(handle);
    }
    done = true;
  });
  std::vector<std::thread> launchers;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 3; ++t)
    launchers.emplace_back([&] {
      int *data = zeal::malloc_shared<int>(n, q);
      do {
        for (size_t i = 0; i < n; ++i) data[i] = static_cast<int>(i);
        q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("app_call_through"), data, square).wait();
        for (size_t i = 0; i < n; ++i)
          if (data[i] != static_cast<int>(i * i) - 1) ++wrong;
      } while (!done);
      zeal::free(data, q);
    });
  loader.join();
  for (std::thread &l : launchers) l.join();
  EXPECT_EQ(wrong, 0);
}

} // namespace
