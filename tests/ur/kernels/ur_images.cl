// Image kernels of the UR face's tests (issue 50): an image sampled into another through a sampler argument, and
// an image's pixels read into a buffer as a kernel sees them.

// Each pixel's left neighbour, through the sampler the host made, into the same place of `dst`.
kernel void left_neighbour(read_only image2d_t src, sampler_t sampler, write_only image2d_t dst) {
  int2 p = (int2)((int)get_global_id(0), (int)get_global_id(1));
  write_imagef(dst, p, read_imagef(src, sampler, (int2)(p.x - 1, p.y)));
}

// Every pixel of a row, as read_imagef returns it.
kernel void pixels(read_only image2d_t src, global float4 *out) {
  int x = (int)get_global_id(0);
  out[x] = read_imagef(src, (int2)(x, 0));
}
