// A kernel as chipStar compiles one (issue 47): it calls functions of chipStar's device library, which chipStar
// links when the program runs, so the module imports them.
int __chip_abs_i32(int x);
int __chip_max_i32(int a, int b);
kernel void chip_user(global int *out) {
  int i = (int)get_global_id(0);
  out[i] = __chip_max_i32(__chip_abs_i32(i - 10), 3);
}
