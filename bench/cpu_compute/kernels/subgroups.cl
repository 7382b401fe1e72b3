// The kernels bench_cpu_compute_subgroups runs on zeal's CPU driver: sub-group vs local-memory reduction, shuffles.
#include "tree_reduce.h"

// Work-group sum: a sub-group reduction, then the sub-group sums combined through a little local memory.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void reduce_subgroup(global const int *in, global int *out) {
  local int sums[64];
  int s = sub_group_reduce_add(in[get_global_id(0)]);
  if (get_sub_group_local_id() == 0) sums[get_sub_group_id()] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    int total = 0;
    for (uint i = 0; i < get_num_sub_groups(); ++i) total += sums[i];
    out[get_group_id(0)] = total;
  }
}

// The same sum as a tree in local memory with a barrier per level.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void reduce_local(global const int *in, global int *out, local int *scratch) { tree_reduce(in, out, scratch); }

// `steps` butterfly steps over the 16 lanes (xor masks 1, 2, 4, 8, 1, ...), mixing so every step matters.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void shuffle_butterfly(global const uint *in, global uint *out, uint steps) {
  uint x = in[get_global_id(0)];
  for (uint k = 0; k < steps; ++k) x = x * 3u + intel_sub_group_shuffle_xor(x, 1u << (k % 4u));
  out[get_global_id(0)] = x;
}

// STREAM triad, the bandwidth the sub-group kernels are measured against in the same run.
kernel void triad(global float *a, global const float *b, global const float *c, float scalar) {
  size_t i = get_global_id(0);
  a[i] = b[i] + scalar * c[i];
}

// A copy by sub-group block reads and writes: each sub-group moves 16 consecutive uints.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void block_copy(global const uint *in, global uint *out) {
  size_t base = get_group_id(0) * get_local_size(0) + get_sub_group_id() * get_max_sub_group_size();
  intel_sub_group_block_write(out + base, intel_sub_group_block_read(in + base));
}
