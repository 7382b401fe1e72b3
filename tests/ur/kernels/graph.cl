// A small graph as SYCL Graph records one: fill, square, (a USM copy,) accumulate; each replay adds to `sum`, so
// a replay that ran twice, not at all, or overlapping another shows in the result.
kernel void graph_init(global int *a, int seed) {
  size_t i = get_global_id(0);
  a[i] = seed + (int)i;
}

kernel void graph_square(global const int *a, global int *b) {
  size_t i = get_global_id(0);
  b[i] = a[i] * a[i];
}

kernel void graph_accumulate(global const int *c, global long *sum, int k) {
  size_t i = get_global_id(0);
  sum[i] += (long)c[i] + k;
}

// The global and local sizes and the offset the launch ran with, for updates of the range.
kernel void graph_range(global int *out) {
  size_t i = get_global_id(0);
  out[4 * i] = (int)get_global_size(0);
  out[4 * i + 1] = (int)get_local_size(0);
  out[4 * i + 2] = (int)get_global_offset(0);
  out[4 * i + 3] = 1;
}
