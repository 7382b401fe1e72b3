// Sub-group built-ins at size 32 (a warp), for the NVPTX back end's tests.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

kernel void sg_ids(global uint *out) {
  global uint *o = out + get_local_linear_id() * 6;
  o[0] = get_sub_group_size();
  o[1] = get_max_sub_group_size();
  o[2] = get_num_sub_groups();
  o[3] = get_sub_group_id();
  o[4] = get_sub_group_local_id();
  o[5] = get_enqueued_num_sub_groups();
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
}

kernel void sg_shuffles(global const int *in, global int *out, global const float *fin, global float *fout, uint d) {
  size_t i = get_global_id(0);
  out[i] = intel_sub_group_shuffle(in[i], d) + intel_sub_group_shuffle_down(in[i], in[i] + 1000, d) +
           intel_sub_group_shuffle_up(in[i] - 1, in[i], d) + intel_sub_group_shuffle_xor(in[i], d) +
           sub_group_broadcast(in[i], 3);
  fout[i] = intel_sub_group_shuffle(fin[i], d) + sub_group_shuffle(fin[i], d) + sub_group_shuffle_xor(fin[i], 1);
}

kernel void sg_reduce(global const int *in, global int *out, global const float *fin, global float *fout,
                      global long *lout) {
  size_t i = get_global_id(0);
  out[i] = sub_group_reduce_add(in[i]) + sub_group_reduce_min(in[i]) + sub_group_reduce_max((uint)in[i]) +
           sub_group_scan_inclusive_add(in[i]) + sub_group_scan_exclusive_max(in[i]) + sub_group_any(in[i] > 4) +
           sub_group_all(in[i] > 0);
  fout[i] = sub_group_reduce_add(fin[i]) + sub_group_scan_inclusive_min(fin[i]);
  lout[i] = sub_group_reduce_add((long)in[i]);
}

// Work-group collectives, built of the sub-groups' (OpenCL 2.0's work_group_* functions).
kernel void wg_collectives(global const int *in, global int *out, global float *fout) {
  size_t i = get_global_id(0);
  int x = in[i];
  out[i] = work_group_reduce_add(x) + work_group_scan_inclusive_add(x) + work_group_scan_exclusive_max(x) +
           work_group_broadcast(x, 5) + work_group_all(x > 0) + work_group_any(x > 60) +
           work_group_reduce_min(x);
  fout[i] = work_group_reduce_max((float)x) + work_group_scan_exclusive_add((float)x);
}

// cl_khr_subgroup_ballot, non-uniform votes and logical reductions.
kernel void sg_ballots(global const int *in, global uint *out) {
  size_t i = get_global_id(0);
  uint4 ballot = sub_group_ballot(in[i] > 2);
  global uint *o = out + i * 10;
  o[0] = ballot.x;
  o[1] = sub_group_ballot_bit_count(ballot);
  o[2] = sub_group_ballot_inclusive_scan(ballot);
  o[3] = sub_group_ballot_exclusive_scan(ballot);
  o[4] = sub_group_ballot_find_lsb(ballot);
  o[5] = sub_group_ballot_find_msb(ballot);
  o[6] = sub_group_inverse_ballot(ballot);
  o[7] = get_sub_group_lt_mask().x;
  o[8] = sub_group_broadcast_first(in[i]) + sub_group_non_uniform_all_equal(in[i] / 100);
  o[9] = sub_group_non_uniform_reduce_logical_or(in[i] > 40) + sub_group_elect();
}

// cl_intel_subgroups' block reads and writes: element k of lane l is p[k * 32 + l].
kernel void sg_blocks(global const uint *in, global uint *out, global const ushort *sin, global ushort *sout) {
  size_t group = get_group_id(0) * 64;
  uint2 pair = intel_sub_group_block_read2(in + group);
  intel_sub_group_block_write2(out + group, pair + (uint2)(1, 2));
  ushort s = intel_sub_group_block_read_us(sin + get_group_id(0) * 32);
  intel_sub_group_block_write_us(sout + get_group_id(0) * 32, (ushort)(s * 2));
}
