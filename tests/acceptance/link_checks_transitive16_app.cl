// link_checks_transitive_app.cl at sub-group size 16: a kernel reaching the library's plain_helper (the device's
// primary size) only through a function of its own image, for devices whose primary size is 32.
extern int plain_helper(int x);

__attribute__((noinline)) static int app_helper16(int x) { return plain_helper(x); }

__attribute__((intel_reqd_sub_group_size(16))) kernel void calls_plain_helper_through_app_helper_sg16(
    global int *out) {
  out[get_global_id(0)] = app_helper16((int)get_global_id(0));
}
