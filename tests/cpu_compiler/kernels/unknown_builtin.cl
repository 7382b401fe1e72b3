// Calls a math built-in this driver does not provide.
kernel void unknown_builtin(global float *x) {
  x[get_global_id(0)] = tgamma(x[get_global_id(0)]);
}
