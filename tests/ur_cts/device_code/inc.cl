// Stand-in for UR's device_code/inc.cpp: parallel_for<inc> (a class declared at namespace
// scope) over range<1>{1} of a lambda capturing [acc] (a read-write accessor to a buffer of
// uint32_t) that increments the element at the item.
// kernels: _ZTS3inc
#include "sycl_device.h"

kernel void _ZTS3inc(global uint *acc, struct sycl_id1 acc_offset) {
  size_t id = sycl_global_id(1, 0); // accessor::operator[](item<1>) reads the item's id
  acc[acc_offset.offset[0] + id]++;
}
