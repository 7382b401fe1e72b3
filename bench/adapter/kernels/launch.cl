// The kernel launched by bench_adapter_launch: two arguments and almost no work, so host time dominates.
kernel void tiny(global int *out, int value) {
  if (get_global_id(0) == 0) out[0] = value;
}
