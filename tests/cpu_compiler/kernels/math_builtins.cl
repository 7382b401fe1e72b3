// The math library: unary and binary functions in float and double, and float4 forms; order in builtins_test.cpp.
#define UNARY(f, T)                                                                                          \
  o[0] = acos(x); o[1] = acosh(x); o[2] = acospi(x); o[3] = asin(x); o[4] = asinh(x); o[5] = asinpi(x);     \
  o[6] = atan(x); o[7] = atanh(x); o[8] = atanpi(x); o[9] = cbrt(x); o[10] = ceil(x); o[11] = cos(x);       \
  o[12] = cosh(x); o[13] = cospi(x); o[14] = erfc(x); o[15] = erf(x); o[16] = exp(x); o[17] = exp2(x);      \
  o[18] = exp10(x); o[19] = expm1(x); o[20] = fabs(x); o[21] = floor(x); o[22] = log(x); o[23] = log2(x);   \
  o[24] = log10(x); o[25] = log1p(x); o[26] = logb(x); o[27] = rint(x); o[28] = round(x); o[29] = rsqrt(x); \
  o[30] = sin(x); o[31] = sinh(x); o[32] = sinpi(x); o[33] = sqrt(x); o[34] = tan(x); o[35] = tanh(x);      \
  o[36] = tanpi(x); o[37] = tgamma(x); o[38] = trunc(x); o[39] = lgamma(x);

#define BINARY(T)                                                                                            \
  p[0] = atan2(x, y); p[1] = atan2pi(x, y); p[2] = fdim(x, y); p[3] = fmod(x, y); p[4] = hypot(x, y);       \
  p[5] = nextafter(x, y); p[6] = pow(x, y); p[7] = remainder(x, y); p[8] = maxmag(x, y);                    \
  p[9] = minmag(x, y); p[10] = copysign(x, y); p[11] = fma(x, y, x); p[12] = x / y; p[13] = powr(fabs(x), y);

// One kernel per element type: work-item i's 40 unary results at out + 40 i, its 14 binary ones at out2 + 14 i.
#define MATH_KERNEL(name, T)                                                                                 \
  kernel void name(global const T *a, global const T *b, global T *out, global T *out2) {                    \
    size_t i = get_global_id(0);                                                                             \
    T x = a[i], y = b[i];                                                                                    \
    global T *o = out + i * 40;                                                                              \
    global T *p = out2 + i * 14;                                                                             \
    UNARY(f, T)                                                                                              \
    BINARY(T)                                                                                                \
  }

MATH_KERNEL(math_float, float)
MATH_KERNEL(math_double, double)
// float4 forms: lane j of work-item i uses input 4 * i + j.
MATH_KERNEL(math_float4, float4)

// Functions with integer or pointer operands.
kernel void math_special(global const float *a, global const int *n, global float *out, global int *iout) {
  size_t i = get_global_id(0);
  float x = a[i];
  int k = n[i];
  global float *o = out + i * 11;
  global int *io = iout + i * 4;
  o[0] = pown(x, k);
  o[1] = rootn(x, k);
  o[2] = ldexp(x, k);
  int e;
  o[3] = frexp(x, &e);
  io[0] = e;
  float whole;
  o[4] = modf(x, &whole);
  o[5] = whole;
  o[6] = fract(x, &whole);
  o[7] = whole;
  float c;
  o[8] = sincos(x, &c);
  o[9] = c;
  io[1] = ilogb(x);
  int q;
  float r = remquo(x, 0.75f, &q);
  io[2] = q & 7;
  o[10] = r;
  io[3] = as_int(nan((uint)k & 0xff));
}

// powr on the special cases the OpenCL C spec lists for it.
kernel void powr_special(global const float *x, global const float *y, global float *out) {
  size_t i = get_global_id(0);
  out[i] = powr(x[i], y[i]);
}

// The functions libmvec has vector forms of, one output array each: the x loop vectorises and calls them.
#define VECTOR_MATH_KERNEL(name, T)                                                                          \
  kernel void name(global const T *a, global const T *b, global T *out) {                                    \
    size_t i = get_global_id(0), n = get_global_size(0);                                                     \
    T x = a[i], y = b[i];                                                                                    \
    out[i] = sin(x); out[n + i] = cos(x); out[2 * n + i] = exp(x); out[3 * n + i] = log(x);                  \
    out[4 * n + i] = pow(x, y);                                                                              \
  }

VECTOR_MATH_KERNEL(vector_math_float, float)
VECTOR_MATH_KERNEL(vector_math_double, double)
