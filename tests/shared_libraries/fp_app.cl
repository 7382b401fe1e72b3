// The application's side of the function-pointer tests: a function the library's kernel calls
// through its address, and a kernel that calls through an address it is given.
#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable
typedef int (*int_op)(int);

int app_square_minus_one(int x) { return x * x - 1; }

kernel void app_call_through(global int *data, ulong fn) {
  size_t i = get_global_id(0);
  data[i] = ((int_op)fn)(data[i]);
}
