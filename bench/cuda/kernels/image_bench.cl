// Image kernels for the CUDA driver's image figures, against its buffer copy of the same bytes: a copy of RGBA8
// unorm pixels (the built-ins' inline fast path), a copy of RGBA half-float pixels (the image library's conversions)
// and a bilinear resample through a normalized, linear sampler (the library's filtering).
kernel void copy_rgba8(read_only image2d_t src, write_only image2d_t dst) {
  int2 p = (int2)((int)get_global_id(0), (int)get_global_id(1));
  write_imagef(dst, p, read_imagef(src, p));
}

kernel void copy_rgba16f(read_only image2d_t src, write_only image2d_t dst) {
  int2 p = (int2)((int)get_global_id(0), (int)get_global_id(1));
  write_imagef(dst, p, read_imagef(src, p));
}

kernel void resample(read_only image2d_t src, sampler_t linear, write_only image2d_t dst) {
  int2 p = (int2)((int)get_global_id(0), (int)get_global_id(1));
  float2 at = ((float2)(p.x, p.y) + 0.25f) / (float2)(get_global_size(0), get_global_size(1));
  write_imagef(dst, p, read_imagef(src, linear, at));
}
