// A module that imports one function and exports another.
int imported_helper(int x);
int exported_helper(int x) { return x * 3; }

kernel void uses_helpers(global int *data) {
  size_t i = get_global_id(0);
  data[i] = imported_helper(data[i]) + exported_helper((int)i);
}
