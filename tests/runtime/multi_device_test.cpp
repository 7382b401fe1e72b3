// Contexts and kernel bundles over several devices at once, through the C++ API. ctest runs this binary over the
// CPU driver made two root devices of two sub-devices each, under selectors that leave two root devices, two
// sub-devices of one root, a root device and another root's sub-device, or two drivers (two platforms) of two
// roots each: every case has at least two devices of one platform.
// The kernels come from the application and from libzeal_test_a -> libzeal_test_b, so each device's executable
// is linked across shared libraries.
#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

extern "C" int zeal_test_a_present();
extern "C" int zeal_test_b_present();

namespace {

class MultiDevice : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(zeal_test_a_present() + zeal_test_b_present(), 2); // keep both libraries linked
    ASSERT_GE(devices.size(), 2u) << "ctest's selectors leave at least two devices";
  }

  // c[i] = a[i] + b[i] through the libraries (app_add_via_lib), on `q`, over [first, first + count).
  static void add_part(zeal::queue &q, const zeal::kernel &k, const float *a, const float *b, float *c,
                       size_t first, size_t count) {
    q.parallel_for(zeal::range<1>{count}, k, a + first, b + first, c + first).wait();
  }

  // The devices of the first device's platform: a context holds one platform's devices.
  static std::vector<zeal::device> first_platform_devices() {
    std::vector<zeal::device> out;
    for (const zeal::device &d : zeal::device::get_devices())
      if (out.empty() || d.get_platform() == out.front().get_platform()) out.push_back(d);
    return out;
  }

  std::vector<zeal::device> devices = first_platform_devices();
};

std::string names(const std::vector<zeal::device> &devices) {
  std::string out;
  for (const zeal::device &d : devices) out += (out.empty() ? "" : " + ") + d.name();
  return out;
}

TEST_F(MultiDevice, AContextHoldsEachDeviceOnceInOrder) {
  std::vector<zeal::device> twice = devices;
  twice.insert(twice.end(), devices.begin(), devices.end());
  zeal::context ctx(twice);
  EXPECT_EQ(names(devices), names(ctx.get_devices()));
  EXPECT_TRUE(ctx.get_device() == devices.front());
}

// Memory of the context is one memory for all of its devices: each device adds its share of one array.
TEST_F(MultiDevice, EveryDeviceOfTheContextRunsOnTheSameAllocations) {
  zeal::context ctx(devices);
  std::vector<zeal::queue> queues;
  for (const zeal::device &d : devices) queues.emplace_back(ctx, d);
  constexpr size_t per_device = 1000;
  const size_t n = per_device * devices.size();
  float *a = zeal::malloc_shared<float>(n, queues.front());
  float *b = zeal::malloc_device<float>(n, queues.back());
  float *c = zeal::malloc_host<float>(n, queues.front());
  ASSERT_NE(nullptr, a);
  std::vector<float> ones(n, 1.0f);
  queues.back().memcpy(b, ones.data(), n * sizeof(float)).wait();
  for (size_t i = 0; i < n; ++i) {
    a[i] = float(i);
    c[i] = -1.0f;
  }
  const zeal::kernel_id id = zeal::get_kernel_id("app_add_via_lib");
  for (size_t d = 0; d < queues.size(); ++d) {
    SCOPED_TRACE(devices[d].name());
    add_part(queues[d], queues[d].get_kernel(id), a, b, c, d * per_device, per_device);
  }
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(float(i) + 1.0f, c[i]) << i;
  zeal::free(a, queues.front());
  zeal::free(b, queues.front());
  zeal::free(c, queues.back());
}

// One executable bundle for all the devices: one kernel object launches on a queue of each.
TEST_F(MultiDevice, OneExecutableBundleForSeveralDevicesRunsOnEachOfThem) {
  zeal::context ctx(devices);
  const zeal::kernel_id id = zeal::get_kernel_id("app_add_via_lib");
  auto bundle = zeal::get_kernel_bundle<zeal::bundle_state::executable>(ctx, devices, {id});
  EXPECT_EQ(names(devices), names(bundle.get_devices()));
  ASSERT_TRUE(bundle.has_kernel(id));
  zeal::kernel k = bundle.get_kernel(id);
  EXPECT_EQ(3u, k.num_args());
  constexpr size_t per_device = 777;
  const size_t n = per_device * devices.size();
  zeal::queue first(ctx, devices.front());
  float *a = zeal::malloc_shared<float>(n, first), *b = zeal::malloc_shared<float>(n, first);
  float *c = zeal::malloc_shared<float>(n, first);
  for (size_t i = 0; i < n; ++i) {
    a[i] = 2.0f * float(i);
    b[i] = 0.5f;
    c[i] = 0.0f;
  }
  for (size_t d = 0; d < devices.size(); ++d) {
    SCOPED_TRACE(devices[d].name());
    zeal::queue q(ctx, devices[d]);
    add_part(q, k, a, b, c, d * per_device, per_device);
  }
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(2.0f * float(i) + 0.5f, c[i]) << i;
  zeal::free(a, first);
  zeal::free(b, first);
  zeal::free(c, first);
}

// The SYCL path through states: input for every device of the context, compiled, then linked with a second
// object bundle; the executable has a program per device and each runs.
TEST_F(MultiDevice, CompileAndLinkBuildForEveryDeviceOfTheBundles) {
  zeal::context ctx(devices);
  auto input = zeal::get_kernel_bundle<zeal::bundle_state::input>(ctx); // all of the context's devices
  EXPECT_EQ(names(devices), names(input.get_devices()));
  auto app = zeal::compile(zeal::get_kernel_bundle<zeal::bundle_state::input>(
      ctx, devices, {zeal::get_kernel_id("app_twice_via_lib")}));
  auto lib = zeal::compile(zeal::get_kernel_bundle<zeal::bundle_state::input>(
      ctx, devices, {zeal::get_kernel_id("lib_a_kernel")}));
  EXPECT_EQ(names(devices), names(app.get_devices()));
  auto exe = zeal::link({app, lib});
  EXPECT_EQ(names(devices), names(exe.get_devices()));
  zeal::kernel twice = exe.get_kernel(zeal::get_kernel_id("app_twice_via_lib"));
  zeal::kernel plus_one = exe.get_kernel(zeal::get_kernel_id("lib_a_kernel"));
  for (const zeal::device &d : devices) {
    SCOPED_TRACE(d.name());
    zeal::queue q(ctx, d, true);
    float *data = zeal::malloc_shared<float>(64, q);
    for (int i = 0; i < 64; ++i) data[i] = float(i);
    q.parallel_for(zeal::range<1>{64}, plus_one, data);
    q.parallel_for(zeal::range<1>{64}, twice, data);
    q.wait();
    for (int i = 0; i < 64; ++i) ASSERT_EQ(2.0f * (float(i) + 1.0f), data[i]) << i;
    zeal::free(data, q);
  }
}

// Eight threads ask for the same multi-device bundle and launch its kernel on every device at once.
TEST_F(MultiDevice, ThreadsBuildingOneBundleForSeveralDevicesAllGetAWorkingKernel) {
  zeal::context ctx(devices);
  const zeal::kernel_id id = zeal::get_kernel_id("app_add_via_lib");
  constexpr size_t n = 512;
  constexpr int threads = 8;
  std::vector<std::string> failures(threads);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      try {
        auto bundle = zeal::get_kernel_bundle<zeal::bundle_state::executable>(ctx, devices, {id});
        zeal::kernel k = bundle.get_kernel(id);
        zeal::queue q(ctx, devices[size_t(t) % devices.size()]);
        float *a = zeal::malloc_shared<float>(n, q), *b = zeal::malloc_shared<float>(n, q);
        float *c = zeal::malloc_shared<float>(n, q);
        for (size_t i = 0; i < n; ++i) {
          a[i] = float(t);
          b[i] = float(i);
        }
        q.parallel_for(zeal::range<1>{n}, k, a, b, c).wait();
        for (size_t i = 0; i < n && failures[t].empty(); ++i)
          if (c[i] != float(t) + float(i)) failures[t] = "wrong sum at " + std::to_string(i);
        zeal::free(a, q);
        zeal::free(b, q);
        zeal::free(c, q);
      } catch (const zeal::exception &e) {
        failures[t] = e.what();
      }
    });
  for (std::thread &w : workers) w.join();
  for (int t = 0; t < threads; ++t) EXPECT_EQ("", failures[t]) << "thread " << t;
}

TEST_F(MultiDevice, ABundleForOneDeviceRefusesToLaunchOnAnotherWithASentence) {
  zeal::context ctx(devices);
  const zeal::kernel_id id = zeal::get_kernel_id("vector_add");
  auto only_first = zeal::get_kernel_bundle<zeal::bundle_state::executable>(ctx, {devices.front()}, {id});
  zeal::kernel k = only_first.get_kernel(id);
  zeal::queue other(ctx, devices.back());
  float *data = zeal::malloc_shared<float>(16, other);
  try {
    other.parallel_for(zeal::range<1>{16}, k, data, data, data);
    FAIL() << "a kernel built for one device launched on another";
  } catch (const zeal::exception &e) {
    EXPECT_EQ(zeal::errc::invalid, e.code());
    const std::string what = e.what();
    EXPECT_NE(std::string::npos, what.find("kernel 'vector_add' was not built for device '" + devices.back().name()))
        << what;
    EXPECT_NE(std::string::npos, what.find(devices.front().name())) << what;
  }
  zeal::free(data, other);
}

TEST_F(MultiDevice, DevicesOutsideTheContextAreRefusedWithASentence) {
  zeal::context first_only(devices.front());
  const std::string outsider = devices.back().name();
  auto expect_invalid = [&](auto &&call, const std::string &use) {
    try {
      call();
      ADD_FAILURE() << use << " accepted a device outside its context";
    } catch (const zeal::exception &e) {
      EXPECT_EQ(zeal::errc::invalid, e.code()) << use;
      const std::string what = e.what();
      EXPECT_NE(std::string::npos, what.find("device '" + outsider + "' is not a device of the context given for " + use))
          << what;
    }
  };
  expect_invalid([&] { zeal::queue q(first_only, devices.back()); }, "the queue");
  expect_invalid([&] { (void)zeal::get_kernel_bundle<zeal::bundle_state::input>(first_only, devices); },
                 "the kernel bundle");
  expect_invalid([&] { (void)zeal::has_kernel_bundle<zeal::bundle_state::executable>(first_only, {devices.back()}); },
                 "the kernel bundle");
  try {
    zeal::context none(std::vector<zeal::device>{});
    ADD_FAILURE() << "a context without devices";
  } catch (const zeal::exception &e) {
    EXPECT_EQ(zeal::errc::invalid, e.code());
  }
  try {
    (void)zeal::get_kernel_bundle<zeal::bundle_state::input>(first_only, std::vector<zeal::device>{});
    ADD_FAILURE() << "a bundle without devices";
  } catch (const zeal::exception &e) {
    EXPECT_EQ(zeal::errc::invalid, e.code());
  }
}

// ctest's two-driver case (ZEAL_CPU_DRIVERS=2) gives the backend two platforms; the others one.
TEST_F(MultiDevice, AContextRefusesDevicesOfTwoPlatforms) {
  const char *expected = std::getenv("ZEAL_TEST_PLATFORMS");
  std::vector<zeal::device> others;
  for (const zeal::device &d : zeal::device::get_devices())
    if (!(d.get_platform() == devices.front().get_platform())) others.push_back(d);
  ASSERT_EQ(expected != nullptr ? std::string(expected) : "1", others.empty() ? "1" : "2");
  if (others.empty()) return;
  try {
    zeal::context mixed(std::vector<zeal::device>{devices.front(), others.front()});
    FAIL() << "a context over two platforms";
  } catch (const zeal::exception &e) {
    EXPECT_EQ(zeal::errc::invalid, e.code());
    const std::string what = e.what();
    EXPECT_NE(std::string::npos, what.find("belong to different platforms")) << what;
    EXPECT_NE(std::string::npos, what.find(others.front().name())) << what;
  }
}

TEST_F(MultiDevice, LinkRefusesObjectBundlesOfDifferentDevices) {
  zeal::context ctx(devices);
  auto app = zeal::compile(zeal::get_kernel_bundle<zeal::bundle_state::input>(
      ctx, {devices.front()}, {zeal::get_kernel_id("app_twice_via_lib")}));
  auto lib = zeal::compile(
      zeal::get_kernel_bundle<zeal::bundle_state::input>(ctx, devices, {zeal::get_kernel_id("lib_a_kernel")}));
  try {
    (void)zeal::link({app, lib});
    FAIL() << "linked object bundles of different devices";
  } catch (const zeal::exception &e) {
    EXPECT_EQ(zeal::errc::invalid, e.code());
    EXPECT_NE(std::string::npos, std::string(e.what()).find("link needs object bundles of the same devices"))
        << e.what();
  }
}

TEST_F(MultiDevice, AKernelOfAnotherContextIsRefusedWithASentence) {
  zeal::context mine(devices), theirs(devices);
  const zeal::kernel_id id = zeal::get_kernel_id("vector_add");
  zeal::kernel k = zeal::get_kernel_bundle<zeal::bundle_state::executable>(theirs, devices, {id}).get_kernel(id);
  zeal::queue q(mine, devices.front());
  float *data = zeal::malloc_shared<float>(16, q);
  try {
    q.parallel_for(zeal::range<1>{16}, k, data, data, data);
    FAIL() << "a kernel of another context launched";
  } catch (const zeal::exception &e) {
    EXPECT_EQ(zeal::errc::invalid, e.code());
    EXPECT_NE(std::string::npos, std::string(e.what()).find("kernel 'vector_add' was built in another context"))
        << e.what();
  }
  zeal::free(data, q);
}

} // namespace
