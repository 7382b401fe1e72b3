// An importer of add_offset (link_lib.cl) whose kernel requires sub-group size 32 and reaches it only
// through a function of its own; link_lib.cl declares no size for add_offset.
int add_offset(int x);

__attribute__((noinline)) int twice_offset(int x) { return 2 * add_offset(x); }

__attribute__((intel_reqd_sub_group_size(32))) kernel void app_sg32_kernel(global int *out) {
  out[get_global_id(0)] = twice_offset((int)get_global_id(0));
}
