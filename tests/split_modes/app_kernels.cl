// The application's first source: kernels using the libraries' device functions, and a function
// of its own that the second source's kernel calls.
float split_lib_scale(float x);        // libsplit_lib
float split_lib_add(float x, float y); // libsplit_lib, calling libsplit_lib_b

float split_app_offset(float x) { return x + 100.0f; }

kernel void split_app_uses_lib(global const float *a, global const float *b, global float *c) {
  size_t i = get_global_id(0);
  c[i] = split_lib_scale(a[i]) + b[i];
}

kernel void split_app_uses_libs(global const float *a, global const float *b, global float *c) {
  size_t i = get_global_id(0);
  c[i] = split_lib_add(a[i], b[i]);
}
