// Stand-in for UR's device_code/fill_2d.cpp: parallel_for<class fill_2d> over an nd_range<2>
// (sycl_device.h holds the kernel body fill_2d and fill_3d share).
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E7fill_2d
#include "sycl_device.h"

SYCL_FILL_ACCESSOR_KERNEL(_ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E7fill_2d, 2)
