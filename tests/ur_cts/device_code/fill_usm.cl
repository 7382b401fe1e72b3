// Stand-in for UR's device_code/fill_usm.cpp: parallel_for<class fill_usm> over range<1> of a
// lambda capturing [data, val] (a USM pointer to uint32_t, and the value) that stores val at
// the item's id.
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E8fill_usm
#include "sycl_device.h"

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E8fill_usm(global uint *data, uint val) {
  size_t id = sycl_global_id(1, 0); // item<1>::get_id(0)
  data[id] = val;
}
