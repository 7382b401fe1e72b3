// Stand-in for UR's device_code/foo.cpp: parallel_for<class Foo> over range<1>{1} of a lambda
// that takes a sycl::id<1> and does nothing.
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E3Foo

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E3Foo(void) {}
