// Calls a function through a pointer passed as an argument (SPV_INTEL_function_pointers).
#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable
typedef int (*int_fn)(int);
kernel void call_through(global int *out, ulong fn) {
  int i = (int)get_global_id(0);
  out[i] = ((int_fn)fn)(i);
}
