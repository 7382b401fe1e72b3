// Stand-in for UR's device_code/fixed_wg_size.cpp: parallel_for<class FixedWgSize> over
// range<3>(8, 8, 8) of a functor with the property work_group_size<8, 4, 2> and an empty
// operator()(sycl::item<3>). SYCL's dimensions are SPIR-V's reversed, so DPC++ emits
// ExecutionMode LocalSize 2 4 8, which UR reports as the compile work-group size {2, 4, 8}.
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E11FixedWgSize

kernel void __attribute__((reqd_work_group_size(2, 4, 8))) _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E11FixedWgSize(void) {}
