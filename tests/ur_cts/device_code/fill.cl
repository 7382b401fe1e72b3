// Stand-in for UR's device_code/fill.cpp: parallel_for<class fill> over range<1> of a lambda
// capturing [A_acc, val] (a write accessor to a buffer of uint32_t, and the value) that stores
// val at the item's id.
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E4fill
#include "sycl_device.h"

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E4fill(global uint *A_acc, struct sycl_id1 A_acc_offset, uint val) {
  size_t id = sycl_global_id(1, 0); // item<1>::get_id(0)
  A_acc[A_acc_offset.offset[0] + id] = val;
}
