// The stress program's kernel: every thread launches it with arguments of its own.
kernel void affine(global const int *in, global int *out, int a, int b) {
  size_t i = get_global_id(0);
  out[i] = in[i] * a + b;
}
