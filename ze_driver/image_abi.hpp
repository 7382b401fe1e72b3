// Images and samplers as the kernels of every zeal driver see them (issues 49 and 50): the layout the image built-ins
// (spirv_frontend/image_builtins.hpp) read, the sampler bits they pass, and the flags of the image library's two
// functions (image_sampling.hpp). Freestanding: the CUDA driver compiles image_sampling.hpp for NVPTX with it.
#pragma once

#include <stdint.h>

namespace zeal::ze {

// --- Images and samplers as kernels see them (issue 50) ---------------------------------------------------------
// An image argument is a pointer to the image's ImageDescriptor, which lives as long as the image; the compiled
// built-ins read its fields (the fast paths) or hand it to the driver's image library (image_sampling.hpp): the
// host's functions on the CPU driver, the same code compiled for NVPTX on the CUDA driver. On the CUDA driver the
// descriptor and the pixels lie in device memory.
// Pixels lie packed from `data`: a pixel is `pixel_bytes`, a row `row_pitch` bytes, a slice `slice_pitch`. A 1-D
// array's layers are its rows, a 2-D array's its slices; a buffer image is a 1-D image.
struct ImageDescriptor {
  unsigned char *data = nullptr;
  uint64_t row_pitch = 0, slice_pitch = 0;
  int32_t width = 1, height = 1, depth = 1; // pixels; height 1 for 1-D images, depth 1 but for 3-D ones
  int32_t array_size = 0;                   // layers of an array image, else 0
  uint32_t pixel_bytes = 0;
  uint32_t dims = 1;                        // 1, 2 or 3: the coordinates that address pixels (a layer not counted)
  uint32_t layout = 0, type = 0;            // ze_image_format_layout_t, ze_image_format_type_t
  uint8_t swizzle[4] = {};                  // ze_image_format_swizzle_t of x, y, z, w
  uint32_t cl_channel_order = 0;            // what get_image_channel_order answers (CLK_RGBA, ...)
  uint32_t cl_channel_type = 0;             // what get_image_channel_data_type answers (CLK_UNORM_INT8, ...)
  uint32_t fast = 0;                        // ImageFast: a layout the compiled code reads and writes inline
  // Nonzero when the image holds at least the streaming-store threshold's bytes: fast writes are non-temporal
  // (streaming_stores.cpp says why), and the runtime fences after a launch's work-groups.
  uint32_t stream_writes = 0;
};
static_assert(sizeof(ImageDescriptor) == 80, "spirv_frontend/image_builtins.cpp reads the descriptor field by field");

// Formats whose pixels compiled code loads and stores itself, without calling the host: RGBA (swizzle R, G, B, A)
// of four 32-bit floats or integers, or of four 8-bit unorm channels. Pixel data is aligned to 64 bytes, so an
// Rgba32 pixel is aligned to its 16.
enum class ImageFast : uint32_t { None, Rgba32, RgbaUnorm8 };

// A sampler, as kernels hold it: the bits of OpenCL's sampler initialiser (SPIR's encoding, which
// __translate_sampler_initializer receives for a literal sampler), in the pointer's place. A sampler argument is
// set from a ze_sampler_handle_t to the same bits.
enum SamplerBits : uint32_t {
  SamplerNormalized = 0x1,       // CLK_NORMALIZED_COORDS_TRUE
  SamplerAddressMask = 0xE,      // CLK_ADDRESS_NONE 0, CLAMP_TO_EDGE 2, CLAMP 4, REPEAT 6, MIRRORED_REPEAT 8
  SamplerAddressNone = 0x0,
  SamplerAddressClampToEdge = 0x2,
  SamplerAddressClamp = 0x4,
  SamplerAddressRepeat = 0x6,
  SamplerAddressMirroredRepeat = 0x8,
  SamplerFilterNearest = 0x10,   // CLK_FILTER_NEAREST
  SamplerFilterLinear = 0x20,    // CLK_FILTER_LINEAR
};

// What a read returns or a write takes: four floats, 32-bit signed or unsigned integers, or halves (as their bits).
enum class ImageValue : uint32_t { Float = 0, Int = 1, Uint = 2, Half = 3 };
// A read's flags: the ImageValue, and whether the coordinates are floats.
inline constexpr uint32_t image_value_mask = 0xFF;
inline constexpr uint32_t image_float_coords = 0x100;

} // namespace zeal::ze
