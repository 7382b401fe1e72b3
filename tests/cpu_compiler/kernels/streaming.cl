// Kernels whose vector stores fill contiguous global memory or whole lines (streaming-store candidates), and two that
// are not; all but the last read streams of global memory (software prefetch candidates).
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

// Sub-group block writes: each a whole 64-byte line, at an address computed in 32 bits.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void stream_blocks(global uint *out, global const uint *in) {
  size_t base = get_group_id(0) * get_local_size(0) + get_sub_group_id() * get_max_sub_group_size();
  intel_sub_group_block_write(out + base, intel_sub_group_block_read(in + base) + 1u);
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

// Reads scattered elements, no stream: no prefetch (its stores still fill contiguous memory).
kernel void stream_gathered(global float *out, global const float *in) {
  size_t i = get_global_id(0);
  out[i] = in[(i * 7919u) % 4093u];
}
