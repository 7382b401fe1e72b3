// Calls a built-in this driver does not provide: the vector shuffle with a runtime mask.
kernel void unknown_builtin(global float4 *x, global uint4 *mask) {
  x[get_global_id(0)] = shuffle(x[get_global_id(0)], mask[get_global_id(0)]);
}
