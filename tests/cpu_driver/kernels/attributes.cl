// Kernels with and without the source attributes zeKernelGetSourceAttributes reports.
__attribute__((reqd_work_group_size(8, 1, 1))) __attribute__((intel_reqd_sub_group_size(16)))
kernel void both_attributes(global int *out) {
  out[get_global_id(0)] = 1;
}

__attribute__((reqd_work_group_size(4, 2, 1))) kernel void group_size_only(global int *out) {
  out[get_global_id(0)] = 2;
}

__attribute__((intel_reqd_sub_group_size(8))) kernel void sub_group_size_only(global int *out) {
  out[get_global_id(0)] = 3;
}

kernel void no_attributes(global int *out) {
  out[get_global_id(0)] = 4;
}

__attribute__((work_group_size_hint(16, 2, 1))) __attribute__((vec_type_hint(float4)))
kernel void hints(global int *out) {
  out[get_global_id(0)] = 5;
}

__attribute__((reqd_work_group_size(2, 2, 2))) __attribute__((work_group_size_hint(2, 2, 2)))
__attribute__((vec_type_hint(uint))) __attribute__((intel_reqd_sub_group_size(8)))
kernel void every_attribute(global int *out) {
  out[get_global_id(0)] = 6;
}
