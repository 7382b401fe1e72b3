// Application kernels: one calls the library's device function, one the application's own.
float split_lib_scale(float x);   // exported by the library
float split_app_offset(float x) { return x + 100.0f; }

kernel void split_app_uses_lib(global float *data) {
  size_t i = get_global_id(0);
  data[i] = split_lib_scale(data[i]);
}
