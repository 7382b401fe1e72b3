// Kernel bundles and device code across shared libraries: application -> libzeal_test_a -> libzeal_test_b.
#include "kernel_bundle/detail.hpp"
#include "tests/support/zeal_float_sum.hpp"

#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

extern "C" int zeal_test_a_present();
extern "C" int zeal_test_b_present();

namespace {

class Bundles : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(zeal_test_a_present() + zeal_test_b_present(), 2); // keep both libraries linked
  }
  zeal::queue q;
  zeal::context ctx = q.get_context();
  zeal::device dev = q.get_device();
};

TEST_F(Bundles, AnApplicationKernelCallsALibraryFunctionThatCallsAnotherLibrary) {
  zeal_test::expect_float_sum(q, "app_add_via_lib", 1000, 3.0f); // c = (2a) * 0.5 + b
}

TEST_F(Bundles, ALibraryFunctionServesApplicationAndLibraryKernelsAlike) {
  float *data = zeal::malloc_shared<float>(64, q);
  for (int i = 0; i < 64; ++i) data[i] = static_cast<float>(i);
  q.parallel_for(zeal::range<1>{64}, zeal::get_kernel_id("lib_a_kernel"), data).wait();
  for (int i = 0; i < 64; ++i) ASSERT_EQ(data[i], static_cast<float>(i) + 1.0f) << i;
  q.parallel_for(zeal::range<1>{64}, zeal::get_kernel_id("app_twice_via_lib"), data).wait();
  for (int i = 0; i < 64; ++i) ASSERT_EQ(data[i], 2.0f * (static_cast<float>(i) + 1.0f)) << i;
  zeal::free(data, q);
}

TEST_F(Bundles, GivenAnExecutableBundleForADependentKernel_ThenItBuildsAndRuns) {
  auto id = zeal::get_kernel_id("app_add_via_lib");
  auto bundle = zeal::get_kernel_bundle<zeal::bundle_state::executable>(ctx, {dev}, {id});
  EXPECT_TRUE(bundle.has_kernel(id));
  EXPECT_FALSE(bundle.has_kernel(zeal::get_kernel_id("lib_a_kernel")));
  zeal::kernel k = bundle.get_kernel(id);
  float *a = zeal::malloc_shared<float>(16, q), *b = zeal::malloc_shared<float>(16, q), *c = zeal::malloc_shared<float>(16, q);
  for (int i = 0; i < 16; ++i) a[i] = b[i] = static_cast<float>(i);
  q.parallel_for(zeal::range<1>{16}, k, a, b, c).wait();
  for (int i = 0; i < 16; ++i) ASSERT_EQ(c[i], 2.0f * static_cast<float>(i)) << i;
  zeal::free(a, q);
  zeal::free(b, q);
  zeal::free(c, q);
}

TEST_F(Bundles, InputToObjectToExecutable_AcrossTwoBundles) {
  auto app_id = zeal::get_kernel_id("app_add_via_lib");
  auto lib_id = zeal::get_kernel_id("lib_a_kernel");
  auto app_input = zeal::get_kernel_bundle<zeal::bundle_state::input>(ctx, {dev}, {app_id});
  auto lib_input = zeal::get_kernel_bundle<zeal::bundle_state::input>(ctx, {dev}, {lib_id});
  ASSERT_EQ(app_input.images().size(), 1u);
  EXPECT_NE(lib_input.images().front().origin().find("libzeal_test_a"), std::string::npos)
      << lib_input.images().front().origin();
  auto app_object = zeal::compile(app_input);
  auto lib_object = zeal::compile(lib_input);
  auto exe = zeal::link({app_object, lib_object});
  EXPECT_TRUE(exe.has_kernel(app_id));
  EXPECT_TRUE(exe.has_kernel(lib_id));
  float *data = zeal::malloc_shared<float>(8, q);
  for (int i = 0; i < 8; ++i) data[i] = 1.0f;
  q.parallel_for(zeal::range<1>{8}, exe.get_kernel(lib_id), data).wait();
  for (int i = 0; i < 8; ++i) ASSERT_EQ(data[i], 2.0f) << i;
  zeal::free(data, q);
}

TEST_F(Bundles, GivenAnUnresolvedDeviceFunction_ThenTheBuildErrorNamesItAndWhereItWasNeeded) {
  try {
    (void)q.get_kernel(zeal::get_kernel_id("calls_missing"));
    FAIL() << "expected a build error";
  } catch (const zeal::exception &e) {
    EXPECT_EQ(e.code(), zeal::errc::build) << e.what();
    std::string m = e.what();
    EXPECT_NE(m.find("device function 'nobody_defines_this'"), std::string::npos) << m;
    EXPECT_NE(m.find("runtime_test"), std::string::npos) << m;      // the importing executable
    EXPECT_NE(m.find("libzeal_test_a"), std::string::npos) << m;    // a library searched
  }
}

TEST_F(Bundles, TheWrongStateIsRefusedWithASentence) {
  auto input = zeal::get_kernel_bundle<zeal::bundle_state::input>(ctx, {dev}, {zeal::get_kernel_id("scale")});
  auto object = zeal::compile(input);
  auto exe = zeal::link(object);
  zeal::kernel k = exe.get_kernel(zeal::get_kernel_id("scale"));
  EXPECT_EQ(k.name(), "scale");
  // The image holding 'scale' also holds 'vector_add', but not the application's other kernels.
  EXPECT_TRUE(exe.has_kernel(zeal::get_kernel_id("vector_add")));
  try {
    (void)exe.get_kernel(zeal::get_kernel_id("app_twice_via_lib"));
    FAIL() << "expected an error";
  } catch (const zeal::exception &e) {
    EXPECT_EQ(e.code(), zeal::errc::invalid);
    EXPECT_NE(std::string(e.what()).find("has no kernel 'app_twice_via_lib'"), std::string::npos) << e.what();
  }
}

TEST_F(Bundles, ConcurrentFirstUsesOfOneKernelShareOneBuild) {
  std::vector<std::thread> threads;
  std::vector<zeal::kernel> kernels(4, zeal::kernel(nullptr));
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] { kernels[t] = q.get_kernel(zeal::get_kernel_id("app_twice_via_lib")); });
  for (auto &t : threads) t.join();
  for (int t = 1; t < 4; ++t) EXPECT_EQ(kernels[t].impl()->builds.front().program, kernels[0].impl()->builds.front().program);
}

} // namespace
