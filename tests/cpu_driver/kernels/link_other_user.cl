// Imports link_twice only: a second importer of the same library.
int link_twice(int x);
kernel void use_twice(global int *out) {
  int i = (int)get_global_id(0);
  out[i] = link_twice(i);
}
