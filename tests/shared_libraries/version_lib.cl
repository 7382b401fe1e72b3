// A library whose device code differs between its versions: VERSION is 1 or 2.
int version_value(void) { return VERSION * 100; }

int version_offset(int x) { return x + version_value(); }

kernel void version_fill(global int *out) {
  int i = (int)get_global_id(0);
  out[i] = version_offset(i);
}
