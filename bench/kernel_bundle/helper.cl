// The device function bench_caller (caller.cl) imports.
int bench_helper(int x) { return x + 1; }
