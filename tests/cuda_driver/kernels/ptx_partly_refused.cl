// A kernel the NVPTX back end refuses by what it calls (Intel's sub-group matrix product, through a function of
// the module), beside one it runs: the module builds without the first.
int intel_sub_group_i8_i8_matrix_mad_k32(short a, int8 b, int acc);

static int product(short a, int8 b) {
  return intel_sub_group_i8_i8_matrix_mad_k32(a, b, 0);
}

kernel void multiplies(global int *x) {
  x[get_global_id(0)] = product((short)x[0], (int8)(1));
}

kernel void stores(global int *x) {
  x[get_global_id(0)] = 7;
}
