// c = a + b, one work-item per element.
kernel void vector_add(global const float *a, global const float *b, global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

// out[i] = value: a by-value argument, for checking that arguments are captured at append time.
kernel void fill_value(global int *out, int value) {
  out[get_global_id(0)] = value;
}
