// An application kernel of range_type int calling the library's narrow_helper, whose range_type
// int16_t cannot hold every int; the application declares function.narrow_helper.range_type=int.
extern int narrow_helper(int x);

kernel void calls_narrow_helper(global int *out) {
  out[get_global_id(0)] = narrow_helper((int)get_global_id(0));
}
