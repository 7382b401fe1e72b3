// Images on the NVPTX back end: a read through a sampler argument, a write, a literal sampler and the queries.
kernel void sample(read_only image2d_t image, sampler_t sampler, global float4 *out) {
  int i = get_global_id(0);
  out[i] = read_imagef(image, sampler, (float2)(i + 0.5f, 0.5f));
}

kernel void fill(write_only image2d_t image, float4 color) {
  write_imagef(image, (int2)(get_global_id(0), get_global_id(1)), color);
}

kernel void literal(read_only image3d_t image, global uint4 *out) {
  const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
  out[0] = read_imageui(image, nearest, (int4)(0, 0, 0, 0));
  out[1] = (uint4)(get_image_width(image), get_image_height(image), get_image_depth(image),
                   get_image_channel_data_type(image));
}
