// The shuffles of half scalars (Float16), in an image of their own: a device without fp16 loses only these.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#include "sg_shuffle.h"

AT_EVERY_SIZE(half)
