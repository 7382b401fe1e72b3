// One sum per sub-group of what it reads: a sub-group reduction, measured as bandwidth of what it reads. The sum's
// index comes from the sub-group's own ids (a division by the sub-group size, which is not known at compile time
// when the work-group size is not, would cost the kernel more than its reduction).
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void subgroup_sum(global const float *in, global float *out) {
  float sum = sub_group_reduce_add(in[get_global_id(0)]);
  if (get_sub_group_local_id() == 0)
    out[get_group_id(0) * get_num_sub_groups() + get_sub_group_id()] = sum;
}
