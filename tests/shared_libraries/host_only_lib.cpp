// A shared library with no device code at all: plain host functions, and no link to libzeal.
extern "C" {
__attribute__((visibility("default"))) int host_only_scale() { return 3; }
__attribute__((visibility("default"))) int host_only_add(int a, int b) { return a + b; }
}
