// An image kernel of the runtime tests: each pixel of `dst` is `src` sampled at the pixel's centre plus a shift,
// through the sampler the host made.
kernel void sample_shifted(read_only image2d_t src, sampler_t sampler, write_only image2d_t dst, float shift) {
  int2 p = (int2)((int)get_global_id(0), (int)get_global_id(1));
  float2 at = (float2)((float)p.x + 0.5f + shift, (float)p.y + 0.5f);
  write_imagef(dst, p, read_imagef(src, sampler, at));
}
