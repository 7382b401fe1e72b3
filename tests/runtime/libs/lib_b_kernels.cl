// libzeal_test_b: the bottom of the chain application -> libzeal_test_a -> libzeal_test_b.
float lib_b_twice(float x) { return 2.0f * x; }
