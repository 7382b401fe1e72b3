// Stand-in for UR's device_code/linker_error.cpp: parallel_for<class Foo> over range<1>{1} whose
// kernel calls the SYCL_EXTERNAL function this_function_does_not_exist(), declared and never
// defined. The SPIR-V imports _Z28this_function_does_not_existv (LinkageAttributes Import), so
// compiling the program succeeds and linking it fails. (overloadable gives the C++ mangling.)
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E3Foo

void __attribute__((overloadable)) this_function_does_not_exist(void);

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E3Foo(void) { this_function_does_not_exist(); }
