// Sub-group ids and two collectives; built once per size with -DSIZE=S (required size S) and once without (primary size).
#ifdef SIZE
#define REQD __attribute__((intel_reqd_sub_group_size(SIZE)))
#else
#define REQD
#endif

// Six values per work-item, at its local linear id.
REQD kernel void sg_ids(global uint *out) {
  global uint *o = out + get_local_linear_id() * 6;
  o[0] = get_sub_group_size();
  o[1] = get_max_sub_group_size();
  o[2] = get_num_sub_groups();
  o[3] = get_sub_group_id();
  o[4] = get_sub_group_local_id();
  o[5] = sub_group_elect();
}

REQD kernel void sg_reduce_add(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  out[i] = sub_group_reduce_add(in[i]);
}

// Each lane takes the value `delta` lanes down, from `next` past the end of the sub-group.
REQD kernel void sg_shuffle_down(global const int *in, global int *out, uint delta) {
  size_t i = get_global_id(0);
  out[i] = intel_sub_group_shuffle_down(in[i], in[i] + 1000, delta);
}
