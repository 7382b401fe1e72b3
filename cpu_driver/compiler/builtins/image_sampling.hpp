// The host side of the image built-ins (issue 50): the image library every zeal driver shares
// (ze_driver/image_sampling.hpp), as host functions that JIT-compiled kernels call for what the built-ins' inline
// fast paths (spirv_frontend/image_builtins.hpp) do not cover.
#pragma once

#include "cpu_driver/compiler/internal.hpp"
#include "cpu_driver/kernel_abi.hpp"

#include <cstdint>
#include <span>

namespace zeal::cpu::detail {

using ze::image_float_coords;
using ze::image_value_mask;
using ze::ImageValue;

// zeal_cpu_image_read(image, sampler, flags, coord, out): the pixel at `coord` through `sampler` (SamplerBits;
// a read without a sampler passes SamplerFilterNearest: unnormalized, no addressing), converted to `out`'s four
// values. `coord` holds four int32 or four floats (image_float_coords): x; x, y; or x, y, z; an array's layer comes
// after its pixel coordinates (1-D array: x, layer; 2-D array: x, y, layer). A coordinate outside the image with
// addressing none reads the nearest pixel inside it (OpenCL leaves the result undefined; memory outside is never read).
inline constexpr const char *image_read_symbol = "zeal_cpu_image_read";
void image_read(const ImageDescriptor *image, uint32_t sampler, uint32_t flags, const void *coord, void *out);

// zeal_cpu_image_write(image, flags, coord, color): `color` (four values of the ImageValue in `flags`) converted to
// the image's format and stored at the integer `coord` (laid out as for reads). A write outside the image is dropped.
inline constexpr const char *image_write_symbol = "zeal_cpu_image_write";
void image_write(const ImageDescriptor *image, uint32_t flags, const int32_t *coord, const void *color);

// The two functions above, for the JIT to bind.
std::span<const RuntimeSymbol> image_symbols();

} // namespace zeal::cpu::detail
