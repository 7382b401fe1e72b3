// The exporting side of the link tests: a function, a global variable and a kernel of its own.
int add_offset(int x) { return x + 1000; }

global int lib_counter = 7;

kernel void lib_kernel(global int *out) { out[get_global_id(0)] = add_offset((int)get_global_id(0)); }
