// SubgroupBlockReadINTEL and SubgroupBlockWriteINTEL on global buffers, 32- and 16-bit (cl_intel_subgroups_short)
// scalars and 2/4/8-vectors, at every sub-group size a zeal profile has. Sub-group g reads the S * N elements
// at in + g * stride (stride: S * N rounded up to 8 elements, so that every write is 16-byte aligned), stores
// what each work-item got to items, and block-writes it back to out at the same place.
#define BLOCK(NAME, SUF, T, E, N, S)                                                                   \
  __attribute__((intel_reqd_sub_group_size(S))) kernel void block_##NAME##_##S(                        \
      global const E *in, global E *out, global E *items) {                                            \
    uint stride = (S * N + 7) & ~7u;                                                                   \
    uint g = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();                              \
    T v = intel_sub_group_block_read##SUF(in + g * stride);                                            \
    ((global T *)items)[get_global_id(0)] = v;                                                         \
    intel_sub_group_block_write##SUF(out + g * stride, v);                                             \
  }
#define AT_EVERY_SIZE(NAME, SUF, T, E, N)                                                             \
  BLOCK(NAME, SUF, T, E, N, 4) BLOCK(NAME, SUF, T, E, N, 8) BLOCK(NAME, SUF, T, E, N, 16)              \
  BLOCK(NAME, SUF, T, E, N, 32) BLOCK(NAME, SUF, T, E, N, 64)

AT_EVERY_SIZE(uint, , uint, uint, 1) AT_EVERY_SIZE(uint2, 2, uint2, uint, 2)
AT_EVERY_SIZE(uint4, 4, uint4, uint, 4) AT_EVERY_SIZE(uint8, 8, uint8, uint, 8)
AT_EVERY_SIZE(ushort, _us, ushort, ushort, 1) AT_EVERY_SIZE(ushort2, _us2, ushort2, ushort, 2)
AT_EVERY_SIZE(ushort4, _us4, ushort4, ushort, 4) AT_EVERY_SIZE(ushort8, _us8, ushort8, ushort, 8)
