// vector_add: adds two vectors of 1,048,576 floats on the default device and checks every element.
#include <zeal/zeal.hpp>

#include <cstdio>

int main() {
  constexpr size_t n = 1 << 20;
  try {
    zeal::queue q;
    std::printf("device: %s\n", q.get_device().name().c_str());

    float *a = zeal::malloc_shared<float>(n, q);
    float *b = zeal::malloc_shared<float>(n, q);
    float *c = zeal::malloc_shared<float>(n, q);
    for (size_t i = 0; i < n; ++i) {
      a[i] = static_cast<float>(i);
      b[i] = 2.0f * static_cast<float>(i) + 1.0f;
      c[i] = -1.0f;
    }

    q.parallel_for(zeal::nd_range<1>{{n}, {256}}, zeal::get_kernel_id("vector_add"), a, b, c).wait();

    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i) {
      float expected = 3.0f * static_cast<float>(i) + 1.0f;
      if (c[i] != expected && wrong++ < 5)
        std::fprintf(stderr, "c[%zu] = %g, expected %g\n", i, static_cast<double>(c[i]),
                     static_cast<double>(expected));
    }
    zeal::free(a, q);
    zeal::free(b, q);
    zeal::free(c, q);
    if (wrong != 0) {
      std::fprintf(stderr, "vector_add: FAILED (%zu of %zu elements wrong)\n", wrong, n);
      return 1;
    }
    std::printf("vector_add: OK (%zu elements verified)\n", n);
    return 0;
  } catch (const zeal::exception &e) {
    std::fprintf(stderr, "vector_add: error (%s): %s\n", zeal::errc_name(e.code()), e.what());
    return 1;
  }
}
