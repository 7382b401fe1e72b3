// Kernels the CPU driver can run, two of which dg2 cannot (fp64, sub-group size 64): for strip run tests.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void dbl(global double *d) { d[get_global_id(0)] *= 2.0; }
kernel void add_one(global int *d) { d[get_global_id(0)] += 1; }
__attribute__((intel_reqd_sub_group_size(64))) kernel void sg64(global int *d) { d[get_global_id(0)] = 64; }
kernel void add_two(global int *d) { d[get_global_id(0)] += 2; }
