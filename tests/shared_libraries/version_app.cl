// The application's kernel, calling the versioned library's device function.
int version_offset(int x);

kernel void app_version(global int *out) {
  int i = (int)get_global_id(0);
  out[i] = version_offset(i);
}
