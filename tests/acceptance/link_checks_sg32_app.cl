// A kernel of sub-group size 32 calling the library's plain_helper, which declares no size and so is
// compiled for the device's primary size (16 on Intel GPUs and the CPU driver, 32 on NVIDIA GPUs); the
// application declares nothing of plain_helper.
extern int plain_helper(int x);

__attribute__((intel_reqd_sub_group_size(32))) kernel void calls_plain_helper_sg32(global int *out) {
  out[get_global_id(0)] = plain_helper((int)get_global_id(0));
}
