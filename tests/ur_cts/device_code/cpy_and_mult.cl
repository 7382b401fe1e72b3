// Stand-in for UR's device_code/cpy_and_mult.cpp: parallel_for<class cpy_and_mult> over range<1>
// of a lambda capturing [src_acc, dst_acc] (read and write accessors to buffers of uint32_t)
// that stores twice the source element in the destination.
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E12cpy_and_mult
#include "sycl_device.h"

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E12cpy_and_mult(global const uint *src_acc, struct sycl_id1 src_acc_offset,
                               global uint *dst_acc, struct sycl_id1 dst_acc_offset) {
  size_t id = sycl_global_id(1, 0); // item<1>::get_id(0)
  dst_acc[dst_acc_offset.offset[0] + id] = src_acc[src_acc_offset.offset[0] + id] * 2;
}
