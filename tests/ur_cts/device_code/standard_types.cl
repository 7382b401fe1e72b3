// Stand-in for UR's device_code/standard_types.cpp: parallel_for<class Foo> over range<1>{1} of
// a lambda capturing [=] (in order of first use) a read-write accessor to one uint32_t and the
// volatile copies test_bool, test_u8, test_u32, test_u64, test_struct (two uint32_t, passed
// by value) and test_float, storing 100 + (test_bool ? 1 : 0) * test_u8 * test_u32 * test_u64 *
// test_struct.a * (uint32_t)test_float. A bool argument is one byte: since intel/llvm#17427
// DPC++ passes it as an 8-bit integer (OpTypeBool may not be a kernel parameter), and OpenCL C
// has no bool parameters either.
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E3Foo
#include "sycl_device.h"

struct Struct {
  uint a;
  uint b;
};

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E3Foo(global uint *acc, struct sycl_id1 acc_offset, uchar test_bool,
                     uchar test_u8, uint test_u32, ulong test_u64, struct Struct test_struct,
                     float test_float) {
  // The closure's copies are volatile, as in the SYCL source.
  volatile uchar v_bool = test_bool;
  volatile uchar v_u8 = test_u8;
  volatile uint v_u32 = test_u32;
  volatile ulong v_u64 = test_u64;
  volatile float v_float = test_float;
  size_t id = sycl_global_id(1, 0); // id<1>
  acc[acc_offset.offset[0] + id] = 100 + ((v_bool & 1) ? 1 : 0) * v_u8 * v_u32 * v_u64 *
                                             test_struct.a * (uint)v_float;
}
