// Imports a function and a variable from link_library.cl.
int link_helper(int x);
extern global int link_offset;
kernel void use_helper(global int *out) {
  int i = (int)get_global_id(0);
  out[i] = link_helper(i) + link_offset;
}
