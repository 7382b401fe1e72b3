// A kernel of sub-group size 16 calling the library's plain_helper, which declares no size and so is compiled for
// the device's primary size: it runs where that is 16 (Intel GPUs, the CPU driver's profiles) and fails to link
// where it is 32 (NVIDIA GPUs), as link_checks_sg32_app.cl does the other way round. An image of its own, so that
// its link failure leaves the other kernels alone.
extern int plain_helper(int x);

__attribute__((intel_reqd_sub_group_size(16))) kernel void calls_plain_helper_sg16(global int *out) {
  out[get_global_id(0)] = plain_helper((int)get_global_id(0));
}
