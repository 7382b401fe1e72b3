// The dlopen'ed library's kernel and the device function it calls.
float plugin_square(float x) { return x * x; }

kernel void plugin_squares(global const float *in, global float *out) {
  size_t i = get_global_id(0);
  out[i] = plugin_square(in[i]);
}
