// The control: a kernel of range_type int16_t calling the library's wide_helper (range_type int, which
// holds every int16_t); the application declares function.wide_helper.range_type=int16_t.
extern int wide_helper(int x);

kernel void calls_wide_helper(global int *out) {
  out[get_global_id(0)] = wide_helper((int)get_global_id(0));
}
