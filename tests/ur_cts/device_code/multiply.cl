// Stand-in for UR's device_code/multiply.cpp: parallel_for<class MultiplyBy2> over range<1> of a
// lambda capturing [=] the USM pointer inputArray (uint32_t) that doubles the element at the id.
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E11MultiplyBy2
#include "sycl_device.h"

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E11MultiplyBy2(global uint *inputArray) {
  size_t id = sycl_global_id(1, 0); // id<1>
  inputArray[id] *= 2;
}
