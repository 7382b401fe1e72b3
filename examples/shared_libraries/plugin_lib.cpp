// Host side of the dlopen'ed library: launches its own kernel on the caller's queue.
#include <zeal/zeal.hpp>

#include <cstdio>

// out[i] = in[i]^2 for n elements; returns 0, or 1 with the error printed.
extern "C" __attribute__((visibility("default"))) int plugin_squares(zeal::queue *q, const float *in, float *out,
                                                                      size_t n) {
  try {
    q->parallel_for(zeal::nd_range<1>{{n}, {64}}, zeal::get_kernel_id("plugin_squares"), in, out).wait();
    return 0;
  } catch (const zeal::exception &e) {
    std::fprintf(stderr, "plugin_squares: error (%s): %s\n", zeal::errc_name(e.code()), e.what());
    return 1;
  }
}
