// A kernel the NVPTX back end refuses by name (printf), beside one it runs: the module builds without the first.
kernel void prints(global int *x) {
  printf("%d\n", x[0]);
}

kernel void stores(global int *x) {
  x[get_global_id(0)] = 7;
}
