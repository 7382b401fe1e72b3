// Host side of the split-mode test library.
extern "C" __attribute__((visibility("default"))) int split_lib_present() { return 1; }
