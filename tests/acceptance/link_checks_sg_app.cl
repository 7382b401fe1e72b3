// An application kernel of sub-group size 32 calling the library's sg16_helper, which the library
// compiled for 16; the application declares function.sg16_helper.sub_group_size=32.
extern int sg16_helper(int x);

__attribute__((intel_reqd_sub_group_size(32))) kernel void calls_sg16_helper(global int *out) {
  out[get_global_id(0)] = sg16_helper((int)get_global_id(0));
}
