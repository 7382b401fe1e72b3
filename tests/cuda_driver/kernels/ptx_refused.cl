// A kernel the NVPTX back end refuses by name: Intel's sub-group block read of an image.
kernel void reads_image(read_only image2d_t image, global uint *out) {
  out[get_global_id(0)] = intel_sub_group_block_read(image, (int2)(0, 0));
}
