// Stand-in for UR's device_code/spec_constant.cpp: parallel_for<class SpecConstant> over the
// buffer's range<1> of a lambda capturing [=] a write accessor to one uint32_t that stores the
// specialization constant spec_const (uint32_t, default 1000). DPC++ (sycl-post-link, then the
// translator) turns it into OpSpecConstant %uint 1000 decorated SpecId 0; llvm-spirv does the
// same with a call to __spirv_SpecConstant. On SPIR-V targets the kernel_handler adds no
// argument.
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E12SpecConstant
#include "sycl_device.h"

uint __attribute__((overloadable)) __spirv_SpecConstant(int id, uint default_value);

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E12SpecConstant(global uint *out_acc, struct sycl_id1 out_acc_offset) {
  uint spec_const_val = __spirv_SpecConstant(0, 1000u);
  out_acc[out_acc_offset.offset[0] + 0] = spec_const_val;
}
