// Kernels each needing one device feature, for strip, split and the per-kernel device checks.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void dbl(global double *d) { d[get_global_id(0)] *= 2.0; }
kernel void shuf(global int *d) { d[get_global_id(0)] = intel_sub_group_shuffle(d[get_global_id(0)], 0u); }
kernel void at64(global long *d) { atom_add((volatile global long *)d, 1L); }
kernel void add_one(global int *d) { d[get_global_id(0)] += 1; }
__attribute__((intel_reqd_sub_group_size(64))) kernel void sg64(global int *d) { d[get_global_id(0)] = 64; }
__attribute__((work_group_size_hint(8, 8, 1))) kernel void hinted(global int *d) { d[get_global_id(0)] = 7; }
