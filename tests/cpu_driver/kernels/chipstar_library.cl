// Stands in for chipStar's device library (built with -library-compilation): what chipstar_user.cl imports.
int __chip_abs_i32(int x) { return x < 0 ? -x : x; }
int __chip_max_i32(int a, int b) { return a > b ? a : b; }
