// Launches through the C++ API, the loader, the adapter and the CPU driver.
#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace {

TEST(Launch, VectorAddIsCorrectForEveryElement) {
  zeal::queue q;
  constexpr size_t n = 100'000; // not a multiple of 256: the adapter picks the local size
  float *a = zeal::malloc_shared<float>(n, q);
  float *b = zeal::malloc_shared<float>(n, q);
  float *c = zeal::malloc_shared<float>(n, q);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i) * 0.5f;
    b[i] = static_cast<float>(n - i);
    c[i] = -1.0f;
  }
  q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("vector_add"), a, b, c).wait();
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << "at " << i;
  zeal::free(a, q);
  zeal::free(b, q);
  zeal::free(c, q);
}

TEST(Launch, ScalarArgumentsArePassedByValue) {
  zeal::queue q;
  constexpr size_t n = 4096;
  int *data = zeal::malloc_device<int>(n, q);
  std::vector<int> host(n);
  for (size_t i = 0; i < n; ++i) host[i] = static_cast<int>(i);
  q.memcpy(data, host.data(), n * sizeof(int)).wait();
  q.parallel_for(zeal::nd_range<1>{{n}, {64}}, zeal::get_kernel_id("scale"), data, 3).wait();
  q.memcpy(host.data(), data, n * sizeof(int)).wait();
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(host[i], 3 * static_cast<int>(i)) << "at " << i;
  zeal::free(data, q);
}

TEST(Launch, KernelIdsListTheRegisteredKernels) {
  auto ids = zeal::get_kernel_ids();
  std::vector<std::string> names;
  for (const auto &id : ids) names.emplace_back(id.get_name());
  EXPECT_NE(std::find(names.begin(), names.end(), "vector_add"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "scale"), names.end());
}

TEST(Launch, GivenAnUnknownKernelName_ThenTheErrorNamesIt) {
  try {
    (void)zeal::get_kernel_id("no_such_kernel");
    FAIL() << "expected zeal::exception";
  } catch (const zeal::exception &e) {
    EXPECT_EQ(e.code(), zeal::errc::invalid);
    EXPECT_NE(std::string(e.what()).find("'no_such_kernel'"), std::string::npos) << e.what();
  }
}

TEST(Launch, SeveralThreadsLaunchTheSameKernelWithTheirOwnArguments) {
  zeal::queue q;
  constexpr size_t n = 2048;
  constexpr int threads = 4;
  std::vector<int *> data(threads);
  for (int t = 0; t < threads; ++t) {
    data[t] = zeal::malloc_shared<int>(n, q);
    for (size_t i = 0; i < n; ++i) data[t][i] = 1;
  }
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      for (int round = 0; round < 5; ++round)
        q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("scale"), data[t], t + 2).wait();
    });
  for (auto &w : workers) w.join();
  for (int t = 0; t < threads; ++t) {
    int expected = 1;
    for (int round = 0; round < 5; ++round) expected *= t + 2;
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(data[t][i], expected) << "thread " << t << " at " << i;
    zeal::free(data[t], q);
  }
}

} // namespace
