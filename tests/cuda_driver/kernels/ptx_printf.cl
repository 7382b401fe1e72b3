// printf on the CUDA back end: OpenCL's vector conversions and length modifiers, a constant string argument, and
// printf's result.
kernel void prints(global const int *x, global int *result) {
  int i = (int)get_global_id(0);
  float2 v = (float2)(0.5f, -1.0f);
  result[i] = printf("%d:%v2hlf:%hhx:%s:%5.1f%%\n", x[i], v, (uchar)0xff, "ok", 2.25f);
}
