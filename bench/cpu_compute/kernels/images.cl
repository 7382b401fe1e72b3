// The image benchmark's kernels (bench_cpu_compute_images.cpp): a 2-D image copy through a sampler clamping to the
// edge, the buffer copy of the same bytes, and linear filtering at a float coordinate per work-item.
constant sampler_t nearest_edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
constant sampler_t linear_edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;

kernel void copy_image(read_only image2d_t src, write_only image2d_t dst) {
  int2 p = (int2)((int)get_global_id(0), (int)get_global_id(1));
  write_imagef(dst, p, read_imagef(src, nearest_edge, p));
}

kernel void copy_buffer(global const float4 *src, global float4 *dst) {
  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  dst[i] = src[i];
}

// Each work-item samples between four pixels (a quarter pixel off their centres), linearly filtered.
kernel void sample_linear(read_only image2d_t src, global float4 *dst) {
  size_t x = get_global_id(0), y = get_global_id(1);
  float2 at = (float2)((float)x + 0.75f, (float)y + 0.75f);
  dst[y * get_global_size(0) + x] = read_imagef(src, linear_edge, at);
}
