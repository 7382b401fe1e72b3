// The library's own kernel, calling its exported function from another source.
float split_lib_scale(float x);

kernel void split_lib_kernel(global float *data) {
  size_t i = get_global_id(0);
  data[i] = split_lib_scale(data[i]) + 1.0f;
}
