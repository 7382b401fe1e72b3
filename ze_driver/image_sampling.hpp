// The image library every zeal driver's kernels call (issues 49 and 50): reads through a sampler and writes of any
// format, as OpenCL 3.0 specifies them (section 8 of the OpenCL C specification: addressing, filtering,
// conversions), for what the image built-ins' inline fast paths (spirv_frontend/image_builtins.hpp) do not cover.
// The CPU driver calls it from JIT-compiled kernels as host functions (cpu_driver/compiler/builtins/
// image_sampling.cpp); the CUDA driver compiles this header with clang for NVPTX (cuda_driver/device/) and links it
// into every module that uses images. So it is freestanding: no library header, only compiler built-ins.
#pragma once

#include "ze_driver/image_abi.hpp"

#include <level_zero/ze_api.h>
#include <stdint.h>

namespace zeal::ze::image_sampling {

template <class T> constexpr T min(T a, T b) { return b < a ? b : a; }
template <class T> constexpr T max(T a, T b) { return a < b ? b : a; }
template <class T> constexpr T clamp(T v, T low, T high) { return v < low ? low : high < v ? high : v; }
inline bool is_nan(float x) { return __builtin_isnan(x); }


// --- Formats ------------------------------------------------------------------------------------------------------

// How a channel's bits are read as a number.
enum class Encoding : uint8_t { Unorm, Snorm, Uint, Sint, Float };

// Where a channel lies in its pixel: `bits` bits, `shift` up in the little-endian word of the format's word_bytes
// that starts `offset` bytes into the pixel.
struct ChannelPlace {
  uint8_t offset = 0, shift = 0, bits = 0;
};

// A format resolved from its layout and type, once per call. Float channels are IEEE floats of 32 bits, halves of
// 16, and the unsigned 11- and 10-bit floats of 11_11_10.
struct Format {
  Encoding encoding = Encoding::Uint;
  uint8_t channels = 0;    // memory channels; 0 for a layout the CPU driver does not make
  uint8_t word_bytes = 0;  // what one channel is loaded from: 1, 2 or 4 bytes
  uint8_t pixel_bytes = 0;
  ChannelPlace place[4] = {};
};

inline Encoding encoding_of(uint32_t type) {
  switch (type) {
  case ZE_IMAGE_FORMAT_TYPE_SINT: return Encoding::Sint;
  case ZE_IMAGE_FORMAT_TYPE_UNORM: return Encoding::Unorm;
  case ZE_IMAGE_FORMAT_TYPE_SNORM: return Encoding::Snorm;
  case ZE_IMAGE_FORMAT_TYPE_FLOAT: return Encoding::Float;
  default: return Encoding::Uint;
  }
}

// `channels` channels of `bits` bits each, one after the other.
inline Format uniform(uint32_t type, unsigned channels, unsigned bits) {
  Format format{encoding_of(type), uint8_t(channels), uint8_t(bits / 8), uint8_t(channels * bits / 8), {}};
  for (unsigned i = 0; i < channels; ++i) format.place[i] = {uint8_t(i * bits / 8), 0, uint8_t(bits)};
  return format;
}

// Channels of different sizes in one 16- or 32-bit word; `places` gives each one's {shift, bits}.
template <unsigned N>
inline Format packed(Encoding encoding, unsigned word_bytes, const ChannelPlace (&places)[N]) {
  Format format{encoding, uint8_t(N), uint8_t(word_bytes), uint8_t(word_bytes), {}};
  for (unsigned i = 0; i < N; ++i) format.place[i] = places[i];
  return format;
}

// The packed layouts, channel by channel from 0, as bits of their little-endian 16- or 32-bit word:
//   5_6_5       15:11, 10:5, 4:0                OpenCL's CL_UNORM_SHORT_565
//   5_5_5_1     14:10, 9:5, 4:0, and 15         CL_UNORM_SHORT_555, the bit it leaves unused holding channel 3
//   10_10_10_2  29:20, 19:10, 9:0, and 31:30    CL_UNORM_INT_101010, the bits it leaves unused holding channel 3
//   4_4_4_4     15:12, 11:8, 7:4, 3:0           (not in OpenCL) from the top, as the others
//   11_11_10    10:0, 21:11, 31:22              (not in OpenCL) from the bottom, as graphics APIs' R11G11B10 float;
//                                               unsigned floats of a 5-bit exponent and 6, 6 and 5 mantissa bits
inline Format format_of(const ImageDescriptor &image) {
  switch (image.layout) {
  case ZE_IMAGE_FORMAT_LAYOUT_8: return uniform(image.type, 1, 8);
  case ZE_IMAGE_FORMAT_LAYOUT_16: return uniform(image.type, 1, 16);
  case ZE_IMAGE_FORMAT_LAYOUT_32: return uniform(image.type, 1, 32);
  case ZE_IMAGE_FORMAT_LAYOUT_8_8: return uniform(image.type, 2, 8);
  case ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8: return uniform(image.type, 4, 8);
  case ZE_IMAGE_FORMAT_LAYOUT_16_16: return uniform(image.type, 2, 16);
  case ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16: return uniform(image.type, 4, 16);
  case ZE_IMAGE_FORMAT_LAYOUT_32_32: return uniform(image.type, 2, 32);
  case ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32: return uniform(image.type, 4, 32);
  case ZE_IMAGE_FORMAT_LAYOUT_5_6_5: return packed<3>(Encoding::Unorm, 2, {{0, 11, 5}, {0, 5, 6}, {0, 0, 5}});
  case ZE_IMAGE_FORMAT_LAYOUT_5_5_5_1:
    return packed<4>(Encoding::Unorm, 2, {{0, 10, 5}, {0, 5, 5}, {0, 0, 5}, {0, 15, 1}});
  case ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2:
    return packed<4>(Encoding::Unorm, 4, {{0, 20, 10}, {0, 10, 10}, {0, 0, 10}, {0, 30, 2}});
  case ZE_IMAGE_FORMAT_LAYOUT_4_4_4_4:
    return packed<4>(Encoding::Unorm, 2, {{0, 12, 4}, {0, 8, 4}, {0, 4, 4}, {0, 0, 4}});
  case ZE_IMAGE_FORMAT_LAYOUT_11_11_10: return packed<3>(Encoding::Float, 4, {{0, 0, 11}, {0, 11, 11}, {0, 22, 10}});
  default: return {};
  }
}

constexpr uint32_t low_bits(unsigned bits) { return bits >= 32 ? ~0u : (1u << bits) - 1; }

// Channel `i`'s bits, zero-extended, from a pixel's bytes.
inline uint32_t load_channel(const unsigned char *pixel, const Format &format, unsigned i) {
  const ChannelPlace place = format.place[i];
  uint32_t word = 0;
  switch (format.word_bytes) {
  case 1: word = pixel[place.offset]; break;
  case 2: {
    uint16_t half_word;
    __builtin_memcpy(&half_word, pixel + place.offset, 2);
    word = half_word;
    break;
  }
  default: __builtin_memcpy(&word, pixel + place.offset, 4); break;
  }
  return (word >> place.shift) & low_bits(place.bits);
}

// Adds channel `i`'s bits to a pixel's bytes, which start zeroed.
inline void store_channel(unsigned char *pixel, const Format &format, unsigned i, uint32_t value) {
  const ChannelPlace place = format.place[i];
  const uint32_t bits = (value & low_bits(place.bits)) << place.shift;
  switch (format.word_bytes) {
  case 1: pixel[place.offset] = uint8_t(bits); break;
  case 2: {
    uint16_t half_word;
    __builtin_memcpy(&half_word, pixel + place.offset, 2);
    half_word = uint16_t(half_word | bits);
    __builtin_memcpy(pixel + place.offset, &half_word, 2);
    break;
  }
  default: {
    uint32_t word;
    __builtin_memcpy(&word, pixel + place.offset, 4);
    word |= bits;
    __builtin_memcpy(pixel + place.offset, &word, 4);
    break;
  }
  }
}

// --- Small floats -------------------------------------------------------------------------------------------------
// Halves and the 11- and 10-bit floats of 11_11_10 share a 5-bit exponent of bias 15 and differ in their mantissas
// (10, 6 and 5 bits), so one pair of conversions, on magnitudes, serves all three; a half adds its sign bit.

constexpr uint32_t float_sign = 0x80000000u, float_infinity = 0x7F800000u;

// A small float's magnitude as a float, exactly (every one is a float).
inline float from_small_float(uint32_t bits, unsigned mantissa_bits) {
  const uint32_t exponent = bits >> mantissa_bits, mantissa = bits & low_bits(mantissa_bits);
  if (exponent == 0) { // subnormal: mantissa * 2^(-14 - mantissa_bits)
    return float(mantissa) * __builtin_bit_cast(float, uint32_t(127 - 14 - mantissa_bits) << 23);
  }
  const uint32_t float_exponent = exponent == 0x1F ? 0xFF : exponent - 15 + 127; // infinity and NaN stay so
  return __builtin_bit_cast(float, float_exponent << 23 | mantissa << (23 - mantissa_bits));
}

// A float's magnitude (`bits` without the sign) rounded to nearest even as a small float; too large rounds to
// infinity, NaN stays a (quiet) NaN, as IEEE 754's conversion does.
inline uint32_t to_small_float(uint32_t bits, unsigned mantissa_bits) {
  const uint32_t infinity = 0x1Fu << mantissa_bits;
  if (bits > float_infinity) return infinity | 1u << (mantissa_bits - 1);
  const int exponent = int(bits >> 23) - 127;
  if (exponent > 15) return infinity;
  // Below 2^-14 the small float is subnormal: its mantissa holds fewer of the float's bits.
  const unsigned shift = 23 - mantissa_bits + (exponent < -14 ? unsigned(-14 - exponent) : 0);
  if (shift > 24) return 0; // under half the smallest subnormal
  const uint32_t significand = (bits & 0x7FFFFF) | 0x800000;
  uint32_t result = significand >> shift;
  // The significand's leading 1 lands in the exponent's lowest bit; the rest of the exponent is added to it.
  if (exponent >= -14) result += uint32_t(exponent + 14) << mantissa_bits;
  const uint32_t rest = significand & low_bits(shift), halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (result & 1) != 0)) ++result; // a carry into the exponent is right
  return result;
}

inline float half_to_float(uint16_t half) {
  const uint32_t sign = uint32_t(half & 0x8000) << 16;
  return __builtin_bit_cast(float, sign | __builtin_bit_cast(uint32_t, from_small_float(half & 0x7FFFu, 10)));
}

inline uint16_t float_to_half(float value) {
  const uint32_t bits = __builtin_bit_cast(uint32_t, value);
  return uint16_t((bits & float_sign) >> 16 | to_small_float(bits & ~float_sign, 10));
}

// --- Channel conversions ------------------------------------------------------------------------------------------

inline int32_t sign_extend(uint32_t bits, unsigned width) {
  return int32_t(bits << (32 - width)) >> (32 - width);
}

// A channel's bits as a Float read gives them. Integer channels (undefined in OpenCL) give their value as a float.
inline float channel_to_float(uint32_t bits, Encoding encoding, unsigned width) {
  switch (encoding) {
  case Encoding::Unorm: return float(bits) / float(low_bits(width));
  case Encoding::Snorm: return max(-1.0f, float(sign_extend(bits, width)) / float(low_bits(width - 1)));
  case Encoding::Uint: return float(bits);
  case Encoding::Sint: return float(sign_extend(bits, width));
  case Encoding::Float:
    if (width == 32) return __builtin_bit_cast(float, bits);
    if (width == 16) return half_to_float(uint16_t(bits));
    return from_small_float(bits, width - 5);
  }
  return 0.0f;
}

// A channel's bits as an Int or Uint read gives them: integers zero- or sign-extended. Normalized and float channels
// (undefined in OpenCL) give their stored bits, the cheapest answer.
inline uint32_t channel_to_integer(uint32_t bits, Encoding encoding, unsigned width) {
  const bool is_signed = encoding == Encoding::Sint || encoding == Encoding::Snorm;
  return is_signed ? uint32_t(sign_extend(bits, width)) : bits;
}

// convert_<type>_sat_rte: NaN gives 0.
inline int32_t saturate_rounded(float value, int32_t lowest, int32_t highest) {
  if (is_nan(value)) return 0;
  if (value <= float(lowest)) return lowest;
  if (value >= float(highest)) return highest;
  return int32_t(__builtin_nearbyintf(value)); // the thread's rounding mode, which is to nearest even
}

// A float written to a channel. Integer channels (undefined in OpenCL) get the float's low bits.
inline uint32_t float_to_channel(float value, Encoding encoding, unsigned width) {
  switch (encoding) {
  case Encoding::Unorm: {
    const int32_t highest = int32_t(low_bits(width));
    return uint32_t(saturate_rounded(value * float(highest), 0, highest));
  }
  case Encoding::Snorm: {
    const int32_t highest = int32_t(low_bits(width - 1));
    return uint32_t(saturate_rounded(value * float(highest), -highest - 1, highest));
  }
  case Encoding::Uint:
  case Encoding::Sint: return __builtin_bit_cast(uint32_t, value);
  case Encoding::Float: {
    const uint32_t bits = __builtin_bit_cast(uint32_t, value);
    if (width == 32) return bits;
    if (width == 16) return float_to_half(value);
    // The 11- and 10-bit floats have no sign: negative values store 0, as they do on GPUs.
    if ((bits & float_sign) != 0 && !is_nan(value)) return 0;
    return to_small_float(bits & ~float_sign, width - 5);
  }
  }
  return 0;
}

// An Int or Uint written to a channel: integer channels saturate (convert_<type>_sat), whichever signedness the value
// has; normalized and float channels (undefined in OpenCL) get its low bits.
inline uint32_t integer_to_channel(int64_t value, Encoding encoding, unsigned width) {
  switch (encoding) {
  case Encoding::Uint: return uint32_t(clamp<int64_t>(value, 0, int64_t(low_bits(width))));
  case Encoding::Sint: {
    const int64_t highest = int64_t(low_bits(width - 1));
    return uint32_t(clamp<int64_t>(value, -highest - 1, highest));
  }
  default: return uint32_t(value);
  }
}

// --- Pixels -------------------------------------------------------------------------------------------------------

inline bool names_channel(uint8_t swizzle, const Format &format) {
  return swizzle <= ZE_IMAGE_FORMAT_SWIZZLE_A && swizzle < format.channels;
}

// A pixel (or, for nullptr, the border: every channel 0) through the swizzle, as a Float read gives it.
inline void swizzled_floats(const unsigned char *pixel, const Format &format, const uint8_t swizzle[4],
                            float out[4]) {
  // RGBA of 32-bit floats, the common case of filtering: the pixel is the result.
  if (pixel != nullptr && format.encoding == Encoding::Float && format.word_bytes == 4 && format.channels == 4 &&
      swizzle[0] == ZE_IMAGE_FORMAT_SWIZZLE_R && swizzle[1] == ZE_IMAGE_FORMAT_SWIZZLE_G &&
      swizzle[2] == ZE_IMAGE_FORMAT_SWIZZLE_B && swizzle[3] == ZE_IMAGE_FORMAT_SWIZZLE_A) {
    __builtin_memcpy(out, pixel, 4 * sizeof(float));
    return;
  }
  for (unsigned c = 0; c < 4; ++c) {
    out[c] = swizzle[c] == ZE_IMAGE_FORMAT_SWIZZLE_1 ? 1.0f : 0.0f;
    if (pixel == nullptr || !names_channel(swizzle[c], format)) continue;
    const unsigned channel = swizzle[c];
    out[c] = channel_to_float(load_channel(pixel, format, channel), format.encoding, format.place[channel].bits);
  }
}

// The same for an Int or Uint read.
inline void swizzled_integers(const unsigned char *pixel, const Format &format, const uint8_t swizzle[4],
                              uint32_t out[4]) {
  for (unsigned c = 0; c < 4; ++c) {
    out[c] = swizzle[c] == ZE_IMAGE_FORMAT_SWIZZLE_1 ? 1 : 0;
    if (pixel == nullptr || !names_channel(swizzle[c], format)) continue;
    const unsigned channel = swizzle[c];
    out[c] = channel_to_integer(load_channel(pixel, format, channel), format.encoding, format.place[channel].bits);
  }
}

// --- Coordinates --------------------------------------------------------------------------------------------------

// An index that stands for the border color (clamp addressing outside the image).
constexpr int64_t border = -1;

// The image's extent along each coordinate of `coord`: its pixel axes, then an array's layer. Coordinate k lies along
// memory axis k (x, y, z): a 1-D array's layers are its rows and a 2-D array's its slices, so the layer's memory axis
// is the one after the pixel axes in both cases.
struct Shape {
  unsigned dims = 1;
  bool array = false;
  int64_t extent[3] = {1, 1, 1}; // pixel axes' sizes, then the layer count
};

inline Shape shape_of(const ImageDescriptor &image) {
  Shape shape;
  shape.dims = clamp(image.dims, 1u, 3u);
  shape.array = image.array_size > 0 && shape.dims < 3;
  const int32_t sizes[3] = {image.width, image.height, image.depth};
  for (unsigned k = 0; k < shape.dims; ++k) shape.extent[k] = sizes[k];
  if (shape.array) shape.extent[shape.dims] = image.array_size;
  return shape;
}

// The pixel at index[k] along coordinate k (layer included); every index is inside the image.
inline unsigned char *pixel_at(const ImageDescriptor &image, const int64_t index[3]) {
  const uint64_t offset = uint64_t(index[0]) * image.pixel_bytes + uint64_t(index[1]) * image.row_pitch +
                          uint64_t(index[2]) * image.slice_pitch;
  return image.data + offset;
}

inline int64_t clamp_inside(int64_t i, int64_t extent) { return clamp<int64_t>(i, 0, extent - 1); }

// Where an index outside the image goes: the border for clamp addressing, else the nearest edge (for addressing
// none, which OpenCL leaves undefined, so that memory outside the image is never read).
inline int64_t settle(int64_t i, int64_t extent, bool border_outside) {
  if (i >= 0 && i < extent) return i;
  return border_outside ? border : clamp_inside(i, extent);
}

// floor(u) as an index. Values past ±2^31, which no image reaches, are held there so that the arithmetic on indices
// cannot overflow; NaN gives 0 (OpenCL lets a NaN coordinate read any pixel).
inline int64_t floor_index(float u) {
  if (is_nan(u)) return 0;
  return int64_t(clamp(__builtin_floorf(u), -0x1p31f, 0x1p31f));
}

// x - floor(x), the weight of the second pixel in linear filtering; 0 where x is NaN or infinite, whose indices
// floor_index has settled on one pixel.
inline float fraction(float x) {
  const float f = x - __builtin_floorf(x);
  return is_nan(f) ? 0.0f : f;
}

enum class Addressing { None, ClampToEdge, Clamp, Repeat, MirroredRepeat };

struct Sampling {
  Addressing addressing = Addressing::None;
  bool normalized = false, linear = false;
};

inline Sampling sampling_of(uint32_t sampler) {
  Sampling sampling;
  sampling.normalized = (sampler & SamplerNormalized) != 0;
  sampling.linear = (sampler & SamplerFilterLinear) != 0;
  switch (sampler & SamplerAddressMask) {
  case SamplerAddressClampToEdge: sampling.addressing = Addressing::ClampToEdge; break;
  case SamplerAddressClamp: sampling.addressing = Addressing::Clamp; break;
  case SamplerAddressRepeat: sampling.addressing = Addressing::Repeat; break;
  case SamplerAddressMirroredRepeat: sampling.addressing = Addressing::MirroredRepeat; break;
  default: sampling.addressing = Addressing::None; break;
  }
  // Repeat and mirrored repeat are defined for normalized coordinates only; otherwise the edge holds.
  const bool wraps = sampling.addressing == Addressing::Repeat || sampling.addressing == Addressing::MirroredRepeat;
  if (wraps && !sampling.normalized) sampling.addressing = Addressing::ClampToEdge;
  return sampling;
}

// What one axis contributes to a read: the index of its nearest pixel, or linear filtering's two and the weight of
// the second. Each index is inside the image or the border.
struct AxisSamples {
  int64_t index[2] = {0, 0};
  float weight = 0.0f;
};

// Repeat: the coordinate's fractional part scaled to the image, indices wrapping around.
inline AxisSamples repeat(float s, int64_t extent, bool linear) {
  const float u = (s - __builtin_floorf(s)) * float(extent);
  AxisSamples samples;
  if (!linear) {
    int64_t i = floor_index(u);
    if (i > extent - 1) i -= extent;
    samples.index[0] = clamp_inside(i, extent);
    return samples;
  }
  int64_t i0 = floor_index(u - 0.5f), i1 = i0 + 1;
  if (i0 < 0) i0 += extent;
  if (i1 > extent - 1) i1 -= extent;
  return {{clamp_inside(i0, extent), clamp_inside(i1, extent)}, fraction(u - 0.5f)};
}

// Mirrored repeat: the image reflected at every edge.
inline AxisSamples mirrored_repeat(float s, int64_t extent, bool linear) {
  const float u = __builtin_fabsf(s - 2.0f * __builtin_rintf(0.5f * s)) * float(extent);
  AxisSamples samples;
  if (!linear) {
    samples.index[0] = clamp_inside(min(floor_index(u), extent - 1), extent);
    return samples;
  }
  const int64_t i0 = floor_index(u - 0.5f);
  return {{clamp_inside(max<int64_t>(i0, 0), extent), clamp_inside(min(i0 + 1, extent - 1), extent)},
          fraction(u - 0.5f)};
}

inline AxisSamples address_float(float s, int64_t extent, const Sampling &sampling) {
  if (sampling.addressing == Addressing::Repeat) return repeat(s, extent, sampling.linear);
  if (sampling.addressing == Addressing::MirroredRepeat) return mirrored_repeat(s, extent, sampling.linear);
  const float u = sampling.normalized ? s * float(extent) : s;
  const bool border_outside = sampling.addressing == Addressing::Clamp;
  AxisSamples samples;
  if (!sampling.linear) {
    samples.index[0] = settle(floor_index(u), extent, border_outside);
    return samples;
  }
  const int64_t i0 = floor_index(u - 0.5f);
  return {{settle(i0, extent, border_outside), settle(i0 + 1, extent, border_outside)}, fraction(u - 0.5f)};
}

// An integer coordinate names its pixel; repeat and mirrored repeat (undefined with integer coordinates) clamp.
inline AxisSamples address_integer(int32_t i, int64_t extent, const Sampling &sampling) {
  AxisSamples samples;
  samples.index[0] = settle(i, extent, sampling.addressing == Addressing::Clamp);
  return samples;
}

// An array's layer is always clamped to the layers there are, a float one rounded to the nearest (even) first.
inline int64_t layer_of(float l, int64_t layers) {
  if (is_nan(l)) return 0;
  return int64_t(clamp(__builtin_rintf(l), 0.0f, float(layers - 1)));
}

// A read's samples along every coordinate; the layer is one index with weight 0.
struct Samples {
  AxisSamples axis[3];
  bool linear = false;
};

inline Samples samples_of(const Shape &shape, uint32_t sampler, uint32_t flags, const void *coord,
                          bool may_filter) {
  Sampling sampling = sampling_of(sampler);
  Samples samples;
  const bool float_coords = (flags & image_float_coords) != 0;
  sampling.linear = sampling.linear && may_filter && float_coords;
  samples.linear = sampling.linear;
  float floats[4];
  int32_t integers[4];
  __builtin_memcpy(float_coords ? static_cast<void *>(floats) : static_cast<void *>(integers), coord, 16);
  for (unsigned k = 0; k < shape.dims; ++k) {
    samples.axis[k] = float_coords ? address_float(floats[k], shape.extent[k], sampling)
                                   : address_integer(integers[k], shape.extent[k], sampling);
  }
  if (shape.array) {
    const unsigned k = shape.dims;
    samples.axis[k].index[0] = float_coords ? layer_of(floats[k], shape.extent[k])
                                            : clamp_inside(integers[k], shape.extent[k]);
  }
  return samples;
}

// The weighted sum of the 2, 4 or 8 pixels around the coordinate (OpenCL's T = (1-a)(1-b) T_i0j0 + a(1-b) T_i1j0
// + ...): corner bit k picks axis k's second index. The border takes part with its own color.
inline void filter_linear(const ImageDescriptor &image, const Format &format, const Shape &shape,
                          const Samples &samples, float out[4]) {
  for (unsigned c = 0; c < 4; ++c) out[c] = 0.0f;
  for (unsigned corner = 0; corner < 1u << shape.dims; ++corner) {
    int64_t index[3] = {0, 0, 0};
    float weight = 1.0f;
    bool on_border = false;
    for (unsigned k = 0; k < shape.dims; ++k) {
      const bool second = (corner >> k & 1) != 0;
      const AxisSamples &axis = samples.axis[k];
      weight *= second ? axis.weight : 1.0f - axis.weight;
      index[k] = axis.index[second ? 1 : 0];
      on_border = on_border || index[k] == border;
    }
    if (shape.array) index[shape.dims] = samples.axis[shape.dims].index[0];
    float pixel[4];
    swizzled_floats(on_border ? nullptr : pixel_at(image, index), format, image.swizzle, pixel);
    for (unsigned c = 0; c < 4; ++c) out[c] += weight * pixel[c];
  }
}

// The nearest pixel, or nullptr for the border.
inline const unsigned char *nearest_pixel(const ImageDescriptor &image, const Shape &shape, const Samples &samples) {
  int64_t index[3] = {0, 0, 0};
  const unsigned coordinates = shape.dims + (shape.array ? 1 : 0);
  for (unsigned k = 0; k < coordinates; ++k) {
    index[k] = samples.axis[k].index[0];
    if (index[k] == border) return nullptr;
  }
  return pixel_at(image, index);
}

// --- The two functions ---------------------------------------------------------------------------------------

inline void image_read(const ImageDescriptor *image, uint32_t sampler, uint32_t flags, const void *coord, void *out) {
  const Format format = format_of(*image);
  const auto value = ImageValue(flags & image_value_mask);
  const bool float_result = value == ImageValue::Float || value == ImageValue::Half;
  const Shape shape = shape_of(*image);
  const Samples samples = samples_of(shape, sampler, flags, coord, float_result);
  if (!float_result) {
    uint32_t integers[4];
    swizzled_integers(nearest_pixel(*image, shape, samples), format, image->swizzle, integers);
    __builtin_memcpy(out, integers, sizeof integers);
    return;
  }
  float floats[4];
  if (samples.linear) {
    filter_linear(*image, format, shape, samples, floats);
  } else {
    swizzled_floats(nearest_pixel(*image, shape, samples), format, image->swizzle, floats);
  }
  if (value == ImageValue::Float) {
    __builtin_memcpy(out, floats, sizeof floats);
    return;
  }
  uint16_t halves[4];
  for (unsigned c = 0; c < 4; ++c) halves[c] = float_to_half(floats[c]);
  __builtin_memcpy(out, halves, sizeof halves);
}

inline void image_write(const ImageDescriptor *image, uint32_t flags, const int32_t *coord, const void *color) {
  const Format format = format_of(*image);
  const Shape shape = shape_of(*image);
  int64_t index[3] = {0, 0, 0};
  const unsigned coordinates = shape.dims + (shape.array ? 1 : 0);
  for (unsigned k = 0; k < coordinates; ++k) {
    if (coord[k] < 0 || coord[k] >= shape.extent[k]) return;
    index[k] = coord[k];
  }
  // The color's four values, copied out as the value type they are (the caller's vector may be unaligned).
  const auto value = ImageValue(flags & image_value_mask);
  float floats[4];
  int32_t integers[4];
  uint16_t halves[4];
  const bool integer_color = value == ImageValue::Int || value == ImageValue::Uint;
  if (value == ImageValue::Half) __builtin_memcpy(halves, color, sizeof halves);
  else if (integer_color) __builtin_memcpy(integers, color, sizeof integers);
  else __builtin_memcpy(floats, color, sizeof floats);
  // Each color component goes to the memory channel its swizzle names; the last of two naming one channel wins.
  uint32_t channels[4] = {0, 0, 0, 0};
  for (unsigned c = 0; c < 4; ++c) {
    const uint8_t channel = image->swizzle[c];
    if (!names_channel(channel, format)) continue;
    const unsigned width = format.place[channel].bits;
    switch (value) {
    case ImageValue::Int: channels[channel] = integer_to_channel(integers[c], format.encoding, width); break;
    case ImageValue::Uint:
      channels[channel] = integer_to_channel(uint32_t(integers[c]), format.encoding, width);
      break;
    case ImageValue::Half:
      channels[channel] = float_to_channel(half_to_float(halves[c]), format.encoding, width);
      break;
    default: channels[channel] = float_to_channel(floats[c], format.encoding, width); break;
    }
  }
  unsigned char pixel[16] = {};
  for (unsigned i = 0; i < format.channels; ++i) store_channel(pixel, format, i, channels[i]);
  __builtin_memcpy(pixel_at(*image, index), pixel, format.pixel_bytes);
}

} // namespace zeal::ze::image_sampling
