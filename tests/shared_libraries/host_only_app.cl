// The application's own kernel for the host-only library tests: out[i] = i * scale.
kernel void host_only_app_scale(global int *out, int scale) {
  int i = (int)get_global_id(0);
  out[i] = i * scale;
}
