// An importer of two functions: add_offset (link_lib.cl exports it) and twice (nothing exports it).
int add_offset(int x);
int twice(int x);

kernel void two_imports(global int *out) { out[get_global_id(0)] = twice(add_offset((int)get_global_id(0))); }
