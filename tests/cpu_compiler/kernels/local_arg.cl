// A local-memory argument: each work-item fills its slot of the group's buffer.
kernel void local_arg(global const int *in, local int *scratch, global int *out) {
  size_t l = get_local_id(0);
  scratch[l] = in[get_global_id(0)] * 2 + (int)get_group_id(0);
  out[get_global_id(0)] = scratch[l] + 1;
}
