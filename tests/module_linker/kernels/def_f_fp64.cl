// Defines f with a double computation inside, so a kernel calling it needs fp64.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
int f(int x) { return (int)((double)x * 1.5); }
