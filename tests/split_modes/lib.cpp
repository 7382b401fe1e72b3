// Host side of libsplit_lib: its images (lib_functions.cl, lib_kernels.cl) register when it loads.
#include "lib.hpp"

extern "C" const char *split_lib_b_build();

const char *split_lib_build() { return SPLIT_LIB_BUILD; }
const char *split_lib_b_build_seen_by_lib() { return split_lib_b_build(); }

void split_lib_run_apply(zeal::queue &q, zeal::device_function_ptr fn, const float *a, const float *b, float *c,
                         size_t n) {
  q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("split_lib_apply"), a, b, c, fn).wait();
}

zeal::device_function_ptr split_lib_cube_address(const zeal::queue &q) {
  return zeal::get_device_function_pointer(q, "split_lib_cube");
}

zeal::kernel_bundle<zeal::bundle_state::object> split_lib_bundle(const zeal::context &ctx) {
  return zeal::get_kernel_bundle<zeal::bundle_state::object>(
      ctx, {ctx.get_device()}, {zeal::get_kernel_id("split_lib_kernel"), zeal::get_kernel_id("split_lib_apply")});
}
