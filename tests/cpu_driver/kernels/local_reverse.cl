// Reverses each work-group's slice of data through a local-memory argument and a barrier.
kernel void local_reverse(global int *data, local int *scratch) {
  size_t lid = get_local_id(0);
  size_t n = get_local_size(0);
  scratch[lid] = data[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  data[get_global_id(0)] = scratch[n - 1 - lid];
}
