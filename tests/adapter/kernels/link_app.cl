// The importing side of the link tests: calls add_offset, defined in link_lib.cl.
int add_offset(int x);

kernel void app_kernel(global int *out) { out[get_global_id(0)] = 2 * add_offset((int)get_global_id(0)); }
