// An import (link_helper, from link_library.cl) reached through a helper, next to a kernel writing an image in
// sub-group blocks (which this driver does on global memory only).
int link_helper(int x);
__attribute__((noinline)) int through_helper(int x) { return link_helper(x) + 1; }
kernel void use_import(global int *out) {
  int i = (int)get_global_id(0);
  out[i] = through_helper(i);
}

kernel void write_image(global int *out, write_only image2d_t image) {
  intel_sub_group_block_write(image, (int2)(0, 0), 1u);
  out[get_global_id(0)] = 1;
}
