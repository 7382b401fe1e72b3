kernel void bench_noop(global int *data) { (void)data; }
