// Memory-bound kernels and an empty one, for the CUDA driver's figures against CUDA's own launches.
kernel void triad(global float *a, global const float *b, global const float *c, float s) {
  size_t i = get_global_id(0);
  a[i] = b[i] + s * c[i];
}

kernel void copy(global float *dst, global const float *src) {
  size_t i = get_global_id(0);
  dst[i] = src[i];
}

kernel void empty(void) {}
