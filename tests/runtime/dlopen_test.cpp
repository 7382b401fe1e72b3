// Device images of a library loaded and unloaded with dlopen/dlclose at run time.
#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <string>

namespace {

using FillFn = int (*)(int *, int, int);

bool registered(const std::string &name) {
  for (const auto &id : zeal::get_kernel_ids())
    if (name == id.get_name()) return true;
  return false;
}

TEST(Dlopen, ALibrarysKernelsAppearWhenItLoadsAndGoWhenItUnloads) {
  ASSERT_FALSE(registered("plugin_fill"));
  void *lib = dlopen(ZEAL_TEST_PLUGIN, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib, nullptr) << dlerror();
  EXPECT_TRUE(registered("plugin_fill"));

  auto fill = reinterpret_cast<FillFn>(dlsym(lib, "plugin_fill_with"));
  ASSERT_NE(fill, nullptr);
  zeal::queue q;
  int *data = zeal::malloc_shared<int>(512, q);
  ASSERT_EQ(fill(data, 512, 41), 0);
  for (int i = 0; i < 512; ++i) ASSERT_EQ(data[i], 41) << i;

  // A kernel obtained while the library was loaded keeps working after dlclose.
  zeal::kernel k = q.get_kernel(zeal::get_kernel_id("plugin_fill"));
  ASSERT_EQ(dlclose(lib), 0);
  EXPECT_FALSE(registered("plugin_fill"));
  q.parallel_for(zeal::range<1>{512}, k, data, 7).wait();
  for (int i = 0; i < 512; ++i) ASSERT_EQ(data[i], 7) << i;

  // New look-ups no longer see the unloaded image, with a message saying what is registered.
  try {
    (void)zeal::get_kernel_id("plugin_fill");
    ADD_FAILURE() << "plugin_fill should be gone";
  } catch (const zeal::exception &e) {
    EXPECT_EQ(e.code(), zeal::errc::invalid);
    EXPECT_NE(std::string(e.what()).find("'plugin_fill'"), std::string::npos) << e.what();
  }

  // Loading it again works, and its kernel runs again.
  lib = dlopen(ZEAL_TEST_PLUGIN, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib, nullptr) << dlerror();
  fill = reinterpret_cast<FillFn>(dlsym(lib, "plugin_fill_with"));
  ASSERT_EQ(fill(data, 512, 99), 0);
  for (int i = 0; i < 512; ++i) ASSERT_EQ(data[i], 99) << i;
  ASSERT_EQ(dlclose(lib), 0);
  zeal::free(data, q);
}

} // namespace
