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

#define UNARY(N)                                                                                                  \
  PUT(N, out, 40, 0, acos(x)); PUT(N, out, 40, 1, acosh(x)); PUT(N, out, 40, 2, acospi(x));                       \
  PUT(N, out, 40, 3, asin(x)); PUT(N, out, 40, 4, asinh(x)); PUT(N, out, 40, 5, asinpi(x));                       \
  PUT(N, out, 40, 6, atan(x)); PUT(N, out, 40, 7, atanh(x)); PUT(N, out, 40, 8, atanpi(x));                       \
  PUT(N, out, 40, 9, cbrt(x)); PUT(N, out, 40, 10, ceil(x)); PUT(N, out, 40, 11, cos(x));                         \
  PUT(N, out, 40, 12, cosh(x)); PUT(N, out, 40, 13, cospi(x)); PUT(N, out, 40, 14, erfc(x));                      \
  PUT(N, out, 40, 15, erf(x)); PUT(N, out, 40, 16, exp(x)); PUT(N, out, 40, 17, exp2(x));                         \
  PUT(N, out, 40, 18, exp10(x)); PUT(N, out, 40, 19, expm1(x)); PUT(N, out, 40, 20, fabs(x));                     \
  PUT(N, out, 40, 21, floor(x)); PUT(N, out, 40, 22, log(x)); PUT(N, out, 40, 23, log2(x));                       \
  PUT(N, out, 40, 24, log10(x)); PUT(N, out, 40, 25, log1p(x)); PUT(N, out, 40, 26, logb(x));                     \
  PUT(N, out, 40, 27, rint(x)); PUT(N, out, 40, 28, round(x)); PUT(N, out, 40, 29, rsqrt(x));                     \
  PUT(N, out, 40, 30, sin(x)); PUT(N, out, 40, 31, sinh(x)); PUT(N, out, 40, 32, sinpi(x));                       \
  PUT(N, out, 40, 33, sqrt(x)); PUT(N, out, 40, 34, tan(x)); PUT(N, out, 40, 35, tanh(x));                        \
  PUT(N, out, 40, 36, tanpi(x)); PUT(N, out, 40, 37, tgamma(x)); PUT(N, out, 40, 38, trunc(x));                   \
  PUT(N, out, 40, 39, lgamma(x));

#define BINARY(N)                                                                                                 \
  PUT(N, out2, 17, 0, atan2(x, y)); PUT(N, out2, 17, 1, atan2pi(x, y)); PUT(N, out2, 17, 2, fdim(x, y));          \
  PUT(N, out2, 17, 3, fmod(x, y)); PUT(N, out2, 17, 4, hypot(x, y)); PUT(N, out2, 17, 5, nextafter(x, y));        \
  PUT(N, out2, 17, 6, pow(x, y)); PUT(N, out2, 17, 7, remainder(x, y)); PUT(N, out2, 17, 8, maxmag(x, y));        \
  PUT(N, out2, 17, 9, minmag(x, y)); PUT(N, out2, 17, 10, copysign(x, y)); PUT(N, out2, 17, 11, fma(x, y, x));    \
  PUT(N, out2, 17, 12, x / y); PUT(N, out2, 17, 13, powr(fabs(x), y)); PUT(N, out2, 17, 14, mad(x, y, x));        \
  PUT(N, out2, 17, 15, fmin(x, y)); PUT(N, out2, 17, 16, fmax(x, y));

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
