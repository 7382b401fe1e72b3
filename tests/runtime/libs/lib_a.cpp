// Host side of libzeal_test_a: nothing but its device code, registered when it loads.
extern "C" __attribute__((visibility("default"))) int zeal_test_a_present() { return 1; }
