// Host side of libsplit_plugin, loaded with dlopen only: host functions launching its kernels.
#include <zeal/zeal.hpp>

namespace {

int run(zeal::queue *q, const char *kernel, const float *a, const float *b, float *c, size_t n) {
  try {
    q->parallel_for(zeal::range<1>{n}, zeal::get_kernel_id(kernel), a, b, c).wait();
    return 0;
  } catch (const zeal::exception &) {
    return 1;
  }
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) const char *split_plugin_build() { return SPLIT_LIB_BUILD; }

// c[i] = 5 a[i] + b[i]; 0 on success.
__attribute__((visibility("default"))) int split_plugin_weighted_add(zeal::queue *q, const float *a, const float *b,
                                                                     float *c, size_t n) {
  return run(q, "split_plugin_weighted_add", a, b, c, n);
}

// c[i] = a[i] - 7 - b[i]; 0 on success.
__attribute__((visibility("default"))) int split_plugin_biased_sub(zeal::queue *q, const float *a, const float *b,
                                                                   float *c, size_t n) {
  return run(q, "split_plugin_biased_sub", a, b, c, n);
}
}
