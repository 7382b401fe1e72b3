// Integer built-ins, 16 results per work-item in table order (see builtins_test.cpp), per type and for int4.
#define INT_OPS(AS)                                                                                          \
  o[0] = AS(abs(x));                                                                                         \
  o[1] = AS(abs_diff(x, y));                                                                                 \
  o[2] = add_sat(x, y);                                                                                      \
  o[3] = sub_sat(x, y);                                                                                      \
  o[4] = hadd(x, y);                                                                                         \
  o[5] = rhadd(x, y);                                                                                        \
  o[6] = clz(x);                                                                                             \
  o[7] = ctz(x);                                                                                             \
  o[8] = popcount(x);                                                                                        \
  o[9] = mul_hi(x, y);                                                                                       \
  o[10] = mad_hi(x, y, z);                                                                                   \
  o[11] = rotate(x, y);                                                                                      \
  o[12] = min(x, y);                                                                                         \
  o[13] = max(x, y);                                                                                         \
  o[14] = clamp(x, min(y, z), max(y, z));                                                                    \
  o[15] = mad_sat(x, y, z);

#define INT_FAMILY(NAME, T, AS)                                                                              \
  kernel void NAME(global const T *a, global const T *b, global const T *c, global T *out) {                 \
    size_t i = get_global_id(0);                                                                             \
    T x = a[i], y = b[i], z = c[i];                                                                          \
    global T *o = out + i * 16;                                                                              \
    INT_OPS(AS)                                                                                              \
  }

INT_FAMILY(int_family, int, (int))
INT_FAMILY(uint_family, uint, (uint))
INT_FAMILY(char_family, char, (char))
INT_FAMILY(uchar_family, uchar, (uchar))
INT_FAMILY(short_family, short, (short))
INT_FAMILY(long_family, long, (long))
INT_FAMILY(ulong_family, ulong, (ulong))
INT_FAMILY(int4_family, int4, as_int4)

// upsample and the 24-bit multiplies (defined only for 24-bit operands).
kernel void int_misc(global const int *a, global const int *b, global const int *c, global long *out) {
  size_t i = get_global_id(0);
  int x = a[i], y = b[i], z = c[i];
  int x24 = (x << 8) >> 8, y24 = (y << 8) >> 8;
  global long *o = out + i * 5;
  o[0] = upsample((short)x, (ushort)y);
  o[1] = upsample(x, (uint)y);
  o[2] = (long)upsample((uchar)x, (uchar)y);
  o[3] = mul24(x24, y24);
  o[4] = mad24(x24, y24, z);
}
