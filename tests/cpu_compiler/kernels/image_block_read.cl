// A sub-group block read from an image: this driver reads blocks of global memory only, and must say so.
__attribute__((intel_reqd_sub_group_size(16))) kernel void image_block_read(read_only image2d_t image,
                                                                            global uint *out) {
  out[get_global_id(0)] = intel_sub_group_block_read(image, (int2)(0, 0));
}
