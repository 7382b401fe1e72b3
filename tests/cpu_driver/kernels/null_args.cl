// One argument of each kind a caller may set with a null value: a by-value struct wrapping a pointer
// (as AdaptiveCpp passes pointers), a scalar, a global pointer and local memory.
typedef struct {
  global int *ptr;
  int count;
} wrapped_ptr;

// out[5 * i ...]: what wrapped.ptr points at (-1 when null), wrapped.count, scalar, what maybe points at
// (-1 when null), and a neighbour's id read back through local memory.
kernel void null_args(global int *out, wrapped_ptr wrapped, int scalar, global int *maybe, local int *scratch) {
  size_t i = get_global_id(0);
  size_t l = get_local_id(0);
  scratch[l] = (int)i;
  barrier(CLK_LOCAL_MEM_FENCE);
  global int *o = out + 5 * i;
  o[0] = wrapped.ptr == 0 ? -1 : wrapped.ptr[i];
  o[1] = wrapped.count;
  o[2] = scalar;
  o[3] = maybe == 0 ? -1 : maybe[i];
  o[4] = scratch[get_local_size(0) - 1 - l];
}
