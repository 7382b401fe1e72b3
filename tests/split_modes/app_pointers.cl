// The application's third source: a function the library's kernel calls through its address,
// and a kernel that calls through an address it is given (the library's function's).
#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable
typedef float (*float_op)(float);

float split_app_square(float x) { return x * x; }

kernel void split_app_call_through(global const float *a, global const float *b, global float *c, ulong fn) {
  size_t i = get_global_id(0);
  c[i] = ((float_op)fn)(a[i]) + b[i];
}
