// Calls a built-in this driver does not provide: prefetch.
kernel void unknown_builtin(global float4 *x) {
  prefetch(x + get_global_id(0), 1);
}
