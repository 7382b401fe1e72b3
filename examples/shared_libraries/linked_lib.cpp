// Host side of the linked library: its device code (linked_lib.cl) registers with libzeal when it loads.
extern "C" __attribute__((visibility("default"))) const char *linked_lib_name() { return "libshared_libraries_linked"; }
