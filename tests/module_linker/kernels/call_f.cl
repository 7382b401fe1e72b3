// Calls f, which another module defines.
int f(int x);
kernel void call_f(global int *d) { size_t i = get_global_id(0); d[i] = f(d[i]); }
