// The shuffles of double scalars (Float64), in an image of their own: a device without fp64 loses only these.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#include "sg_shuffle.h"

AT_EVERY_SIZE(double)
