// Host side of libsplit_lib_b: its image (lib_b.cl) registers when it loads.
extern "C" __attribute__((visibility("default"))) const char *split_lib_b_build() { return SPLIT_LIB_BUILD; }
