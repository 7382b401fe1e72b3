// Host side of the versioned library: its images (version_lib.cl, built with the same VERSION) register when it loads.
#include "version_lib.hpp"

#include <zeal/zeal.hpp>

extern "C" {

__attribute__((visibility("default"))) int version_host() { return VERSION; }

__attribute__((visibility("default"))) int version_run(zeal::queue *q, int *out, size_t n) {
  try {
    q->parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("version_fill"), out).wait();
    return 0;
  } catch (const zeal::exception &) {
    return 1;
  }
}
}
