// A kernel for the native (AOT) image tests: no sub-group size required, so it runs with the primary one.
kernel void native_double(global int *data) {
  size_t i = get_global_id(0);
  data[i] *= 2;
}
