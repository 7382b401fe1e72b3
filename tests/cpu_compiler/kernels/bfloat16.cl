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

// Work-item i converts floats [16 i, 16 i + 16) with each width, and the bfloat16 bits back.
kernel void igc_bfloat16(global const float *f, global const ushort *h, global ushort *to_bf16, global float *to_float) {
  size_t i = get_global_id(0);
  global const float *x = f + 16 * i;
  global const ushort *y = h + 16 * i;
  global ushort *a = to_bf16 + 6 * 16 * i;
  global float *b = to_float + 6 * 16 * i;
  a[0] = __builtin_spirv_OpConvertFToBF16INTEL_f32(x[0]);
  vstore2(__builtin_spirv_OpConvertFToBF16INTEL_v2f32(vload2(0, x)), 0, a + 16);
  vstore3(__builtin_spirv_OpConvertFToBF16INTEL_v3f32(vload3(0, x)), 0, a + 32);
  vstore4(__builtin_spirv_OpConvertFToBF16INTEL_v4f32(vload4(0, x)), 0, a + 48);
  vstore8(__builtin_spirv_OpConvertFToBF16INTEL_v8f32(vload8(0, x)), 0, a + 64);
  vstore16(__builtin_spirv_OpConvertFToBF16INTEL_v16f32(vload16(0, x)), 0, a + 80);
  b[0] = __builtin_spirv_OpConvertBF16ToFINTEL_i16(y[0]);
  vstore2(__builtin_spirv_OpConvertBF16ToFINTEL_v2i16(vload2(0, y)), 0, b + 16);
  vstore3(__builtin_spirv_OpConvertBF16ToFINTEL_v3i16(vload3(0, y)), 0, b + 32);
  vstore4(__builtin_spirv_OpConvertBF16ToFINTEL_v4i16(vload4(0, y)), 0, b + 48);
  vstore8(__builtin_spirv_OpConvertBF16ToFINTEL_v8i16(vload8(0, y)), 0, b + 64);
  vstore16(__builtin_spirv_OpConvertBF16ToFINTEL_v16i16(vload16(0, y)), 0, b + 80);
}
