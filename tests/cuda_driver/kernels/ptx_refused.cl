// A kernel the NVPTX back end refuses by name: an image read.
kernel void reads_image(read_only image2d_t image, global float4 *out) {
  out[get_global_id(0)] = read_imagef(image, (int2)(0, 0));
}
