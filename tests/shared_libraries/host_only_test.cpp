// Libraries without device code next to device code (test plan 2.4 and 2.5.1): linked, and loaded with
// dlopen, they work as any host library, and the application's kernels run as without them.
#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdlib>
#include <vector>

extern "C" int host_only_scale();

namespace {

// The plugin's build-tree path, or where ZEAL_TEST_HOST_ONLY_PLUGIN puts it (the GPU kit runs this elsewhere).
const char *plugin_path() {
  const char *set = std::getenv("ZEAL_TEST_HOST_ONLY_PLUGIN");
  return set != nullptr && *set != '\0' ? set : ZEAL_TEST_HOST_ONLY_PLUGIN;
}

constexpr size_t n = 128;

std::vector<int> run_scale(zeal::queue &q, int scale) {
  int *out = zeal::malloc_shared<int>(n, q);
  q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("host_only_app_scale"), out, scale).wait();
  std::vector<int> result(out, out + n);
  zeal::free(out, q);
  return result;
}

std::vector<int> scaled(int scale) {
  std::vector<int> out;
  for (size_t i = 0; i < n; ++i) out.push_back(static_cast<int>(i) * scale);
  return out;
}

size_t registered_kernels() { return zeal::get_kernel_ids().size(); }

TEST(HostOnlyLibraries, ALinkedLibraryWithoutDeviceCodeServesTheHostAndTheApplicationsKernelRuns) {
  zeal::queue q;
  EXPECT_EQ(run_scale(q, host_only_scale()), scaled(3));
}

TEST(HostOnlyLibraries, ALibraryWithoutDeviceCodeLoadedWithDlopenServesTheHostAndRegistersNothing) {
  zeal::queue q;
  size_t before = registered_kernels();
  void *lib = dlopen(plugin_path(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib, nullptr) << dlerror();
  auto add = reinterpret_cast<int (*)(int, int)>(dlsym(lib, "host_only_add"));
  ASSERT_NE(add, nullptr) << dlerror();
  EXPECT_EQ(registered_kernels(), before);
  EXPECT_EQ(run_scale(q, add(2, 5)), scaled(7));
  ASSERT_EQ(dlclose(lib), 0);
  EXPECT_EQ(registered_kernels(), before);
  EXPECT_EQ(run_scale(q, 4), scaled(4));
}

} // namespace
