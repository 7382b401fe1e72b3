// SubgroupShuffleINTEL, ShuffleDownINTEL, ShuffleUpINTEL and ShuffleXorINTEL on the integer and float types
// cl_intel_spirv_subgroups lists (short types: cl_intel_subgroups_short), at every sub-group size a zeal
// profile has; a profile lacking a size leaves those kernels out.
#include "sg_shuffle.h"

AT_EVERY_SIZE(float) AT_EVERY_SIZE(float2) AT_EVERY_SIZE(float3) AT_EVERY_SIZE(float4) AT_EVERY_SIZE(float8)
AT_EVERY_SIZE(float16)
AT_EVERY_SIZE(int) AT_EVERY_SIZE(int2) AT_EVERY_SIZE(int3) AT_EVERY_SIZE(int4) AT_EVERY_SIZE(int8) AT_EVERY_SIZE(int16)
AT_EVERY_SIZE(uint)
AT_EVERY_SIZE(long) AT_EVERY_SIZE(ulong)
AT_EVERY_SIZE(short) AT_EVERY_SIZE(short2) AT_EVERY_SIZE(short3) AT_EVERY_SIZE(short4) AT_EVERY_SIZE(short8)
AT_EVERY_SIZE(short16)
AT_EVERY_SIZE(ushort)
