// The application's kernel, calling a device function of the linked library.
float linked_axpy(float a, float x, float y); // exported by libshared_libraries_linked

kernel void app_axpy(float a, global const float *x, global float *y) {
  size_t i = get_global_id(0);
  y[i] = linked_axpy(a, x[i], y[i]);
}
