// Host side of libzeal_test_b: nothing but its device code, registered when it loads.
extern "C" __attribute__((visibility("default"))) int zeal_test_b_present() { return 1; }
