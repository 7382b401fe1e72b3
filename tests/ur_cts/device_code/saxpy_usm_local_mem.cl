// Stand-in for UR's device_code/saxpy_usm_local_mem.cpp: parallel_for<class saxpy_usm_local_mem>
// over an nd_range<1> of a lambda capturing [=] (in order of first use: the local accessors
// local_mem_A and local_mem_B, the USM pointer Z, the scalar A, the USM pointers X and Y, all
// uint32_t). A local accessor reaches the kernel as a local pointer only: DPC++ drops its
// ranges and offset as dead arguments. Each work-item stores its global id, minus that id and
// the local range in its own slots, and adds the three to A * X + Y, so Z = A * X + Y + local
// range; it reads only what it wrote, and the SYCL code has no barrier.
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E19saxpy_usm_local_mem
#include "sycl_device.h"

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E19saxpy_usm_local_mem(local uint *local_mem_A, local uint *local_mem_B,
                                      global uint *Z, uint A, global uint *X, global uint *Y) {
  size_t i = sycl_global_linear_id(1);
  size_t local_id = sycl_local_linear_id(1);
  local_mem_A[local_id] = i;
  local_mem_B[local_id * 2] = -i;
  local_mem_B[(local_id * 2) + 1] = sycl_local_range(1, 0);
  Z[i] = A * X[i] + Y[i] + local_mem_A[local_id] + local_mem_B[local_id * 2] +
         local_mem_B[(local_id * 2) + 1];
}
