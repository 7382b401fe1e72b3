// Sub-group matrix products as Intel GPU kernels (and Triton's XPU back end) call them (issue 47):
// cl_intel_subgroup_matrix_multiply_accumulate and its tf32 extension. clang 15 does not declare them, so each
// kernel declares its overload, as code built for Intel's compiler does; the driver provides them.
// Each kernel is one sub-group: lane l passes its part of a, its column of b and of acc, and stores its column of
// the result (matrix_mad_test.cpp packs and checks them).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define vload(i, p) ((p)[i])
#define vstore(v, i, p) ((p)[i] = (v))

#define MAD_KERNEL(NAME, FN, SG, AT, AS, BT, CT, MS)                                                          \
  CT##MS __attribute__((overloadable)) FN(AT##AS a, BT##8 b, CT##MS acc);                                    \
  __attribute__((intel_reqd_sub_group_size(SG))) kernel void NAME(global const AT *a, global const BT##8 *b, \
                                                                  global const CT *acc, global CT *out) {    \
    uint lane = get_sub_group_local_id();                                                                    \
    vstore##MS(FN(vload##AS(lane, a), b[lane], vload##MS(lane, acc)), lane, out);                             \
  }

// Sub-groups of 8: a row's part is 32 bits.
MAD_KERNEL(i8_i8_sg8, intel_sub_group_i8_i8_matrix_mad_k32, 8, int, 8, int, int, 8)
MAD_KERNEL(i8_u8_sg8, intel_sub_group_i8_u8_matrix_mad_k32, 8, int, 8, uint, int, 8)
MAD_KERNEL(u8_i8_sg8, intel_sub_group_u8_i8_matrix_mad_k32, 8, uint, 8, int, int, 8)
MAD_KERNEL(u8_u8_sg8, intel_sub_group_u8_u8_matrix_mad_k32, 8, uint, 8, uint, int, 8)
MAD_KERNEL(i4_i4_sg8, intel_sub_group_i4_i4_matrix_mad_k64, 8, int, 8, int, int, 8)
MAD_KERNEL(i4_u4_sg8, intel_sub_group_i4_u4_matrix_mad_k64, 8, int, 8, uint, int, 8)
MAD_KERNEL(u4_i4_sg8, intel_sub_group_u4_i4_matrix_mad_k64, 8, uint, 8, int, int, 8)
MAD_KERNEL(u4_u4_sg8, intel_sub_group_u4_u4_matrix_mad_k64, 8, uint, 8, uint, int, 8)
MAD_KERNEL(f16_sg8, intel_sub_group_f16_f16_matrix_mad_k16, 8, int, 8, int, float, 8)
MAD_KERNEL(bf16_sg8, intel_sub_group_bf16_bf16_matrix_mad_k16, 8, int, 8, int, float, 8)
MAD_KERNEL(f16_sg8_m1, intel_sub_group_f16_f16_matrix_mad_k16, 8, int, , int, float, )
MAD_KERNEL(f16_sg8_m2, intel_sub_group_f16_f16_matrix_mad_k16, 8, int, 2, int, float, 2)
MAD_KERNEL(i8_i8_sg8_m4, intel_sub_group_i8_i8_matrix_mad_k32, 8, int, 4, int, int, 4)

// Sub-groups of 16: a row's part is 16 bits.
MAD_KERNEL(i8_i8_sg16, intel_sub_group_i8_i8_matrix_mad_k32, 16, short, 8, int, int, 8)
MAD_KERNEL(u8_i8_sg16, intel_sub_group_u8_i8_matrix_mad_k32, 16, ushort, 8, int, int, 8)
MAD_KERNEL(i4_u4_sg16, intel_sub_group_i4_u4_matrix_mad_k64, 16, short, 8, uint, int, 8)
MAD_KERNEL(u4_u4_sg16, intel_sub_group_u4_u4_matrix_mad_k64, 16, ushort, 8, uint, int, 8)
MAD_KERNEL(f16_sg16, intel_sub_group_f16_f16_matrix_mad_k16, 16, short, 8, int, float, 8)
MAD_KERNEL(bf16_sg16, intel_sub_group_bf16_bf16_matrix_mad_k16, 16, short, 8, int, float, 8)
MAD_KERNEL(f16_acc_f16_sg16, intel_sub_group_f16_f16_matrix_mad_k16, 16, short, 8, int, half, 8)
MAD_KERNEL(bf16_acc_bf16_sg16, intel_sub_group_bf16_bf16_matrix_mad_k16, 16, short, 8, int, short, 8)
MAD_KERNEL(bf16_sg16_m2, intel_sub_group_bf16_bf16_matrix_mad_k16, 16, short, 2, int, float, 2)

// tf32, sub-groups of 16: lanes 0-7 hold the even rows, lanes 8-15 the odd ones.
MAD_KERNEL(tf32_m1, intel_sub_group_tf32_tf32_matrix_mad_k8, 16, float, , float, float, )
MAD_KERNEL(tf32_m2, intel_sub_group_tf32_tf32_matrix_mad_k8, 16, float, , float, float, 2)
MAD_KERNEL(tf32_m4, intel_sub_group_tf32_tf32_matrix_mad_k8, 16, float, 2, float, float, 4)
MAD_KERNEL(tf32_m8, intel_sub_group_tf32_tf32_matrix_mad_k8, 16, float, 4, float, float, 8)
