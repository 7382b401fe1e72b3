// One module mixing a buffer kernel with kernels this driver cannot run: only the buffer kernel may be created.
kernel void scale_buffer(global int *out, int factor) {
  int i = (int)get_global_id(0);
  out[i] = i * factor;
}

// A sub-group block read of an image (this driver reads blocks of global memory only), then a supported image read.
constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
kernel void sample_image(global float4 *out, read_only image2d_t image) {
  uint word = intel_sub_group_block_read(image, (int2)(0, 0));
  out[get_global_id(0)] = read_imagef(image, nearest, (int2)(0, 0)) + (float)word;
}

// prefetch, a built-in this driver does not provide, two calls down.
__attribute__((noinline)) void fetch_ahead(global const float4 *p) { prefetch(p, 1); }
__attribute__((noinline)) void look_ahead(global const float4 *p) { fetch_ahead(p); }
kernel void prefetch_twice_removed(global int *out, global const float4 *in) {
  look_ahead(in);
  out[get_global_id(0)] = 7;
}
