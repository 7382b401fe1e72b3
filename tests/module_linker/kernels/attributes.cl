// Kernels carrying the execution modes module_linker must report.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void sub_group_16(global uint *out) { out[get_global_id(0)] = get_sub_group_local_id(); }

__attribute__((reqd_work_group_size(8, 4, 2)))
kernel void work_group_8x4x2(global int *out) { out[get_global_id(0)] = 1; }

kernel void plain(global int *out) { out[get_global_id(0)] = 2; }
