// Stand-in for UR's device_code/fill_usm_2d.cpp: parallel_for<class fill_2d> (the kernel keeps
// fill_2d.cpp's name) over an nd_range<2> of a lambda capturing [data, val] (a USM pointer to
// uint32_t, and the value) that stores val at the nd_item's global linear id.
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E7fill_2d
#include "sycl_device.h"

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E7fill_2d(global uint *data, uint val) {
  size_t id = sycl_global_linear_id(2);
  data[id] = val;
}
