// Reverses each work-group's slice through local memory: needs a barrier.
kernel void reverse_in_group(global const int *in, global int *out, local int *tmp) {
  size_t l = get_local_id(0), n = get_local_size(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[n - 1 - l];
}
