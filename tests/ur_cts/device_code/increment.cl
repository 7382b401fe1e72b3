// Stand-in for UR's device_code/increment.cpp: parallel_for<class IncrementBy1> over range<1> of
// a lambda capturing [=] the USM pointer inputArray (uint32_t) that adds 1 to the element at
// the id.
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E12IncrementBy1
#include "sycl_device.h"

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E12IncrementBy1(global uint *inputArray) {
  size_t id = sycl_global_id(1, 0); // id<1>
  inputArray[id] += 1;
}
