// A kernel requiring a sub-group size (2) that zeal's CPU driver (4..64) and Intel GPUs (8..32) lack.
// It calls no sub-group built-in: the requirement alone must stop the launch.
__attribute__((intel_reqd_sub_group_size(2)))
kernel void needs_sub_group_2(global uint *out) { out[get_global_id(0)] = 1; }
