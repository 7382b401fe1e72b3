// out[i] = value + i for a 64-bit by-value argument, which callers may set with fewer bytes.
kernel void fill_wide(global ulong *out, ulong value) {
  size_t i = get_global_id(0);
  out[i] = value + i;
}
