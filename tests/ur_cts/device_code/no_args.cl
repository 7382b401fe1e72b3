// Stand-in for UR's device_code/no_args.cpp: parallel_for<class no_args> over range<3> of a
// lambda that takes a sycl::item<3> and only reads its id (no effect, no arguments).
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E7no_args

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E7no_args(void) {}
