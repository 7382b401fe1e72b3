// Head of a benchmark link chain: a kernel calling c000, the first library.
int c000(int x);
kernel void chain_head(global int *out) { out[get_global_id(0)] = c000((int)get_global_id(0)); }
