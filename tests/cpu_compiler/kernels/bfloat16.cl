// bfloat16 conversions by IGC's names, which oneCCL's kernels import (the driver defines them).
ushort __builtin_spirv_OpConvertFToBF16INTEL_f32(float);
ushort2 __builtin_spirv_OpConvertFToBF16INTEL_v2f32(float2);
ushort3 __builtin_spirv_OpConvertFToBF16INTEL_v3f32(float3);
ushort4 __builtin_spirv_OpConvertFToBF16INTEL_v4f32(float4);
ushort8 __builtin_spirv_OpConvertFToBF16INTEL_v8f32(float8);
ushort16 __builtin_spirv_OpConvertFToBF16INTEL_v16f32(float16);
float __builtin_spirv_OpConvertBF16ToFINTEL_i16(ushort);
float2 __builtin_spirv_OpConvertBF16ToFINTEL_v2i16(ushort2);
float3 __builtin_spirv_OpConvertBF16ToFINTEL_v3i16(ushort3);
float4 __builtin_spirv_OpConvertBF16ToFINTEL_v4i16(ushort4);
float8 __builtin_spirv_OpConvertBF16ToFINTEL_v8i16(ushort8);
float16 __builtin_spirv_OpConvertBF16ToFINTEL_v16i16(ushort16);

// Width N both ways, into the work-item's block `at` of 16 results.
#define CONVERT(N, at)                                                                                        \
  vstore##N(__builtin_spirv_OpConvertFToBF16INTEL_v##N##f32(vload##N(0, x)), 0, a + 16 * at);                 \
  vstore##N(__builtin_spirv_OpConvertBF16ToFINTEL_v##N##i16(vload##N(0, y)), 0, b + 16 * at)

// Work-item i converts floats [16 i, 16 i + 16) with each width, and the bfloat16 bits back.
kernel void igc_bfloat16(global const float *f, global const ushort *h, global ushort *to_bf16, global float *to_float) {
  size_t i = get_global_id(0);
  global const float *x = f + 16 * i;
  global const ushort *y = h + 16 * i;
  global ushort *a = to_bf16 + 6 * 16 * i;
  global float *b = to_float + 6 * 16 * i;
  a[0] = __builtin_spirv_OpConvertFToBF16INTEL_f32(x[0]);
  b[0] = __builtin_spirv_OpConvertBF16ToFINTEL_i16(y[0]);
  CONVERT(2, 1);
  CONVERT(3, 2);
  CONVERT(4, 3);
  CONVERT(8, 4);
  CONVERT(16, 5);
}
