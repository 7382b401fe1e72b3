// Stand-in for UR's device_code/spec_constant_multiple.cpp: parallel_for<class SpecConstant> over
// the buffer's range<1> of a lambda capturing [=] a write accessor to one uint64_t that stores
// b - a if c else b + a, for the specialization constants a (uint32_t), b (uint64_t) and
// c (bool), all default 0. sycl-post-link numbers them in the order the kernel reads them
// (SpecId 0, 1, 2) and gives a bool an 8-bit OpSpecConstant (its size in memory) that the
// kernel truncates to a bool.
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E12SpecConstant
#include "sycl_device.h"

uint __attribute__((overloadable)) __spirv_SpecConstant(int id, uint default_value);
ulong __attribute__((overloadable)) __spirv_SpecConstant(int id, ulong default_value);
uchar __attribute__((overloadable)) __spirv_SpecConstant(int id, uchar default_value);

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E12SpecConstant(global ulong *out_acc, struct sycl_id1 out_acc_offset) {
  uint a = __spirv_SpecConstant(0, 0u);
  ulong b = __spirv_SpecConstant(1, 0ul);
  bool c = __spirv_SpecConstant(2, (uchar)0) & 1;
  if (c) {
    out_acc[out_acc_offset.offset[0] + 0] = b - a;
  } else {
    out_acc[out_acc_offset.offset[0] + 0] = b + a;
  }
}
