// One kernel the device cannot honour (sub-group size 2; zeal's CPU driver has 4..64, Intel GPUs 8..32) beside
// one it can: the first must be refused at launch, the second must still run.
__attribute__((intel_reqd_sub_group_size(2)))
kernel void needs_two(global int *out) { out[get_global_id(0)] = 2; }

kernel void runs_anyway(global int *out, int value) { out[get_global_id(0)] = value; }
