// A library (built with -library-compilation) between trapping_user-like kernels and trapping_library.cl: its
// doubled_relay reaches the library's trapping relay; add_four reaches only add_two.
float relay(global const float4 *p);
int add_two(int x);
float doubled_relay(global const float4 *p) { return relay(p) * 2.0f; }
int add_four(int x) { return add_two(add_two(x)); }
