// Stand-in for UR's device_code/sequence.cpp: two single_task kernels named by classes declared
// at namespace scope, Add and Mul, each capturing [=] a read-write accessor to one uint32_t.
// Add increments the element 1000 times, Mul doubles it twice, through a volatile copy so that
// the loops stay loops. (Written as do-while loops: the for loops' blocks come out of
// llvm-spirv-15 with the exit block before the loop body, which spirv-val rejects.)
// kernels: _ZTS3Add _ZTS3Mul
#include "sycl_device.h"

kernel void _ZTS3Add(global uint *acc, struct sycl_id1 acc_offset) {
  uint i = 0;
  do {
    volatile uint tmp = acc[acc_offset.offset[0] + 0];
    acc[acc_offset.offset[0] + 0] = tmp + 1;
  } while (++i < 1000);
}

kernel void _ZTS3Mul(global uint *acc, struct sycl_id1 acc_offset) {
  uint i = 0;
  do {
    volatile uint tmp = acc[acc_offset.offset[0] + 0];
    acc[acc_offset.offset[0] + 0] = tmp * 2;
  } while (++i < 2);
}
