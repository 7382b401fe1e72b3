// A kernel-scope local variable (read at another work-item's slot, so it cannot be optimised away).
kernel void local_variable(global const int *in, global int *out) {
  local int shared[64];
  shared[get_local_id(0)] = in[get_global_id(0)];
  out[get_global_id(0)] = shared[63 - get_local_id(0)];
}
