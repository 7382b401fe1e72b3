// Stand-in for UR's device_code/build_failure.cpp: single_task<class Foo> whose device code is
// the inline assembly "undefined", which no device compiler accepts. Like DPC++ (whose
// translator enables SPV_INTEL_inline_assembly), llvm-spirv turns it into OpAsmTargetINTEL,
// OpAsmINTEL and OpAsmCallINTEL, so the module is well formed and its build must fail.
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E3Foo

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E3Foo(void) { __asm__ volatile("undefined\n"); }
