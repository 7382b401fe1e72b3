// Kernels of the adapter tests: plain arithmetic, a value argument, a required work-group size.
kernel void vector_add(global const int *a, global const int *b, global int *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

kernel void scale(global int *out, int factor) {
  size_t i = get_global_id(0);
  out[i] = (int)i * factor;
}

__attribute__((reqd_work_group_size(8, 1, 1)))
kernel void fixed_group(global int *out) { out[get_global_id(0)] = (int)get_local_size(0); }
