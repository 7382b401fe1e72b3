// Host side of the function-pointer library: its images (fp_lib.cl) register when it loads.
#include "fp_lib.hpp"

void fp_lib_apply(zeal::queue &q, zeal::device_function_ptr fn, int *data, size_t n) {
  q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("fp_lib_apply"), data, fn).wait();
}

zeal::device_function_ptr fp_lib_function(const zeal::queue &q) {
  return zeal::get_device_function_pointer(q, "fp_lib_triple_plus_seven");
}
