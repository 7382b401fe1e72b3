// The application's second source: its kernel calls a function of the first source.
float split_app_offset(float x);

kernel void split_app_uses_app(global const float *a, global const float *b, global float *c) {
  size_t i = get_global_id(0);
  c[i] = split_app_offset(a[i]) + b[i];
}
