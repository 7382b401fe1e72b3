// A kernel of sub-group size 32 reaching the library's plain_helper (the device's primary size) only
// through a function of its own image.
extern int plain_helper(int x);

__attribute__((noinline)) int app_helper(int x) { return plain_helper(x); }

__attribute__((intel_reqd_sub_group_size(32))) kernel void calls_plain_helper_through_app_helper(global int *out) {
  out[get_global_id(0)] = app_helper((int)get_global_id(0));
}
