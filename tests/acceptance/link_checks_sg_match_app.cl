// The control of the sub-group size rule: a kernel of size 32 calling sg32_helper, which the library declares
// compiled for 32. The application declares nothing of it.
extern int sg32_helper(int x);

__attribute__((intel_reqd_sub_group_size(32))) kernel void calls_sg32_helper(global int *out) {
  out[get_global_id(0)] = sg32_helper((int)get_global_id(0));
}
