// One sum per sub-group of what it reads: a sub-group reduction, measured as bandwidth of what it reads.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void subgroup_sum(global const float *in, global float *out) {
  float sum = sub_group_reduce_add(in[get_global_id(0)]);
  if (get_sub_group_local_id() == 0)
    out[get_global_id(0) / get_max_sub_group_size()] = sum;
}
