// One run of a kernel that sums two float arrays through zeal's SYCL-like runtime, for the runtime tests.
#pragma once

#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <cstddef>

namespace zeal_test {

// Runs the kernel `kernel_id` (arguments a, b, c) on `q` over n items with a[i] = i and b[i] = `b_value`, and checks
// c[i] == a[i] + b_value: vector_add, and kernels that reach the same sum through library functions.
inline void expect_float_sum(zeal::queue &q, const char *kernel_id, size_t n, float b_value) {
  float *a = zeal::malloc_shared<float>(n, q), *b = zeal::malloc_shared<float>(n, q);
  float *c = zeal::malloc_shared<float>(n, q);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = b_value;
  }
  q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id(kernel_id), a, b, c).wait();
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b_value) << i;
  zeal::free(a, q);
  zeal::free(b, q);
  zeal::free(c, q);
}

} // namespace zeal_test
