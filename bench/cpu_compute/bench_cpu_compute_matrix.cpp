// One bf16 matrix product (float accumulation) on zeal's CPU driver through the sub-group matrix product of
// cl_intel_subgroup_matrix_multiply_accumulate (kernels/matrix.cl), paired in each round with the same product in
// plain C++ on the host, as many threads as the driver's work-groups get. Results are checked bit for bit (both
// sum the exact products in k order). Prints medians of 7 rounds and the median of the paired ratios.
#include "ze_session.hpp"

#include <fmt/format.h>

#include <bit>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
constexpr int size = 512, rounds = 7;

using bench::fail;
using bench::median;

float from_bf16(uint16_t bits) { return std::bit_cast<float>(uint32_t(bits) << 16); }

// C = A x B on the host: rows split over `threads`, k ascending for every element (i-k-j order).
void host_product(const std::vector<uint16_t> &a, const std::vector<uint16_t> &b, std::vector<float> &c, unsigned threads) {
  std::vector<float> af(a.size()), bf(b.size());
  for (size_t i = 0; i < a.size(); ++i) af[i] = from_bf16(a[i]);
  for (size_t i = 0; i < b.size(); ++i) bf[i] = from_bf16(b[i]);
  std::fill(c.begin(), c.end(), 0.0f);
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      for (int i = int(t); i < size; i += int(threads)) {
        float *row = &c[size_t(i) * size];
        for (int k = 0; k < size; ++k) {
          const float x = af[size_t(i) * size + k];
          const float *brow = &bf[size_t(k) * size];
          for (int j = 0; j < size; ++j) row[j] += x * brow[j];
        }
      }
    });
  }
  for (std::thread &w : workers) w.join();
}

} // namespace

int main() try {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> small(-64, 64);
  std::vector<uint16_t> a(size_t(size) * size), b(size_t(size) * size);
  for (auto *m : {&a, &b})
    for (uint16_t &v : *m) v = uint16_t(std::bit_cast<uint32_t>(float(small(rng)) / 16.0f) >> 16); // exact in bf16

  bench::ZeSession session(ZEAL_BENCH_SPIRV);
  auto *da = session.alloc<uint16_t>(a.size());
  auto *db = session.alloc<uint32_t>(b.size() / 2);
  auto *dc = session.alloc<float>(size_t(size) * size);
  std::memcpy(da, a.data(), a.size() * 2);
  for (int k = 0; k < size; k += 2) // VNNI: rows k and k+1 of a column in one word
    for (int n = 0; n < size; ++n) db[size_t(k / 2) * size + n] = uint32_t(b[size_t(k) * size + n]) | uint32_t(b[size_t(k + 1) * size + n]) << 16;
  const int n = size, k = size;
  ze_kernel_handle_t kernel = session.kernel("bf16_matmul", 16, {{8, &da}, {8, &db}, {8, &dc}, {4, &n}, {4, &k}});
  ze_group_count_t groups{size / 16, size / 8, 1};

  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<float> host(size_t(size) * size);
  std::vector<double> driver_s, host_s, ratios;
  for (int r = 0; r < rounds; ++r) {
    std::memset(dc, 0xff, size_t(size) * size * 4);
    const double d = session.launch_groups(kernel, groups);
    auto start = Clock::now();
    host_product(a, b, host, threads);
    const double h = std::chrono::duration<double>(Clock::now() - start).count();
    if (std::memcmp(host.data(), dc, host.size() * 4) != 0) fail("the driver's product differs from the host's");
    driver_s.push_back(d);
    host_s.push_back(h);
    ratios.push_back(d / h);
  }
  const double flops = 2.0 * size * size * size;
  std::printf("bf16 matrix product %dx%dx%d, float accumulation, results identical to the host's\n", size, size, size);
  std::printf("  zeal CPU driver (intel_sub_group_bf16_bf16_matrix_mad_k16): %8.2f ms  %6.2f GFLOP/s\n",
              median(driver_s) * 1e3, flops / median(driver_s) * 1e-9);
  std::printf("  plain C++ on the host (%u threads):                         %8.2f ms  %6.2f GFLOP/s\n", threads,
              median(host_s) * 1e3, flops / median(host_s) * 1e-9);
  std::printf("  paired ratio driver / host (median of %d): %.2f\n", rounds, median(ratios));
  return 0;
} catch (const std::exception &e) {
  std::fprintf(stderr, "bench_cpu_compute_matrix: %s\n", e.what());
  return 1;
}
