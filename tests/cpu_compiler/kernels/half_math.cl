// The math library on half, scalar and half2 to half16; order as in half_math_test.cpp.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define LOAD_(p) p[i]
#define LOAD_2(p) vload2(i, p)
#define LOAD_3(p) vload3(i, p)
#define LOAD_4(p) vload4(i, p)
#define LOAD_8(p) vload8(i, p)
#define LOAD_16(p) vload16(i, p)
#define STORE_(v, at, p) p[at] = (v)
#define STORE_2(v, at, p) vstore2((v), at, p)
#define STORE_3(v, at, p) vstore3((v), at, p)
#define STORE_4(v, at, p) vstore4((v), at, p)
#define STORE_8(v, at, p) vstore8((v), at, p)
#define STORE_16(v, at, p) vstore16((v), at, p)
// Result k of work-item i, in a block of `count` results per work-item.
#define PUT(N, p, count, k, v) STORE_##N(v, i * count + k, p)

// Unary result k is f(x), binary result k is f(x, y), each in its own block of results per work-item.
#define U(N, k, f) PUT(N, out, 40, k, f(x))
#define B(N, k, f) PUT(N, out2, 17, k, f(x, y))

#define UNARY(N)                                                                                                  \
  U(N, 0, acos); U(N, 1, acosh); U(N, 2, acospi); U(N, 3, asin); U(N, 4, asinh); U(N, 5, asinpi); U(N, 6, atan);  \
  U(N, 7, atanh); U(N, 8, atanpi); U(N, 9, cbrt); U(N, 10, ceil); U(N, 11, cos); U(N, 12, cosh); U(N, 13, cospi); \
  U(N, 14, erfc); U(N, 15, erf); U(N, 16, exp); U(N, 17, exp2); U(N, 18, exp10); U(N, 19, expm1);                 \
  U(N, 20, fabs); U(N, 21, floor); U(N, 22, log); U(N, 23, log2); U(N, 24, log10); U(N, 25, log1p);               \
  U(N, 26, logb); U(N, 27, rint); U(N, 28, round); U(N, 29, rsqrt); U(N, 30, sin); U(N, 31, sinh);                \
  U(N, 32, sinpi); U(N, 33, sqrt); U(N, 34, tan); U(N, 35, tanh); U(N, 36, tanpi); U(N, 37, tgamma);              \
  U(N, 38, trunc); U(N, 39, lgamma);

#define BINARY(N)                                                                                                 \
  B(N, 0, atan2); B(N, 1, atan2pi); B(N, 2, fdim); B(N, 3, fmod); B(N, 4, hypot); B(N, 5, nextafter);             \
  B(N, 6, pow); B(N, 7, remainder); B(N, 8, maxmag); B(N, 9, minmag); B(N, 10, copysign);                         \
  PUT(N, out2, 17, 11, fma(x, y, x)); PUT(N, out2, 17, 12, x / y); PUT(N, out2, 17, 13, powr(fabs(x), y));        \
  PUT(N, out2, 17, 14, mad(x, y, x)); B(N, 15, fmin); B(N, 16, fmax);

#define MATH_KERNEL(N)                                                                                            \
  kernel void half_math##N(global const half *a, global const half *b, global half *out, global half *out2) {     \
    size_t i = get_global_id(0);                                                                                  \
    half##N x = LOAD_##N(a), y = LOAD_##N(b);                                                                     \
    UNARY(N)                                                                                                      \
    BINARY(N)                                                                                                     \
  }

MATH_KERNEL()
MATH_KERNEL(2)
MATH_KERNEL(3)
MATH_KERNEL(4)
MATH_KERNEL(8)
MATH_KERNEL(16)

// Functions with integer or pointer operands, and the common functions clamp, min and max.
#define SPECIAL_KERNEL(N)                                                                                         \
  kernel void half_special##N(global const half *a, global const int *n, global half *out, global int *iout) {    \
    size_t i = get_global_id(0);                                                                                  \
    half##N x = LOAD_##N(a);                                                                                      \
    int##N k = LOAD_##N(n);                                                                                       \
    PUT(N, out, 15, 0, pown(x, k)); PUT(N, out, 15, 1, rootn(x, k)); PUT(N, out, 15, 2, ldexp(x, k));             \
    int##N e;                                                                                                     \
    PUT(N, out, 15, 3, frexp(x, &e)); PUT(N, iout, 4, 0, e);                                                      \
    half##N whole;                                                                                                \
    PUT(N, out, 15, 4, modf(x, &whole)); PUT(N, out, 15, 5, whole);                                               \
    PUT(N, out, 15, 6, fract(x, &whole)); PUT(N, out, 15, 7, whole);                                              \
    half##N c;                                                                                                    \
    PUT(N, out, 15, 8, sincos(x, &c)); PUT(N, out, 15, 9, c);                                                     \
    PUT(N, iout, 4, 1, ilogb(x));                                                                                 \
    int##N q;                                                                                                     \
    PUT(N, out, 15, 10, remquo(x, (half##N)(0.75h), &q)); PUT(N, iout, 4, 2, q & 7);                              \
    PUT(N, out, 15, 11, nan(convert_ushort##N(k & 0xff)));                                                       \
    PUT(N, out, 15, 12, clamp(x, (half##N)(-1.5h), (half##N)(2.25h)));                                            \
    PUT(N, out, 15, 13, min(x, (half##N)(0.5h))); PUT(N, out, 15, 14, max(x, (half##N)(0.5h)));                   \
    PUT(N, iout, 4, 3, 0);                                                                                        \
  }

SPECIAL_KERNEL()
SPECIAL_KERNEL(4)
SPECIAL_KERNEL(8)
