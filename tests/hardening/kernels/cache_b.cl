// Device code of the cache-fault test: the second image (see cache_a.cl).
kernel void cache_negate(global int *data) { size_t i = get_global_id(0); data[i] = -data[i]; }
kernel void cache_times(global int *data, int factor) { data[get_global_id(0)] *= factor; }
