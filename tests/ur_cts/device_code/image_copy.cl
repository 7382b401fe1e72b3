// Stand-in for UR's device_code/image_copy.cpp: parallel_for<class image_copy> over an
// nd_range<2> (8 x 8 work-items) of a lambda capturing [=] (in order of first use) a write image
// accessor out_acc, a read image accessor in_acc (2D, float4 RGBA) and a sampler smpl, that
// copies the texel at int2(global id 0, global id 1) (SYCL's dimensions) from in_acc to out_acc.
// An image accessor reaches the kernel as the image alone and the sampler as a sampler.
// No UR test launches this program (tests/ur/ur_image_test.cpp launches one of the same shape).
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E10image_copy
#include "sycl_device.h"

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E10image_copy(write_only image2d_t out_acc, read_only image2d_t in_acc,
                             sampler_t smpl) {
  int2 coords = (int2)(sycl_global_id(2, 0), sycl_global_id(2, 1));
  write_imagef(out_acc, coords, read_imagef(in_acc, smpl, coords));
}
