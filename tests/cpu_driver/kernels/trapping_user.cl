// Kernels importing trapping_library.cl's exports: one reaches warm_up through a helper, one calls relay,
// one calls add_two only.
float warm_up(global const float4 *p);
float relay(global const float4 *p);
int add_two(int x);
__attribute__((noinline)) float through_helper(global const float4 *p) { return warm_up(p) + 1.0f; }
kernel void uses_warm_up(global float *out, global const float4 *in) { out[get_global_id(0)] = through_helper(in); }
kernel void uses_relay(global float *out, global const float4 *in) { out[get_global_id(0)] = relay(in); }
kernel void uses_add_two(global int *out) {
  int i = (int)get_global_id(0);
  out[i] = add_two(i);
}
