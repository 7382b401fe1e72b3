// One bf16 matrix product C = A x B (float accumulation) with the sub-group matrix product of
// cl_intel_subgroup_matrix_multiply_accumulate, as Intel GPU kernels write it: each sub-group of 16 computes an
// 8 x 16 tile of C, 16 columns of k at a time. A is row-major bf16; B is bf16 packed in pairs of rows (VNNI: the
// 32-bit word (k/2, n) holds B[k][n] in its low half and B[k+1][n] in its high half); C is row-major float.
float8 __attribute__((overloadable)) intel_sub_group_bf16_bf16_matrix_mad_k16(short8 a, int8 b, float8 acc);

__attribute__((intel_reqd_sub_group_size(16)))
kernel void bf16_matmul(global const short *a, global const int *b_packed, global float *c, int n, int k) {
  const int lane = get_sub_group_local_id();
  const int row0 = get_group_id(1) * 8, col0 = get_group_id(0) * 16;
  float8 acc = 0.0f;
  for (int k0 = 0; k0 < k; k0 += 16) {
    short8 av;
    av.s0 = a[(row0 + 0) * k + k0 + lane]; av.s1 = a[(row0 + 1) * k + k0 + lane];
    av.s2 = a[(row0 + 2) * k + k0 + lane]; av.s3 = a[(row0 + 3) * k + k0 + lane];
    av.s4 = a[(row0 + 4) * k + k0 + lane]; av.s5 = a[(row0 + 5) * k + k0 + lane];
    av.s6 = a[(row0 + 6) * k + k0 + lane]; av.s7 = a[(row0 + 7) * k + k0 + lane];
    int8 bv;
    global const int *column = b_packed + (k0 / 2) * n + col0 + lane;
    bv.s0 = column[0 * n]; bv.s1 = column[1 * n]; bv.s2 = column[2 * n]; bv.s3 = column[3 * n];
    bv.s4 = column[4 * n]; bv.s5 = column[5 * n]; bv.s6 = column[6 * n]; bv.s7 = column[7 * n];
    acc = intel_sub_group_bf16_bf16_matrix_mad_k16(av, bv, acc);
  }
  global float *out = c + row0 * n + col0 + lane;
  out[0 * n] = acc.s0; out[1 * n] = acc.s1; out[2 * n] = acc.s2; out[3 * n] = acc.s3;
  out[4 * n] = acc.s4; out[5 * n] = acc.s5; out[6 * n] = acc.s6; out[7 * n] = acc.s7;
}
