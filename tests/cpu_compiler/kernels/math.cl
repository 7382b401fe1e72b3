// Math built-ins in float, double and float4 form; one result per slot.
// The same twelve calls in float and in double: slot k of `out` holds the same call in either.
#define MATH_SCALAR(name, T)                                                                                \
  kernel void name(global const T *x, global T *out) {                                                      \
    T a = x[0], b = x[1], c = x[2];                                                                         \
    out[0] = sqrt(a); out[1] = fabs(-a); out[2] = floor(b); out[3] = ceil(b);                               \
    out[4] = fma(a, b, c); out[5] = fmin(a, b); out[6] = fmax(a, b); out[7] = exp(b);                       \
    out[8] = log(a); out[9] = sin(b); out[10] = cos(b); out[11] = pow(a, b);                                \
  }

MATH_SCALAR(math_float, float)
MATH_SCALAR(math_double, double)

kernel void math_vector(global const float4 *x, global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = sqrt(x[i]) + exp(x[i]);
}
