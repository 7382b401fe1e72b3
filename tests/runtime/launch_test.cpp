// Launches through the C++ API, the loader, the adapter and the CPU driver.
#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <algorithm>
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

// An image and a sampler made through the C++ API pass to a kernel like any argument: a 4x2 RGBA float image
// sampled half a pixel to the right, linearly and clamped to the edge, blends each pixel with its right neighbour.
TEST(Launch, ImagesAndSamplersPassToKernelsAsArguments) {
  zeal::queue q;
  if (!q.get_device().image_support()) GTEST_SKIP() << q.get_device().name() << " has no image support";
  constexpr size_t w = 4, h = 2;
  const zeal_image_desc_t desc{ZEAL_IMAGE_TYPE_2D, ZEAL_IMAGE_CHANNEL_ORDER_RGBA, ZEAL_IMAGE_CHANNEL_TYPE_FLOAT, w, h,
                               1, 0};
  zeal::image src(q.get_context(), desc), dst(q.get_context(), desc);
  zeal::sampler linear(q.get_context(), {0, ZEAL_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE, ZEAL_SAMPLER_FILTER_MODE_LINEAR});
  std::vector<float> pixels(w * h * 4);
  for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<float>(i);
  q.copy_to_image(src, pixels.data()).wait();
  q.parallel_for(zeal::range<2>{w, h}, zeal::get_kernel_id("sample_shifted"), src, linear, dst, 0.5f).wait();
  std::vector<float> sampled(pixels.size(), -1.0f);
  q.copy_from_image(sampled.data(), dst).wait();
  for (size_t y = 0; y < h; ++y) {
    for (size_t x = 0; x < w; ++x) {
      const size_t right = std::min(x + 1, w - 1); // the edge pixel repeats
      for (size_t c = 0; c < 4; ++c) {
        const float want = 0.5f * (pixels[(y * w + x) * 4 + c] + pixels[(y * w + right) * 4 + c]);
        ASSERT_EQ(want, sampled[(y * w + x) * 4 + c]) << x << "," << y << " channel " << c;
      }
    }
  }
}

// An unsupported format is refused through the C++ API with the C ABI's code and sentence.
TEST(Launch, AnImageOfAFormatOpenClDoesNotHaveIsRefused) {
  zeal::queue q;
  if (!q.get_device().image_support()) GTEST_SKIP() << q.get_device().name() << " has no image support";
  const zeal_image_desc_t bgra_float{ZEAL_IMAGE_TYPE_2D, ZEAL_IMAGE_CHANNEL_ORDER_BGRA, ZEAL_IMAGE_CHANNEL_TYPE_FLOAT,
                                     4, 4, 1, 0};
  try {
    zeal::image refused(q.get_context(), bgra_float);
    FAIL() << "expected zeal::exception";
  } catch (const zeal::exception &e) {
    EXPECT_EQ(ZEAL_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT, e.result()) << e.what();
    EXPECT_NE(std::string(e.what()).find("BGRA"), std::string::npos) << e.what();
  }
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
