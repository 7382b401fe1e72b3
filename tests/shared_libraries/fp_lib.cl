// The function-pointer library's device code: a function the application calls through its
// address, and a kernel that calls through an address the application passes.
#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable
typedef int (*int_op)(int);

int fp_lib_triple_plus_seven(int x) { return 3 * x + 7; }

kernel void fp_lib_apply(global int *data, ulong fn) {
  size_t i = get_global_id(0);
  data[i] = ((int_op)fn)(data[i]);
}
