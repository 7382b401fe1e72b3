// Stand-in for UR's device_code/indexers_usm.cpp: parallel_for<class indexers> over an
// nd_range<3> (with a global offset) of a lambda capturing [ptr] (a USM pointer to int) that
// writes, at six ints per work-item from its global linear id, the global id and the local id
// in SYCL's dimension order (SYCL's dimension 0 is SPIR-V's z).
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E8indexers
#include "sycl_device.h"

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E8indexers(global int *ptr) {
  const size_t elements_per_work_item = 6;
  global int *wi_ptr = ptr + sycl_global_linear_id(3) * elements_per_work_item;
  wi_ptr[0] = sycl_global_id(3, 0);
  wi_ptr[1] = sycl_global_id(3, 1);
  wi_ptr[2] = sycl_global_id(3, 2);
  wi_ptr[3] = sycl_local_id(3, 0);
  wi_ptr[4] = sycl_local_id(3, 1);
  wi_ptr[5] = sycl_local_id(3, 2);
}
