// Sub-groups of 16 and 8 (intel_reqd_sub_group_size) as segments of a warp, beside one of 32, for the NVPTX back
// end's tests: each kernel writes what every sub-group built-in answers, 20 words per work-item.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

// Not inlined by the front end, and reached from kernels of sizes 16 and 32: it reads the size the entry stored.
__attribute__((noinline)) int shared_helper(int x) {
  return sub_group_reduce_add(x) + 1000 * sub_group_scan_inclusive_add(x);
}

// Shuffles read lanes the sub-group has: rotations, xor 1 (every size is even), and down or up by one where the
// neighbour exists.
#define ANSWER(in, out)                                                                                               \
  size_t i = get_global_id(0);                                                                                        \
  int x = in[i];                                                                                                      \
  global int *o = out + get_global_linear_id() * 21;                                                                  \
  uint lane = get_sub_group_local_id(), size = get_sub_group_size();                                                  \
  o[0] = size;                                                                                                        \
  o[1] = get_max_sub_group_size();                                                                                    \
  o[2] = get_num_sub_groups();                                                                                        \
  o[3] = get_sub_group_id();                                                                                          \
  o[4] = lane;                                                                                                        \
  o[5] = sub_group_shuffle(x, (lane + 1) % size);                                                                     \
  o[6] = sub_group_shuffle_xor(x, 1);                                                                                 \
  int down = sub_group_shuffle_down(x, 1), up = sub_group_shuffle_up(x, 1);                                           \
  o[7] = lane + 1 < size ? down : -1;                                                                                 \
  o[8] = lane > 0 ? up : -1;                                                                                          \
  o[9] = sub_group_broadcast(x, 0);                                                                                   \
  o[10] = sub_group_reduce_add(x);                                                                                    \
  o[11] = sub_group_scan_inclusive_add(x);                                                                            \
  o[12] = sub_group_scan_exclusive_max(x);                                                                            \
  o[13] = sub_group_ballot(x % 3 == 0).x;                                                                             \
  o[14] = sub_group_reduce_max(x);                                                                                    \
  o[15] = sub_group_any(x == 7) + 2 * sub_group_all(x > 0);                                                           \
  o[16] = sub_group_elect();                                                                                          \
  o[17] = intel_sub_group_block_read((global const uint *)in + get_sub_group_id() * get_max_sub_group_size());        \
  o[18] = (x & 1) ? sub_group_non_uniform_reduce_add(x) : -1;                                                         \
  o[19] = shared_helper(x);                                                                                           \
  o[20] = sub_group_clustered_reduce_add(x, 4);

__attribute__((intel_reqd_sub_group_size(16))) kernel void segments16(global const int *in, global int *out) {
  ANSWER(in, out)
}

__attribute__((intel_reqd_sub_group_size(8))) kernel void segments8(global const int *in, global int *out) {
  ANSWER(in, out)
}

kernel void segments32(global const int *in, global int *out) { ANSWER(in, out) }

// The benchmark's reduction (bench/cuda/kernels/subgroup_sum.cl): a full sub-group's path has butterflies only.
__attribute__((intel_reqd_sub_group_size(16))) kernel void sum16(global const float *in, global float *out) {
  float sum = sub_group_reduce_add(in[get_global_id(0)]);
  if (get_sub_group_local_id() == 0) out[get_global_id(0) / 16] = sum;
}
