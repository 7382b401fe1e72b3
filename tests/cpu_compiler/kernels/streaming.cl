// Kernels whose vector stores fill contiguous global memory (streaming-store candidates), and two that are not.
kernel void stream_scale(global float *out, global const float *in, float k) {
  size_t i = get_global_id(0);
  out[i] = k * in[i];
}

// 2-D, row-major over the whole range: each group's rows start wherever the global width puts them.
kernel void stream_rows(global int *out, global const int *in, int salt) {
  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  out[i] = in[i] ^ salt;
}

// Two outputs of different element sizes: two stretches per loop.
kernel void stream_pairs(global float4 *a, global double *b, global const float *in) {
  size_t i = get_global_id(0);
  a[i] = (float4)(in[i], in[i] + 1.0f, in[i] + 2.0f, in[i] + 3.0f);
  b[i] = (double)in[i] * 0.5;
}

// An atomic orders memory: the kernel keeps plain stores.
kernel void stream_counted(global float *out, global const float *in, global int *count) {
  size_t i = get_global_id(0);
  out[i] = in[i];
  atomic_inc(count);
}

// Every other element: no stretch is filled.
kernel void stream_strided(global float *out, global const float *in) {
  size_t i = get_global_id(0);
  out[2 * i] = in[i];
}
