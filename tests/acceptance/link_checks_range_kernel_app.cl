// A kernel of range_type int16_t calling the library's tiny_helper, declared range_type int8_t; the
// application declares nothing of tiny_helper, so only the kernel's own range_type can refuse it.
extern int tiny_helper(int x);

kernel void calls_tiny_helper(global int *out) {
  out[get_global_id(0)] = tiny_helper((int)get_global_id(0));
}
