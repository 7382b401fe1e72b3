// bfloat16 conversions by the names of cl_intel_bfloat16_conversions, which clang 15 does not declare:
// llvm-spirv turns them into OpConvertFToBF16INTEL and OpConvertBF16ToFINTEL (capability Bfloat16ConversionINTEL).
#define OVERLOAD __attribute__((overloadable))
ushort OVERLOAD intel_convert_bfloat16_as_ushort(float);
ushort4 OVERLOAD intel_convert_bfloat16_as_ushort4(float4);
float OVERLOAD intel_convert_as_bfloat16_float(ushort);
float4 OVERLOAD intel_convert_as_bfloat16_float4(ushort4);

// Work-item i converts floats [4 i, 4 i + 4) as scalars and as a vector, and the bits back.
kernel void intel_bfloat16(global const float *f, global const ushort *h, global ushort *to_bf16, global float *to_float) {
  size_t i = get_global_id(0);
  for (int j = 0; j < 4; ++j) {
    to_bf16[8 * i + j] = intel_convert_bfloat16_as_ushort(f[4 * i + j]);
    to_float[8 * i + j] = intel_convert_as_bfloat16_float(h[4 * i + j]);
  }
  vstore4(intel_convert_bfloat16_as_ushort4(vload4(i, f)), 2 * i + 1, to_bf16);
  vstore4(intel_convert_as_bfloat16_float4(vload4(i, h)), 2 * i + 1, to_float);
}
