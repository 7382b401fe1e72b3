// The dlopen'ed library's kernels, launched by its host functions.
float split_plugin_weight(float x);
float split_plugin_bias(float x);

kernel void split_plugin_weighted_add(global const float *a, global const float *b, global float *c) {
  size_t i = get_global_id(0);
  c[i] = split_plugin_weight(a[i]) + b[i];
}

kernel void split_plugin_biased_sub(global const float *a, global const float *b, global float *c) {
  size_t i = get_global_id(0);
  c[i] = split_plugin_bias(a[i]) - b[i];
}
