// libzeal_test_a: a device function used by the application, and a kernel of its own; it calls libzeal_test_b.
float lib_b_twice(float x);          // defined in libzeal_test_b

float lib_a_add(float x, float y) { return lib_b_twice(x) * 0.5f + y; }

kernel void lib_a_kernel(global float *data) {
  size_t i = get_global_id(0);
  data[i] = lib_a_add(data[i], 1.0f);
}
