// Kernels importing trapping_middle.cl's exports, linked after that library was linked with trapping_library.cl.
float doubled_relay(global const float4 *p);
int add_four(int x);
kernel void uses_doubled_relay(global float *out, global const float4 *in) {
  out[get_global_id(0)] = doubled_relay(in);
}
kernel void uses_add_four(global int *out) {
  int i = (int)get_global_id(0);
  out[i] = add_four(i);
}
