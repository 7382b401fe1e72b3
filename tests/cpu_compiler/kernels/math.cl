// Math built-ins in float, double and float4 form; one result per slot.
kernel void math_float(global const float *x, global float *out) {
  float a = x[0], b = x[1], c = x[2];
  out[0] = sqrt(a);
  out[1] = fabs(-a);
  out[2] = floor(b);
  out[3] = ceil(b);
  out[4] = fma(a, b, c);
  out[5] = fmin(a, b);
  out[6] = fmax(a, b);
  out[7] = exp(b);
  out[8] = log(a);
  out[9] = sin(b);
  out[10] = cos(b);
  out[11] = pow(a, b);
}

kernel void math_double(global const double *x, global double *out) {
  double a = x[0], b = x[1], c = x[2];
  out[0] = sqrt(a);
  out[1] = fabs(-a);
  out[2] = floor(b);
  out[3] = ceil(b);
  out[4] = fma(a, b, c);
  out[5] = fmin(a, b);
  out[6] = fmax(a, b);
  out[7] = exp(b);
  out[8] = log(a);
  out[9] = sin(b);
  out[10] = cos(b);
  out[11] = pow(a, b);
}

kernel void math_vector(global const float4 *x, global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = sqrt(x[i]) + exp(x[i]);
}
