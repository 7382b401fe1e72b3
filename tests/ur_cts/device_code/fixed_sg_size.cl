// Stand-in for UR's device_code/fixed_sg_size.cpp: parallel_for<class FixedSgSize> over
// range<3>(8, 8, 8) of a functor with the property sub_group_size<8> and an empty
// operator()(sycl::item<3>). DPC++ emits the property as ExecutionMode SubgroupSize 8.
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E11FixedSgSize

kernel void __attribute__((intel_reqd_sub_group_size(8))) _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E11FixedSgSize(void) {}
