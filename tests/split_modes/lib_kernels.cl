// libsplit_lib's kernels: one calls an exported function of the other source, one calls through
// an address its host API is given.
#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable
typedef float (*float_op)(float);

float split_lib_scale(float x);

kernel void split_lib_kernel(global const float *a, global const float *b, global float *c) {
  size_t i = get_global_id(0);
  c[i] = split_lib_scale(a[i]) - b[i];
}

kernel void split_lib_apply(global const float *a, global const float *b, global float *c, ulong fn) {
  size_t i = get_global_id(0);
  c[i] = ((float_op)fn)(a[i]) + b[i];
}
