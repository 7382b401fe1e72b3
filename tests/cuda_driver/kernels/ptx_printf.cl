// A kernel the NVPTX back end refuses by name: printf.
kernel void prints(global int *x) {
  printf("%d\n", x[0]);
}
