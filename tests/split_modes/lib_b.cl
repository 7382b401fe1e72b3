// libsplit_lib_b: the bottom of application -> libsplit_lib -> libsplit_lib_b, with no imports.
float split_lib_b_twice(float x) { return 2.0f * x; }
