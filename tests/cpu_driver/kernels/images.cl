// Image kernels of the CPU driver's tests (issue 50): copies through a literal sampler, reads through a sampler
// argument, reads without a sampler, queries, arrays and 3-D images, halves.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

constant sampler_t nearest_edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

// The image copy of the benchmark: every pixel read and written once.
kernel void copy_float(read_only image2d_t src, write_only image2d_t dst) {
  int2 p = (int2)((int)get_global_id(0), (int)get_global_id(1));
  write_imagef(dst, p, read_imagef(src, nearest_edge, p));
}

kernel void copy_uint(read_only image2d_t src, write_only image2d_t dst) {
  int2 p = (int2)((int)get_global_id(0), (int)get_global_id(1));
  write_imageui(dst, p, read_imageui(src, nearest_edge, p));
}

// Each pixel's left neighbour (clamped to the edge) into a buffer, row by row.
kernel void left_neighbour(read_only image2d_t src, global float4 *out) {
  int x = (int)get_global_id(0), y = (int)get_global_id(1);
  out[y * (int)get_global_size(0) + x] = read_imagef(src, nearest_edge, (int2)(x - 1, y));
}

// One sample per coordinate through the sampler the host made.
kernel void sample(read_only image2d_t src, sampler_t sampler, global const float2 *coords, global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(src, sampler, coords[i]);
}

// A read without a sampler, of an image the kernel also writes.
kernel void update_in_place(read_write image2d_t image, global uint4 *out) {
  int2 p = (int2)((int)get_global_id(0), 0);
  uint4 v = read_imageui(image, p);
  out[p.x] = v;
  write_imageui(image, p, v + (uint4)(1, 2, 3, 4));
}

kernel void queries(read_only image3d_t volume, read_only image2d_array_t layers, read_only image1d_t line,
                    global int *out) {
  int4 d = get_image_dim(volume);
  out[0] = d.x;
  out[1] = d.y;
  out[2] = d.z;
  out[3] = get_image_depth(volume);
  out[4] = get_image_width(layers);
  out[5] = get_image_height(layers);
  out[6] = (int)get_image_array_size(layers);
  out[7] = get_image_width(line);
  out[8] = get_image_channel_data_type(volume);
  out[9] = get_image_channel_order(volume);
  out[10] = get_image_channel_data_type(layers);
  out[11] = get_image_channel_order(layers);
}

// Each pixel of each layer gets (x, y, layer, 7); then a 3-D image is read back the same way.
kernel void fill_layers(write_only image2d_array_t image) {
  int4 p = (int4)((int)get_global_id(0), (int)get_global_id(1), (int)get_global_id(2), 0);
  write_imageui(image, p, (uint4)(p.x, p.y, p.z, 7));
}
kernel void read_volume(read_only image3d_t image, global uint4 *out) {
  int4 p = (int4)((int)get_global_id(0), (int)get_global_id(1), (int)get_global_id(2), 0);
  size_t i = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) + get_global_id(0);
  out[i] = read_imageui(image, nearest_edge, p);
}

// Halves: read, doubled, written.
kernel void double_halves(read_only image1d_t src, write_only image1d_t dst) {
  int x = (int)get_global_id(0);
  write_imageh(dst, x, read_imageh(src, x) * (half)2);
}
