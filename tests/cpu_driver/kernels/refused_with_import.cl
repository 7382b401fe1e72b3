// An import (link_helper, from link_library.cl) reached through a helper, next to a kernel writing an image.
int link_helper(int x);
__attribute__((noinline)) int through_helper(int x) { return link_helper(x) + 1; }
kernel void use_import(global int *out) {
  int i = (int)get_global_id(0);
  out[i] = through_helper(i);
}

kernel void write_image(global int *out, write_only image2d_t image) {
  write_imagei(image, (int2)(0, 0), (int4)(1));
  out[get_global_id(0)] = 1;
}
