// The image library (ze_driver/image_sampling.hpp) for NVPTX: compiled by clang at build time into bitcode that
// the CUDA back end links into every module whose kernels read or write images (image_library.cpp beside
// compiler/). Freestanding: no host header but Level Zero's enums.
#include "ze_driver/image_sampling.hpp"

extern "C" {

void zeal_image_read(const zeal::ze::ImageDescriptor *image, uint32_t sampler, uint32_t flags, const void *coord,
                     void *out) {
  zeal::ze::image_sampling::image_read(image, sampler, flags, coord, out);
}

void zeal_image_write(const zeal::ze::ImageDescriptor *image, uint32_t flags, const int32_t *coord,
                      const void *color) {
  zeal::ze::image_sampling::image_write(image, flags, coord, color);
}

} // extern "C"
