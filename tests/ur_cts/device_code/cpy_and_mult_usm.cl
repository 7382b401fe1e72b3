// Stand-in for UR's device_code/cpy_and_mult_usm.cpp: parallel_for<class cpy_and_mult_usm> over
// range<1> of a lambda capturing [src, dst] (USM pointers to uint32_t) that stores twice the
// source element in the destination.
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E16cpy_and_mult_usm
#include "sycl_device.h"

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E16cpy_and_mult_usm(global uint *src, global uint *dst) {
  size_t id = sycl_global_id(1, 0); // item<1>::get_id(0)
  dst[id] = src[id] * 2;
}
