// A second application source: its kernel calls a function of the first source.
float split_app_offset(float x);

kernel void split_app_uses_app(global float *data) {
  size_t i = get_global_id(0);
  data[i] = split_app_offset(data[i]);
}
