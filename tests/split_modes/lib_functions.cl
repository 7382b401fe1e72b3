// libsplit_lib's exported device functions: one for the kernels of both sides, one calling
// libsplit_lib_b, and one whose address the library's host API returns.
float split_lib_b_twice(float x); // libsplit_lib_b

float split_lib_scale(float x) { return 3.0f * x; }

float split_lib_add(float x, float y) { return split_lib_b_twice(x) + y; }

float split_lib_cube(float x) { return x * x * x; }
