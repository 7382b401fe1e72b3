// Each work-item writes the sum of its sub-group's global ids and the sub-group size it ran with.
#define REDUCE(name)                                                                               \
  kernel void name(global uint *sums, global uint *sizes) {                                        \
    uint i = (uint)get_global_id(0);                                                               \
    sums[i] = sub_group_reduce_add(i);                                                             \
    sizes[i] = get_max_sub_group_size();                                                           \
  }

REDUCE(reduce_any)                                                        // the device chooses
__attribute__((intel_reqd_sub_group_size(8))) REDUCE(reduce_8)
__attribute__((intel_reqd_sub_group_size(16))) REDUCE(reduce_16)
__attribute__((intel_reqd_sub_group_size(32))) REDUCE(reduce_32)
__attribute__((intel_reqd_sub_group_size(64))) REDUCE(reduce_64)
