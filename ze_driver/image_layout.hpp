// Images as every zeal driver makes them (issues 49 and 50): the formats a driver accepts, an image's shape in
// pixels, its ImageDescriptor (image_abi.hpp) and its regions as bytes, and samplers' bits. Pixels lie packed (a row
// is width × pixel bytes, a slice height rows): a 1-D array's layers are its rows, a 2-D array's its slices, a
// buffer image is a 1-D image, so every image copy is a region copy of bytes. Where the pixels lie is the driver's.
#pragma once

#include "ze_driver/image_abi.hpp"

#include <level_zero/ze_api.h>

#include <cstdint>
#include <string>

namespace zeal::ze {

// The largest images a driver makes (what its device reports).
struct ImageLimits {
  uint64_t width_1d = 16384, width_2d = 16384, height_2d = 16384, size_3d = 2048;
  uint32_t array_layers = 2048;
  uint64_t buffer_pixels = uint64_t{1} << 27;
};

// An image's shape: bytes per pixel, pixels per row, rows per slice, slices.
struct ImageShape {
  uint32_t pixel_bytes = 0;
  uint64_t width = 0;
  uint32_t height = 1, depth = 1;
  uint64_t row_pitch() const { return width * pixel_bytes; }
  uint64_t slice_pitch() const { return row_pitch() * height; }
  uint64_t bytes() const { return slice_pitch() * depth; }
};

// Bytes per pixel of `format` (the layouts OpenCL's full profile uses, with the channel types that fit them); 0,
// with the sentence naming `driver`, for a media layout, a type the layout cannot hold, or a value Level Zero does
// not define.
uint32_t image_pixel_bytes(const ze_image_format_t &format, const char *driver, std::string &why);

// The shape `desc` describes within `limits`, and that a slice's bytes fit the 32-bit pitches of region copies; else
// the code (INVALID_ENUMERATION, UNSUPPORTED_IMAGE_FORMAT, UNSUPPORTED_SIZE) and the sentence.
ze_result_t image_shape(const ze_image_desc_t &desc, const ImageLimits &limits, const char *driver, ImageShape &out,
                        std::string &why);

// The descriptor kernels see of an image `desc` and `shape` describe, at the given pitches; its data (where the
// pixels lie) and stream_writes are the driver's to set.
ImageDescriptor describe_image(const ze_image_desc_t &desc, const ImageShape &shape, uint64_t row_pitch,
                               uint64_t slice_pitch);

// What a driver that makes images up to `limits` answers in zeDeviceGetImageProperties: kernels take as many images
// and samplers as OpenCL's full profile asks at least.
ze_device_image_properties_t device_image_properties(const ImageLimits &limits);

// A new image's id for zeImageGetAllocPropertiesExt: unique in the process, never reused (a view has its image's).
uint64_t next_image_allocation_id();

// Whether an image of `view`'s shape can view the pixels of one of `base`'s (zeImageViewCreateExp): pixels of the same
// size, no more of them along any axis; else the code and the sentence.
ze_result_t check_view(const ImageShape &view, const ImageShape &base, std::string &why);

// `region` (null: the whole image) as bytes of an image of `shape`; INVALID_ARGUMENT with the sentence when it passes
// the image's end or is empty.
ze_result_t image_byte_region(const ImageShape &shape, const ze_image_region_t *region, ze_copy_region_t &out,
                              std::string &why);

// What zeImageGetProperties answers of filtering: integer images are sampled with the nearest pixel only.
ze_image_sampler_filter_flags_t image_filter_flags(const ze_image_desc_t &desc);

// A sampler's modes as OpenCL's sampler bits (SamplerBits): CLAMP is OpenCL's clamp-to-edge, CLAMP_TO_BORDER its
// clamp. OpenCL leaves REPEAT and MIRROR with unnormalized coordinates undefined; Level Zero makes them.
uint32_t sampler_bits(const ze_sampler_desc_t &desc);
// INVALID_ENUMERATION with the sentence for modes Level Zero does not define.
ze_result_t check_sampler(const ze_sampler_desc_t &desc, std::string &why);

} // namespace zeal::ze
