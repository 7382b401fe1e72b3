// A kernel requiring sub-group size SIZE (-DSIZE=S), built once per size the profiles know.
__attribute__((intel_reqd_sub_group_size(SIZE))) kernel void reqd_subgroup(global int *out) {
  out[get_global_id(0)] = SIZE;
}
