// convert_<type>[n][_sat][_<mode>] from each element type to every one: the result's bits, zero-extended,
// are result k of work-item i (lane by lane for vectors); order as in conversion_builtins_test.cpp.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define CAT(a, b) a##b
#define XCAT(a, b) CAT(a, b)
#define CAT3(a, b, c) a##b##c
#define XCAT3(a, b, c) CAT3(a, b, c)

#define BITS_char uchar
#define BITS_uchar uchar
#define BITS_short ushort
#define BITS_ushort ushort
#define BITS_int uint
#define BITS_uint uint
#define BITS_long ulong
#define BITS_ulong ulong
#define BITS_half ushort
#define BITS_float uint
#define BITS_double ulong

#define LOAD_(p) p[i]
#define LOAD_4(p) vload4(i, p)
#define STORE_(v, at) out[at] = (v)
#define STORE_4(v, at) vstore4((v), at, out)
#define COUNT 95

// The bits of a T##N value as ulong##N.
#define PUT(k, T, N, value) STORE_##N(XCAT(convert_ulong, N)(XCAT3(as_, BITS_##T, N)(value)), i * COUNT + (k))

#define TO_INTEGER(k, T, N)                                                                                       \
  PUT(k, T, N, convert_##T##N(x)); PUT(k + 1, T, N, convert_##T##N##_rte(x));                                    \
  PUT(k + 2, T, N, convert_##T##N##_rtz(x)); PUT(k + 3, T, N, convert_##T##N##_rtp(x));                         \
  PUT(k + 4, T, N, convert_##T##N##_rtn(x)); PUT(k + 5, T, N, convert_##T##N##_sat(x));                         \
  PUT(k + 6, T, N, convert_##T##N##_sat_rte(x)); PUT(k + 7, T, N, convert_##T##N##_sat_rtz(x));                 \
  PUT(k + 8, T, N, convert_##T##N##_sat_rtp(x)); PUT(k + 9, T, N, convert_##T##N##_sat_rtn(x));

#define TO_FLOATING(k, T, N)                                                                                      \
  PUT(k, T, N, convert_##T##N(x)); PUT(k + 1, T, N, convert_##T##N##_rte(x));                                    \
  PUT(k + 2, T, N, convert_##T##N##_rtz(x)); PUT(k + 3, T, N, convert_##T##N##_rtp(x));                         \
  PUT(k + 4, T, N, convert_##T##N##_rtn(x));

#define CONVERT_KERNEL(S, N)                                                                                      \
  kernel void convert_from_##S##N(global const S *in, global ulong *out) {                                        \
    size_t i = get_global_id(0);                                                                                  \
    S##N x = LOAD_##N(in);                                                                                        \
    TO_INTEGER(0, char, N) TO_INTEGER(10, uchar, N) TO_INTEGER(20, short, N) TO_INTEGER(30, ushort, N)            \
    TO_INTEGER(40, int, N) TO_INTEGER(50, uint, N) TO_INTEGER(60, long, N) TO_INTEGER(70, ulong, N)               \
    TO_FLOATING(80, half, N) TO_FLOATING(85, float, N) TO_FLOATING(90, double, N)                                 \
  }

CONVERT_KERNEL(char, )
CONVERT_KERNEL(uchar, )
CONVERT_KERNEL(short, )
CONVERT_KERNEL(ushort, )
CONVERT_KERNEL(int, )
CONVERT_KERNEL(uint, )
CONVERT_KERNEL(long, )
CONVERT_KERNEL(ulong, )
CONVERT_KERNEL(half, )
CONVERT_KERNEL(float, )
CONVERT_KERNEL(double, )
CONVERT_KERNEL(half, 4)
CONVERT_KERNEL(float, 4)
CONVERT_KERNEL(int, 4)
CONVERT_KERNEL(ulong, 4)
