// A shared library with device code and a host API that launches it, loaded with dlopen by the tests.
#include <zeal/zeal.hpp>

extern "C" __attribute__((visibility("default"))) int plugin_fill_with(int *data, int n, int value) {
  try {
    zeal::queue q;
    q.parallel_for(zeal::range<1>{static_cast<size_t>(n)}, zeal::get_kernel_id("plugin_fill"), data, value).wait();
    return 0;
  } catch (const zeal::exception &) {
    return 1;
  }
}
