// A module made for function pointers, built without -library-compilation: its exported add_int is handed out by
// zeModuleGetFunctionPointer and called through the pointer by its own kernel (as level-zero-tests'
// module_fptr_call.cl does).
#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable
typedef int (*int_fn)(int);
int add_int(int a) { return a + 1; }
int times_three(int a) { return 3 * a; }
kernel void call_fptr(global int *values, long fn) {
  int i = (int)get_global_id(0);
  values[i] = ((int_fn)fn)(i);
}
