// Stand-in for UR's device_code/saxpy.cpp: parallel_for<class saxpy> over range<1> of a lambda
// capturing [=] (in order of first use: the write accessor z_acc, the scalar A, the read
// accessors x_acc and y_acc, all uint32_t) that computes z = A * x + y at the item.
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E5saxpy
#include "sycl_device.h"

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E5saxpy(global uint *z_acc, struct sycl_id1 z_acc_offset, uint A,
                       global const uint *x_acc, struct sycl_id1 x_acc_offset,
                       global const uint *y_acc, struct sycl_id1 y_acc_offset) {
  size_t i = sycl_global_id(1, 0); // item<1>::get_id(0)
  z_acc[z_acc_offset.offset[0] + i] =
      A * x_acc[x_acc_offset.offset[0] + i] + y_acc[y_acc_offset.offset[0] + i];
}
