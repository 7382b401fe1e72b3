// Application kernels calling device functions defined in shared libraries (libzeal_test_a -> libzeal_test_b).
float lib_a_add(float x, float y);   // defined in libzeal_test_a
float lib_b_twice(float x);          // defined in libzeal_test_b

kernel void app_add_via_lib(global const float *a, global const float *b, global float *c) {
  size_t i = get_global_id(0);
  c[i] = lib_a_add(a[i], b[i]);
}

kernel void app_twice_via_lib(global float *data) {
  size_t i = get_global_id(0);
  data[i] = lib_b_twice(data[i]);
}

// Exported for the libraries' kernels to call back into the application.
float app_offset(float x) { return x + 0.5f; }
