// A kernel requiring sub-group size 16, which the NVPTX back end refuses (a warp is 32 lanes).
__attribute__((intel_reqd_sub_group_size(16))) kernel void needs_sixteen(global int *out) {
  out[get_global_id(0)] = sub_group_reduce_add(1);
}
