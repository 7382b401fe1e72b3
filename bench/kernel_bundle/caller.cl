// A kernel importing a device function of another image (helper.cl), for the warm launch-path benchmark.
int bench_helper(int x);

kernel void bench_caller(global int *data) {
  size_t i = get_global_id(0);
  data[i] = bench_helper(data[i]);
}
