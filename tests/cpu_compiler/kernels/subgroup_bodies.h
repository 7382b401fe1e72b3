// The bodies of subgroups.cl's ids_* and ops_* kernels, shared with primary_size.cl.

#define IDS_BODY                                                                                    \
  size_t i = get_local_linear_id() * 7;                                                             \
  out[i + 0] = get_sub_group_size();                                                                \
  out[i + 1] = get_max_sub_group_size();                                                            \
  out[i + 2] = get_num_sub_groups();                                                                \
  out[i + 3] = get_enqueued_num_sub_groups();                                                       \
  out[i + 4] = get_sub_group_id();                                                                  \
  out[i + 5] = get_sub_group_local_id();                                                            \
  out[i + 6] = sub_group_elect();

// Every collective the tests check; K results per work-item.
#define OPS_BODY                                                                                    \
  uint l = get_local_linear_id(), lane = get_sub_group_local_id(), n = get_sub_group_size();         \
  int x = in[l];                                                                                    \
  global int *o = out + l * 20;                                                                     \
  o[0] = intel_sub_group_shuffle(x, (lane * 3 + 1) % n);                                            \
  o[1] = intel_sub_group_shuffle_xor(x, 1u);                                                        \
  o[2] = intel_sub_group_shuffle_down(x, x + 1000, 1u);                                             \
  o[3] = intel_sub_group_shuffle_up(x - 1000, x, 2u);                                               \
  o[4] = sub_group_reduce_add(x);                                                                   \
  o[5] = sub_group_scan_inclusive_add(x);                                                           \
  o[6] = sub_group_scan_exclusive_max(x);                                                           \
  o[7] = sub_group_reduce_min(x);                                                                   \
  o[8] = sub_group_broadcast(x, n > 1 ? 1u : 0u);                                                   \
  o[9] = sub_group_all(x > 0);                                                                      \
  o[10] = sub_group_any(x > 50);                                                                    \
  o[11] = sub_group_ballot_bit_count(sub_group_ballot(x & 1));                                      \
  o[12] = get_sub_group_id() == 0 ? sub_group_reduce_add(x) : sub_group_scan_exclusive_add(x);      \
  o[13] = (lane % 2 == 0) ? sub_group_non_uniform_reduce_add(x) : sub_group_non_uniform_reduce_max(x); \
  o[14] = sub_group_non_uniform_reduce_xor(x);                                                      \
  o[15] = sub_group_non_uniform_scan_inclusive_or(x);                                               \
  o[16] = lane >= 2 ? sub_group_broadcast_first(x) : -7;                                            \
  o[17] = sub_group_shuffle(x, 0u);                                                                 \
  int acc = 0;                                                                                      \
  for (uint k = 0; k < lane % 3; ++k) acc += sub_group_non_uniform_reduce_add(1);                   \
  o[18] = acc;                                                                                      \
  o[19] = sub_group_non_uniform_reduce_logical_and(x % 5);

#define SIZED(S)                                                                                    \
  __attribute__((intel_reqd_sub_group_size(S))) kernel void ids_##S(global uint *out) { IDS_BODY }  \
  __attribute__((intel_reqd_sub_group_size(S))) kernel void ops_##S(global const int *in, global int *out) { OPS_BODY }
