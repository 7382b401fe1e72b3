// Kernels of the runtime tests.
kernel void vector_add(global const float *a, global const float *b, global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

kernel void scale(global int *data, int factor) {
  size_t i = get_global_id(0);
  data[i] *= factor;
}
