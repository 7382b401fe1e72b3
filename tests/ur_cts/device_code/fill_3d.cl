// Stand-in for UR's device_code/fill_3d.cpp: parallel_for<class fill_3d> over an nd_range<3> of
// a lambda capturing [A_acc, val] (a write accessor to a one-dimensional buffer of uint32_t,
// and the value) that stores val at the nd_item's global linear id.
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E7fill_3d
#include "sycl_device.h"

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E7fill_3d(global uint *A_acc, struct sycl_id1 A_acc_offset, uint val) {
  size_t id = sycl_global_linear_id(3);
  A_acc[A_acc_offset.offset[0] + id] = val;
}
