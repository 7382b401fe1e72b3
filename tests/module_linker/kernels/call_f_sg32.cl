// Calls f from a kernel that requires sub-group size 32.
int f(int x);
__attribute__((intel_reqd_sub_group_size(32)))
kernel void call_f_sg32(global int *d) { size_t i = get_global_id(0); d[i] = f(d[i]); }
