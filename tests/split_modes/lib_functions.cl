// The library's exported device function.
float split_lib_scale(float x) { return 3.0f * x; }
