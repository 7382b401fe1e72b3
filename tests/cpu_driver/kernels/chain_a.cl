// The head of a chain of four modules: a -> b -> c -> d, each calling the next.
int chain_b(int x);
kernel void chain(global int *out) {
  int i = (int)get_global_id(0);
  out[i] = chain_b(i);
}
