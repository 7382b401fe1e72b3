// A kernel with one distinctive constant (0x5EED0000): resources.cpp replaces it in the SPIR-V to make each
// program it builds a different one.
kernel void tagged(global int *out) {
  int i = (int)get_global_id(0);
  out[i] = 3 * i + 0x5EED0000;
}
