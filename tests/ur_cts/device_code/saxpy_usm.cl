// Stand-in for UR's device_code/saxpy_usm.cpp: parallel_for<class saxpy> over range<1> of a
// lambda capturing [=] (in order of first use: the USM pointer Z, the scalar A, the USM
// pointers X and Y, all uint32_t) that computes Z = A * X + Y at the item.
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E5saxpy
#include "sycl_device.h"

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E5saxpy(global uint *Z, uint A, global uint *X, global uint *Y) {
  size_t i = sycl_global_id(1, 0); // item<1>::get_id(0)
  Z[i] = A * X[i] + Y[i];
}
