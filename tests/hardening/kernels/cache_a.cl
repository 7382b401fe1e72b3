// Device code of the cache-fault test (cache_faults_test.cpp): two images of two kernels each, so that a run
// stores several entries in each kind of cache (four kernels for the CPU driver's, two images for the runtime's).
kernel void cache_square(global int *data) { size_t i = get_global_id(0); data[i] = data[i] * data[i]; }
kernel void cache_offset(global int *data, int offset) { data[get_global_id(0)] += offset; }
