// The work-group sum both compute benchmarks time (compute.cl on zeal and PoCL, subgroups.cl against a sub-group
// reduction): a tree in local memory with a barrier per level, one partial sum per work-group.
#ifndef ZEAL_BENCH_TREE_REDUCE_H
#define ZEAL_BENCH_TREE_REDUCE_H

static inline void tree_reduce(global const int *in, global int *out, local int *scratch) {
  size_t l = get_local_id(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
    if (l < stride) scratch[l] += scratch[l + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = scratch[0];
}

#endif
