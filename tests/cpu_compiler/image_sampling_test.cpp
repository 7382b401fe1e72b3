// image_read and image_write (image_sampling.hpp) called directly, over images in exact-size buffers.
#include "cpu_driver/compiler/builtins/image_sampling.hpp"

#include <gtest/gtest.h>
#include <level_zero/ze_api.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace zeal::cpu::test {
namespace {

using detail::image_read;
using detail::image_write;
using detail::ImageValue;

using Float4 = std::array<float, 4>;
using Int4 = std::array<int32_t, 4>;
using Uint4 = std::array<uint32_t, 4>;
using Half4 = std::array<uint16_t, 4>;
using Bytes = std::vector<uint8_t>;

constexpr float nan = std::numeric_limits<float>::quiet_NaN();
constexpr float infinity = std::numeric_limits<float>::infinity();
constexpr int32_t int_min = std::numeric_limits<int32_t>::min();
constexpr int32_t int_max = std::numeric_limits<int32_t>::max();

using Swizzle = std::array<uint8_t, 4>;
constexpr uint8_t R = ZE_IMAGE_FORMAT_SWIZZLE_R, G = ZE_IMAGE_FORMAT_SWIZZLE_G, B = ZE_IMAGE_FORMAT_SWIZZLE_B,
                  A = ZE_IMAGE_FORMAT_SWIZZLE_A, Zero = ZE_IMAGE_FORMAT_SWIZZLE_0, One = ZE_IMAGE_FORMAT_SWIZZLE_1,
                  X = ZE_IMAGE_FORMAT_SWIZZLE_X;
// OpenCL's channel orders as Level Zero swizzles: CL_R, CL_RG and CL_RGB read (..., 1) in the channels they lack.
constexpr Swizzle rgba{R, G, B, A}, bgra{B, G, R, A}, rgb{R, G, B, One}, rg{R, G, Zero, One}, r{R, Zero, Zero, One};

// Samplers.
constexpr uint32_t no_sampler = SamplerFilterNearest;
constexpr uint32_t normalized = SamplerNormalized;
constexpr uint32_t nearest = SamplerFilterNearest, linear = SamplerFilterLinear;
constexpr uint32_t none = SamplerAddressNone, clamp_to_edge = SamplerAddressClampToEdge, clamp = SamplerAddressClamp,
                   repeat = SamplerAddressRepeat, mirrored_repeat = SamplerAddressMirroredRepeat;

// An image's shape: `dims` pixel coordinates, and `layers` > 0 for an array.
struct Extent {
  int32_t width = 1, height = 1, depth = 1, layers = 0;
  uint32_t dims = 1;
};

uint32_t pixel_bytes_of(uint32_t layout) {
  switch (layout) {
  case ZE_IMAGE_FORMAT_LAYOUT_8: return 1;
  case ZE_IMAGE_FORMAT_LAYOUT_16:
  case ZE_IMAGE_FORMAT_LAYOUT_8_8:
  case ZE_IMAGE_FORMAT_LAYOUT_5_6_5:
  case ZE_IMAGE_FORMAT_LAYOUT_5_5_5_1:
  case ZE_IMAGE_FORMAT_LAYOUT_4_4_4_4: return 2;
  case ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16:
  case ZE_IMAGE_FORMAT_LAYOUT_32_32: return 8;
  case ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32: return 16;
  default: return 4;
  }
}

// An image over a buffer of exactly the bytes its pitches span, so that AddressSanitizer reports any access past it.
// The rows of a 1-D array are its layers, the slices of a 2-D array its layers.
class TestImage {
public:
  TestImage(uint32_t layout, uint32_t type, Swizzle swizzle, Extent extent, uint64_t row_padding = 0,
            uint64_t slice_padding = 0) {
    ImageDescriptor &d = descriptor_;
    d.pixel_bytes = pixel_bytes_of(layout);
    d.width = extent.width;
    d.height = extent.height;
    d.depth = extent.depth;
    d.array_size = extent.layers;
    d.dims = extent.dims;
    d.layout = layout;
    d.type = type;
    std::memcpy(d.swizzle, swizzle.data(), 4);
    const int32_t layers = std::max(extent.layers, 1);
    const uint64_t rows = uint64_t(extent.dims == 1 ? layers : extent.height);
    const uint64_t slices = uint64_t(extent.dims == 1 ? 1 : extent.dims == 2 ? layers : extent.depth);
    d.row_pitch = uint64_t(extent.width) * d.pixel_bytes + row_padding;
    d.slice_pitch = d.row_pitch * rows + slice_padding;
    bytes.resize(d.slice_pitch * slices);
  }

  const ImageDescriptor *descriptor() {
    descriptor_.data = bytes.data();
    return &descriptor_;
  }

  Bytes bytes;

private:
  ImageDescriptor descriptor_;
};

// A single-channel image of 32-bit floats (swizzle R, 0, 0, 1) holding `values`, x fastest.
TestImage float_image(Extent extent, const std::vector<float> &values) {
  TestImage image(ZE_IMAGE_FORMAT_LAYOUT_32, ZE_IMAGE_FORMAT_TYPE_FLOAT, r, extent);
  EXPECT_EQ(image.bytes.size(), values.size() * sizeof(float));
  std::memcpy(image.bytes.data(), values.data(), image.bytes.size());
  return image;
}

// A 1-D image of four float pixels, 10, 20, 30 and 40: the addressing tests' image.
TestImage four_pixels() { return float_image({.width = 4}, {10, 20, 30, 40}); }

// A read's four values of type Result; float coordinates when Coord holds floats.
template <class Result, class Coord>
Result read_as(TestImage &image, ImageValue value, uint32_t sampler, const Coord &coord) {
  const bool float_coords = std::is_same_v<typename Coord::value_type, float>;
  Result result{};
  image_read(image.descriptor(), sampler, uint32_t(value) | (float_coords ? detail::image_float_coords : 0),
             coord.data(), result.data());
  return result;
}

Float4 read(TestImage &image, uint32_t sampler, Float4 coord) {
  return read_as<Float4>(image, ImageValue::Float, sampler, coord);
}
Float4 read(TestImage &image, uint32_t sampler, Int4 coord) {
  return read_as<Float4>(image, ImageValue::Float, sampler, coord);
}
// The x component of a read of a 1-D image at s.
float read_x(TestImage &image, uint32_t sampler, float s) { return read(image, sampler, Float4{s, 0, 0, 0})[0]; }

template <class Color>
void write(TestImage &image, ImageValue value, Int4 coord, const Color &color) {
  image_write(image.descriptor(), uint32_t(value), coord.data(), color.data());
}

void expect_float4_eq(const Float4 &expected, const Float4 &actual) {
  for (unsigned c = 0; c < 4; ++c) EXPECT_FLOAT_EQ(expected[c], actual[c]) << "component " << c;
}

// The bytes one pixel of `layout` and `type` holds after a write of `color`.
template <class Color>
Bytes written_pixel(uint32_t layout, uint32_t type, ImageValue value, const Color &color, Swizzle swizzle = r) {
  TestImage image(layout, type, swizzle, {});
  write(image, value, Int4{}, color);
  return image.bytes;
}

// --- Formats ------------------------------------------------------------------------------------------------------

struct FormatCase {
  const char *name;
  uint32_t layout, type;
  Swizzle swizzle;
  ImageValue value;
  std::array<double, 4> color; // written, as the value type
  Bytes bytes;                 // the pixel's memory after the write
  std::array<double, 4> read;  // what a read of the pixel gives
};

constexpr auto Float = ImageValue::Float, Int = ImageValue::Int, Uint = ImageValue::Uint;
constexpr uint32_t UINT = ZE_IMAGE_FORMAT_TYPE_UINT, SINT = ZE_IMAGE_FORMAT_TYPE_SINT,
                   UNORM = ZE_IMAGE_FORMAT_TYPE_UNORM, SNORM = ZE_IMAGE_FORMAT_TYPE_SNORM,
                   FLOAT = ZE_IMAGE_FORMAT_TYPE_FLOAT;

// Every layout and type image.cpp accepts, its bytes worked out by hand from the layout's channel order.
const FormatCase format_cases[] = {
    {"8 uint", ZE_IMAGE_FORMAT_LAYOUT_8, UINT, r, Uint, {200}, {0xC8}, {200, 0, 0, 1}},
    {"16 uint", ZE_IMAGE_FORMAT_LAYOUT_16, UINT, r, Uint, {50000}, {0x50, 0xC3}, {50000, 0, 0, 1}},
    {"32 uint", ZE_IMAGE_FORMAT_LAYOUT_32, UINT, r, Uint, {0xDEADBEEF}, {0xEF, 0xBE, 0xAD, 0xDE}, {0xDEADBEEF, 0, 0, 1}},
    {"8_8 uint", ZE_IMAGE_FORMAT_LAYOUT_8_8, UINT, rg, Uint, {1, 255}, {0x01, 0xFF}, {1, 255, 0, 1}},
    {"8_8_8_8 uint", ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, UINT, rgba, Uint, {1, 2, 3, 250}, {1, 2, 3, 0xFA}, {1, 2, 3, 250}},
    {"16_16 uint", ZE_IMAGE_FORMAT_LAYOUT_16_16, UINT, rg, Uint, {1, 65535}, {1, 0, 0xFF, 0xFF}, {1, 65535, 0, 1}},
    {"16_16_16_16 uint", ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16, UINT, rgba, Uint, {1, 2, 3, 0x1234},
     {1, 0, 2, 0, 3, 0, 0x34, 0x12}, {1, 2, 3, 0x1234}},
    {"32_32 uint", ZE_IMAGE_FORMAT_LAYOUT_32_32, UINT, rg, Uint, {7, 0x80000000}, {7, 0, 0, 0, 0, 0, 0, 0x80},
     {7, 0x80000000, 0, 1}},
    {"32_32_32_32 uint", ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32, UINT, rgba, Uint, {1, 2, 0x01020304, 0xFFFFFFFF},
     {1, 0, 0, 0, 2, 0, 0, 0, 4, 3, 2, 1, 0xFF, 0xFF, 0xFF, 0xFF}, {1, 2, 0x01020304, 0xFFFFFFFF}},

    {"8 sint", ZE_IMAGE_FORMAT_LAYOUT_8, SINT, r, Int, {-2}, {0xFE}, {-2, 0, 0, 1}},
    {"16 sint", ZE_IMAGE_FORMAT_LAYOUT_16, SINT, r, Int, {-300}, {0xD4, 0xFE}, {-300, 0, 0, 1}},
    {"32 sint", ZE_IMAGE_FORMAT_LAYOUT_32, SINT, r, Int, {-5}, {0xFB, 0xFF, 0xFF, 0xFF}, {-5, 0, 0, 1}},
    {"8_8 sint", ZE_IMAGE_FORMAT_LAYOUT_8_8, SINT, rg, Int, {-128, 127}, {0x80, 0x7F}, {-128, 127, 0, 1}},
    {"8_8_8_8 sint", ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, SINT, rgba, Int, {-1, 0, 1, -128}, {0xFF, 0, 1, 0x80},
     {-1, 0, 1, -128}},
    {"16_16 sint", ZE_IMAGE_FORMAT_LAYOUT_16_16, SINT, rg, Int, {-32768, 32767}, {0, 0x80, 0xFF, 0x7F},
     {-32768, 32767, 0, 1}},
    {"16_16_16_16 sint", ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16, SINT, rgba, Int, {-1, 2, -3, 4},
     {0xFF, 0xFF, 2, 0, 0xFD, 0xFF, 4, 0}, {-1, 2, -3, 4}},
    {"32_32 sint", ZE_IMAGE_FORMAT_LAYOUT_32_32, SINT, rg, Int, {int_min, -1}, {0, 0, 0, 0x80, 0xFF, 0xFF, 0xFF, 0xFF},
     {int_min, -1, 0, 1}},
    {"32_32_32_32 sint", ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32, SINT, rgba, Int, {-1, -2, 3, 4},
     {0xFF, 0xFF, 0xFF, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF, 3, 0, 0, 0, 4, 0, 0, 0}, {-1, -2, 3, 4}},

    // 0.2 * 255 = 51 (0x33), 0.6 * 255 = 153 (0x99); 0.5 * 65535 = 32767.5, to even 32768.
    {"8 unorm", ZE_IMAGE_FORMAT_LAYOUT_8, UNORM, r, Float, {1.0}, {0xFF}, {1, 0, 0, 1}},
    {"8_8 unorm", ZE_IMAGE_FORMAT_LAYOUT_8_8, UNORM, rg, Float, {0.2, 0.6}, {0x33, 0x99}, {51 / 255.0, 153 / 255.0, 0, 1}},
    {"8_8_8_8 unorm", ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, UNORM, rgba, Float, {0, 0.2, 0.6, 1}, {0, 0x33, 0x99, 0xFF},
     {0, 51 / 255.0, 153 / 255.0, 1}},
    {"16 unorm", ZE_IMAGE_FORMAT_LAYOUT_16, UNORM, r, Float, {0.5}, {0, 0x80}, {32768 / 65535.0, 0, 0, 1}},
    {"16_16 unorm", ZE_IMAGE_FORMAT_LAYOUT_16_16, UNORM, rg, Float, {0.25, 1}, {0, 0x40, 0xFF, 0xFF},
     {16384 / 65535.0, 1, 0, 1}},
    {"16_16_16_16 unorm", ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16, UNORM, rgba, Float, {0, 1, 0.5, 0.25},
     {0, 0, 0xFF, 0xFF, 0, 0x80, 0, 0x40}, {0, 1, 32768 / 65535.0, 16384 / 65535.0}},

    // 0.5 * 127 = 63.5, to even 64; 0.25 * 32767 = 8191.75, to 8192.
    {"8 snorm", ZE_IMAGE_FORMAT_LAYOUT_8, SNORM, r, Float, {-1}, {0x81}, {-1, 0, 0, 1}},
    {"8_8 snorm", ZE_IMAGE_FORMAT_LAYOUT_8_8, SNORM, rg, Float, {0.5, -0.5}, {0x40, 0xC0}, {64 / 127.0, -64 / 127.0, 0, 1}},
    {"8_8_8_8 snorm", ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, SNORM, rgba, Float, {1, -1, 0, 0.5}, {0x7F, 0x81, 0, 0x40},
     {1, -1, 0, 64 / 127.0}},
    {"16 snorm", ZE_IMAGE_FORMAT_LAYOUT_16, SNORM, r, Float, {-1}, {0x01, 0x80}, {-1, 0, 0, 1}},
    {"16_16 snorm", ZE_IMAGE_FORMAT_LAYOUT_16_16, SNORM, rg, Float, {0.5, -1}, {0, 0x40, 0x01, 0x80},
     {16384 / 32767.0, -1, 0, 1}},
    {"16_16_16_16 snorm", ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16, SNORM, rgba, Float, {1, 0, -0.5, 0.25},
     {0xFF, 0x7F, 0, 0, 0, 0xC0, 0, 0x20}, {1, 0, -16384 / 32767.0, 8192 / 32767.0}},

    // Halves: 1.5 is 0x3E00, -2 0xC000, 65504 (the largest) 0x7BFF, 0.1 rounds to 0x2E66 = 0.0999755859375.
    {"16 float", ZE_IMAGE_FORMAT_LAYOUT_16, FLOAT, r, Float, {1.5}, {0, 0x3E}, {1.5, 0, 0, 1}},
    {"16_16 float", ZE_IMAGE_FORMAT_LAYOUT_16_16, FLOAT, rg, Float, {-2, 65504}, {0, 0xC0, 0xFF, 0x7B}, {-2, 65504, 0, 1}},
    {"16_16_16_16 float", ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16, FLOAT, rgba, Float, {0.1, 1, -0.5, 0},
     {0x66, 0x2E, 0, 0x3C, 0, 0xB8, 0, 0}, {0.0999755859375, 1, -0.5, 0}},
    {"32 float", ZE_IMAGE_FORMAT_LAYOUT_32, FLOAT, r, Float, {3.25}, {0, 0, 0x50, 0x40}, {3.25, 0, 0, 1}},
    {"32_32 float", ZE_IMAGE_FORMAT_LAYOUT_32_32, FLOAT, rg, Float, {-0.5, 1024}, {0, 0, 0, 0xBF, 0, 0, 0x80, 0x44},
     {-0.5, 1024, 0, 1}},
    {"32_32_32_32 float", ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32, FLOAT, rgba, Float, {1, -2, 0.25, 8},
     {0, 0, 0x80, 0x3F, 0, 0, 0, 0xC0, 0, 0, 0x80, 0x3E, 0, 0, 0, 0x41}, {1, -2, 0.25, 8}},

    // 5_6_5: 31 << 11 | 32 << 5 (0.5 * 63 = 31.5, to even 32) | 0 = 0xFC00.
    {"5_6_5 unorm", ZE_IMAGE_FORMAT_LAYOUT_5_6_5, UNORM, rgb, Float, {1, 0.5, 0}, {0x00, 0xFC}, {1, 32 / 63.0, 0, 1}},
    // 5_5_5_1: 1 << 15 | 0 << 10 | 31 << 5 | 16 (0.5 * 31 = 15.5, to even 16) = 0x83F0.
    {"5_5_5_1 unorm", ZE_IMAGE_FORMAT_LAYOUT_5_5_5_1, UNORM, rgba, Float, {0, 1, 0.5, 1}, {0xF0, 0x83},
     {0, 1, 16 / 31.0, 1}},
    // 10_10_10_2: 2 << 30 (0.6666667 * 3 = 2) | 1023 << 20 | 512 << 10 (511.5 to even) | 0 = 0xBFF80000.
    {"10_10_10_2 unorm", ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2, UNORM, rgba, Float, {1, 0.5, 0, 0.6666667},
     {0, 0, 0xF8, 0xBF}, {1, 512 / 1023.0, 0, 2 / 3.0}},
    // 4_4_4_4: 15 << 12 | 3 << 8 (0.2 * 15) | 9 << 4 (0.6 * 15) | 0 = 0xF390.
    {"4_4_4_4 unorm", ZE_IMAGE_FORMAT_LAYOUT_4_4_4_4, UNORM, rgba, Float, {1, 0.2, 0.6, 0}, {0x90, 0xF3},
     {1, 3 / 15.0, 9 / 15.0, 0}},
    // 11_11_10: 1.5 is exponent 15, mantissa 100000b (0x3E0); 0.5 exponent 14 (0x380, at bit 11); 2.0 in the 10-bit
    // float exponent 16 (0x200, at bit 22): 0x801C03E0.
    {"11_11_10 float", ZE_IMAGE_FORMAT_LAYOUT_11_11_10, FLOAT, rgb, Float, {1.5, 0.5, 2}, {0xE0, 0x03, 0x1C, 0x80},
     {1.5, 0.5, 2, 1}},
};

TEST(ImageSampling, EveryFormatWritesTheBytesItsLayoutNamesAndReadsThemBack) {
  for (const FormatCase &test : format_cases) {
    SCOPED_TRACE(test.name);
    TestImage image(test.layout, test.type, test.swizzle, {});
    if (test.value == Float) {
      const Float4 color{float(test.color[0]), float(test.color[1]), float(test.color[2]), float(test.color[3])};
      write(image, test.value, Int4{}, color);
      EXPECT_EQ(test.bytes, image.bytes);
      const Float4 expected{float(test.read[0]), float(test.read[1]), float(test.read[2]), float(test.read[3])};
      expect_float4_eq(expected, read(image, no_sampler, Int4{}));
    } else {
      const Int4 color{int32_t(int64_t(test.color[0])), int32_t(int64_t(test.color[1])),
                       int32_t(int64_t(test.color[2])), int32_t(int64_t(test.color[3]))};
      write(image, test.value, Int4{}, color);
      EXPECT_EQ(test.bytes, image.bytes);
      Uint4 expected;
      for (unsigned c = 0; c < 4; ++c) expected[c] = uint32_t(int64_t(test.read[c]));
      EXPECT_EQ(expected, read_as<Uint4>(image, test.value, no_sampler, Int4{}));
    }
  }
}

// --- Conversions --------------------------------------------------------------------------------------------------

TEST(ImageSampling, Unorm8WritesRoundToNearestEvenAndSaturate) {
  // 0.5 * 255 = 127.5 and 0x1.414142p-7 * 255 = 2.5 and 0x1.010102p-9 * 255 = 0.5 exactly, which go to even;
  // 0.998 * 255 = 254.49 and 0.999 * 255 = 254.745 to the nearest; the rest saturate, NaN to 0.
  const float values[] = {0.5f, 0x1.414142p-7f, 0x1.010102p-9f, 0.998f, 0.999f, 1 / 255.0f, -0.5f, 2.0f,
                          infinity, -infinity, nan};
  const Bytes expected = {128, 2, 0, 254, 255, 1, 0, 255, 255, 0, 0};
  for (size_t i = 0; i < std::size(values); ++i) {
    EXPECT_EQ(Bytes{expected[i]}, written_pixel(ZE_IMAGE_FORMAT_LAYOUT_8, UNORM, Float, Float4{values[i]}))
        << values[i];
  }
}

TEST(ImageSampling, Unorm8And16ReadsDivideByTheLargestValue) {
  TestImage image(ZE_IMAGE_FORMAT_LAYOUT_8_8, UNORM, rg, {.width = 2});
  image.bytes = {0, 1, 128, 255};
  expect_float4_eq({0, 1 / 255.0f, 0, 1}, read(image, no_sampler, Int4{0}));
  expect_float4_eq({128 / 255.0f, 1, 0, 1}, read(image, no_sampler, Int4{1}));
  TestImage wide(ZE_IMAGE_FORMAT_LAYOUT_16, UNORM, r, {});
  wide.bytes = {0x01, 0x00};
  EXPECT_FLOAT_EQ(1 / 65535.0f, read(wide, no_sampler, Int4{})[0]);
}

TEST(ImageSampling, Unorm16WritesRoundToNearestEvenAndSaturate) {
  const float values[] = {0.5f, 0.25f, 1 / 65535.0f, 2.0f, -1.0f, nan};
  const uint16_t expected[] = {32768, 16384, 1, 65535, 0, 0};
  for (size_t i = 0; i < std::size(values); ++i) {
    const Bytes pixel = written_pixel(ZE_IMAGE_FORMAT_LAYOUT_16, UNORM, Float, Float4{values[i]});
    EXPECT_EQ((Bytes{uint8_t(expected[i]), uint8_t(expected[i] >> 8)}), pixel) << values[i];
  }
}

TEST(ImageSampling, SnormWritesRoundToNearestEvenAndSaturateToTheTypesRange) {
  // 0x1.42850ap-6 * 127 = 2.5 exactly, to even 2; -0x1.f9f3e8p-1 * 127 = -125.5, to even -126. convert_char_sat_rte
  // saturates to -128, below -1.0's -127.
  const float values[] = {0.5f, -0.5f, 0x1.42850ap-6f, -0x1.42850ap-6f, -0x1.f9f3e8p-1f, 1, -1, 2, -2, -infinity, nan};
  const Bytes expected = {0x40, 0xC0, 2, 0xFE, 0x82, 0x7F, 0x81, 0x7F, 0x80, 0x80, 0};
  for (size_t i = 0; i < std::size(values); ++i) {
    EXPECT_EQ(Bytes{expected[i]}, written_pixel(ZE_IMAGE_FORMAT_LAYOUT_8, SNORM, Float, Float4{values[i]}))
        << values[i];
  }
  EXPECT_EQ((Bytes{0x00, 0x80}), written_pixel(ZE_IMAGE_FORMAT_LAYOUT_16, SNORM, Float, Float4{-2}));
  EXPECT_EQ((Bytes{0xFF, 0x7F}), written_pixel(ZE_IMAGE_FORMAT_LAYOUT_16, SNORM, Float, Float4{infinity}));
  EXPECT_EQ((Bytes{0x00, 0x00}), written_pixel(ZE_IMAGE_FORMAT_LAYOUT_16, SNORM, Float, Float4{nan}));
}

TEST(ImageSampling, SnormReadsOfTheMostNegativeValueGiveMinusOne) {
  TestImage image(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, SNORM, rgba, {.width = 2});
  image.bytes = {0x80, 0x81, 0x7F, 0x40, 0xC0, 0x00, 0x01, 0xFF};
  EXPECT_EQ((Float4{-1, -1, 1, 64 / 127.0f}), read(image, no_sampler, Int4{0}));
  EXPECT_EQ((Float4{-64 / 127.0f, 0, 1 / 127.0f, -1 / 127.0f}), read(image, no_sampler, Int4{1}));
  TestImage wide(ZE_IMAGE_FORMAT_LAYOUT_16, SNORM, r, {});
  wide.bytes = {0x00, 0x80};
  EXPECT_EQ(-1.0f, read(wide, no_sampler, Int4{})[0]);
}

TEST(ImageSampling, HalfChannelsRoundWrittenFloatsToNearestEven) {
  // 1 + 2^-11 lies halfway between 0x3C00 and 0x3C01, 1 + 3 * 2^-11 between 0x3C01 and 0x3C02; 65520 halfway
  // between the largest half and infinity; 2^-25 halfway between 0 and the smallest subnormal, 3 * 2^-25 between
  // subnormals 1 and 2.
  const float values[] = {1 + 0x1p-11f, 1 + 3 * 0x1p-11f, 65519.0f, 65520.0f, 0x1p-25f, 0x1.8p-25f, 3 * 0x1p-25f,
                          0x1p-20f, 0x1p-14f, -0.0f, -infinity, 1e-10f};
  const uint16_t expected[] = {0x3C00, 0x3C02, 0x7BFF, 0x7C00, 0x0000, 0x0001, 0x0002, 0x0010, 0x0400, 0x8000,
                               0xFC00, 0x0000};
  for (size_t i = 0; i < std::size(values); ++i) {
    const Bytes pixel = written_pixel(ZE_IMAGE_FORMAT_LAYOUT_16, FLOAT, Float, Float4{values[i]});
    EXPECT_EQ((Bytes{uint8_t(expected[i]), uint8_t(expected[i] >> 8)}), pixel) << values[i];
  }
  const Bytes not_a_number = written_pixel(ZE_IMAGE_FORMAT_LAYOUT_16, FLOAT, Float, Float4{nan});
  const uint16_t bits = uint16_t(not_a_number[0] | not_a_number[1] << 8);
  EXPECT_EQ(0x7C00, bits & 0x7C00);
  EXPECT_NE(0, bits & 0x03FF);
}

TEST(ImageSampling, HalfChannelsReadAsFloatsExactly) {
  TestImage image(ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16, FLOAT, rgba, {.width = 2});
  // 0x0001 = 2^-24, 0x7BFF = 65504, 0xFC00 = -inf, 0x3555 = 0.333251953125; 0x8000 = -0, 0x7E00 NaN, 0x03FF the
  // largest subnormal, 1023 * 2^-24, 0xC001 = -(2 + 2^-9).
  image.bytes = {0x01, 0x00, 0xFF, 0x7B, 0x00, 0xFC, 0x55, 0x35, 0x00, 0x80, 0x00, 0x7E, 0xFF, 0x03, 0x01, 0xC0};
  EXPECT_EQ((Float4{0x1p-24f, 65504, -infinity, 0.333251953125f}), read(image, no_sampler, Int4{0}));
  const Float4 second = read(image, no_sampler, Int4{1});
  EXPECT_EQ(0.0f, second[0]);
  EXPECT_TRUE(std::signbit(second[0]));
  EXPECT_TRUE(std::isnan(second[1]));
  EXPECT_EQ(1023 * 0x1p-24f, second[2]);
  EXPECT_EQ(-(2 + 0x1p-9f), second[3]);
}

TEST(ImageSampling, HalfReadsRoundTheFloatResultToHalf) {
  TestImage image(ZE_IMAGE_FORMAT_LAYOUT_8, UNORM, r, {.width = 2});
  image.bytes = {1, 255};
  // 1/255 = 2^-8 * 1.0039..., a mantissa of 1024 * 0.0039 = 4.02, to 4: 0x1C00 + 4. 1.0 is 0x3C00.
  EXPECT_EQ((Half4{0x1C04, 0, 0, 0x3C00}), read_as<Half4>(image, ImageValue::Half, no_sampler, Int4{0}));
  // Linear filtering halfway between the two pixels: (1/255 + 1) / 2 = 0.50196..., to 0x3804 (0.501953125).
  EXPECT_EQ((Half4{0x3804, 0, 0, 0x3C00}),
            read_as<Half4>(image, ImageValue::Half, linear | clamp_to_edge, Float4{1.0f, 0, 0, 0}));
}

TEST(ImageSampling, HalfWritesConvertTheHalvesToFloatFirst) {
  // 0x3800 = 0.5 (unorm8 128 after rounding 127.5 to even), 0x3C00 = 1, 0xBC00 = -1, 0x7E00 NaN.
  const Half4 halves{0x3800, 0x3C00, 0xBC00, 0x7E00};
  EXPECT_EQ((Bytes{128, 255, 0, 0}),
            written_pixel(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, UNORM, ImageValue::Half, halves, rgba));
  EXPECT_EQ((Bytes{0, 0, 0, 0x3F, 0, 0, 0x80, 0x3F}),
            written_pixel(ZE_IMAGE_FORMAT_LAYOUT_32_32, FLOAT, ImageValue::Half, halves, rg));
}

TEST(ImageSampling, The11_11_10FloatsHaveNoSignAndRoundTheirShortMantissas) {
  // -1 stores 0; 1 + 2^-7 lies halfway between the 11-bit floats 1 (0x3C0) and 1 + 2^-6, and 1 + 2^-6 halfway
  // between the 10-bit floats 1 (0x1E0) and 1 + 2^-5: both to even. 0x1E0 << 22 | 0x3C0 << 11 = 0x781E0000.
  EXPECT_EQ((Bytes{0x00, 0x00, 0x1E, 0x78}), written_pixel(ZE_IMAGE_FORMAT_LAYOUT_11_11_10, FLOAT, Float,
                                                           Float4{-1, 1 + 0x1p-7f, 1 + 0x1p-6f}, rgb));
  // 131072 is past the largest 11-bit float (65024): infinity, exponent 31 (0x7C0).
  TestImage image(ZE_IMAGE_FORMAT_LAYOUT_11_11_10, FLOAT, rgb, {});
  write(image, Float, Int4{}, Float4{131072, 0x1p-20f, 0, 0});
  // 2^-20 is the smallest 11-bit subnormal (2^-14 * 2^-6), mantissa 1 at bit 11: 0x800 | 0x7C0.
  EXPECT_EQ((Bytes{0xC0, 0x0F, 0x00, 0x00}), image.bytes);
  EXPECT_EQ((Float4{infinity, 0x1p-20f, 0, 1}), read(image, no_sampler, Int4{}));
}

TEST(ImageSampling, IntegerWritesSaturateToTheChannelsRange) {
  struct Case {
    uint32_t layout, type;
    ImageValue value;
    uint32_t color;
    Bytes bytes;
  };
  const Case cases[] = {
      {ZE_IMAGE_FORMAT_LAYOUT_8, SINT, Int, 300, {0x7F}},
      {ZE_IMAGE_FORMAT_LAYOUT_8, SINT, Int, uint32_t(-300), {0x80}},
      {ZE_IMAGE_FORMAT_LAYOUT_8, SINT, Uint, 200, {0x7F}},
      {ZE_IMAGE_FORMAT_LAYOUT_8, SINT, Uint, 0xFFFFFFFF, {0x7F}}, // unsigned: 4294967295, not -1
      {ZE_IMAGE_FORMAT_LAYOUT_8, UINT, Int, uint32_t(-5), {0x00}},
      {ZE_IMAGE_FORMAT_LAYOUT_8, UINT, Int, 300, {0xFF}},
      {ZE_IMAGE_FORMAT_LAYOUT_8, UINT, Uint, 256, {0xFF}},
      {ZE_IMAGE_FORMAT_LAYOUT_16, UINT, Uint, 70000, {0xFF, 0xFF}},
      {ZE_IMAGE_FORMAT_LAYOUT_16, UINT, Int, uint32_t(-1), {0x00, 0x00}},
      {ZE_IMAGE_FORMAT_LAYOUT_16, SINT, Int, 40000, {0xFF, 0x7F}},
      {ZE_IMAGE_FORMAT_LAYOUT_16, SINT, Int, uint32_t(-40000), {0x00, 0x80}},
      {ZE_IMAGE_FORMAT_LAYOUT_32, UINT, Int, uint32_t(-1), {0, 0, 0, 0}},
      {ZE_IMAGE_FORMAT_LAYOUT_32, UINT, Uint, 0xFFFFFFFF, {0xFF, 0xFF, 0xFF, 0xFF}},
      {ZE_IMAGE_FORMAT_LAYOUT_32, SINT, Uint, 0x80000000, {0xFF, 0xFF, 0xFF, 0x7F}},
      {ZE_IMAGE_FORMAT_LAYOUT_32, SINT, Int, uint32_t(int_min), {0, 0, 0, 0x80}},
  };
  for (const Case &test : cases) {
    EXPECT_EQ(test.bytes, written_pixel(test.layout, test.type, test.value, Uint4{test.color}))
        << "layout " << test.layout << " type " << test.type << " value " << test.color;
  }
}

TEST(ImageSampling, IntegerReadsZeroOrSignExtendTheChannels) {
  TestImage bytes(ZE_IMAGE_FORMAT_LAYOUT_8_8, SINT, rg, {});
  bytes.bytes = {0xFF, 0x80};
  EXPECT_EQ((Int4{-1, -128, 0, 1}), read_as<Int4>(bytes, Int, no_sampler, Int4{}));
  TestImage unsigned_bytes(ZE_IMAGE_FORMAT_LAYOUT_8_8, UINT, rg, {});
  unsigned_bytes.bytes = {0xFF, 0x80};
  EXPECT_EQ((Uint4{255, 128, 0, 1}), read_as<Uint4>(unsigned_bytes, Uint, no_sampler, Int4{}));
  TestImage shorts(ZE_IMAGE_FORMAT_LAYOUT_16_16, SINT, rg, {});
  shorts.bytes = {0x00, 0x80, 0xFF, 0x7F};
  EXPECT_EQ((Int4{-32768, 32767, 0, 1}), read_as<Int4>(shorts, Int, no_sampler, Int4{}));
}

// OpenCL leaves these undefined; the driver gives the stored value and must not fail.
TEST(ImageSampling, ReadsAndWritesOfTheOtherKindOfValueGiveTheStoredValue) {
  TestImage integers(ZE_IMAGE_FORMAT_LAYOUT_8, UINT, r, {});
  integers.bytes = {200};
  EXPECT_EQ((Float4{200, 0, 0, 1}), read(integers, no_sampler, Int4{}));
  EXPECT_EQ((Float4{200, 0, 0, 1}), read(integers, linear | clamp_to_edge, Float4{0.5f}));
  TestImage normalized_bytes(ZE_IMAGE_FORMAT_LAYOUT_8, UNORM, r, {});
  normalized_bytes.bytes = {200};
  EXPECT_EQ((Uint4{200, 0, 0, 1}), read_as<Uint4>(normalized_bytes, Uint, no_sampler, Int4{}));
  write(normalized_bytes, Uint, Int4{}, Uint4{7});
  EXPECT_EQ(Bytes{7}, normalized_bytes.bytes);
  write(integers, Float, Int4{}, Float4{nan});
  write(integers, ImageValue::Half, Int4{}, Half4{0x7C00});
}

// --- Swizzles -----------------------------------------------------------------------------------------------------

TEST(ImageSampling, ABgraImageReadsAndWritesItsBytesAsBlueGreenRedAlpha) {
  TestImage image(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, UNORM, bgra, {});
  image.bytes = {10, 20, 30, 40};
  expect_float4_eq({30 / 255.0f, 20 / 255.0f, 10 / 255.0f, 40 / 255.0f}, read(image, no_sampler, Int4{}));
  write(image, Float, Int4{}, Float4{1, 0, 0.2f, 0.6f});
  EXPECT_EQ((Bytes{51, 0, 255, 153}), image.bytes);
}

TEST(ImageSampling, AnRImageReadsZeroGreenAndBlueAndAnAlphaOfOne) {
  TestImage image(ZE_IMAGE_FORMAT_LAYOUT_8, UNORM, r, {});
  image.bytes = {255};
  EXPECT_EQ((Float4{1, 0, 0, 1}), read(image, no_sampler, Int4{}));
  EXPECT_EQ((Half4{0x3C00, 0, 0, 0x3C00}), read_as<Half4>(image, ImageValue::Half, no_sampler, Int4{}));
  TestImage integers(ZE_IMAGE_FORMAT_LAYOUT_32, UINT, r, {});
  integers.bytes = {9, 0, 0, 0};
  EXPECT_EQ((Uint4{9, 0, 0, 1}), read_as<Uint4>(integers, Uint, no_sampler, Int4{}));
}

TEST(ImageSampling, ASwizzleNamingAChannelTheLayoutLacksReadsZeroAndWritesNothing) {
  TestImage image(ZE_IMAGE_FORMAT_LAYOUT_8_8, UINT, rgba, {}); // two bytes: B and A do not exist
  write(image, Uint, Int4{}, Uint4{10, 20, 30, 40});
  EXPECT_EQ((Bytes{10, 20}), image.bytes);
  EXPECT_EQ((Uint4{10, 20, 0, 0}), read_as<Uint4>(image, Uint, no_sampler, Int4{}));
}

TEST(ImageSampling, ChannelsNoComponentNamesAreWrittenZero) {
  TestImage image(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, UINT, Swizzle{R, G, Zero, One}, {});
  image.bytes = {0xAA, 0xAA, 0xAA, 0xAA};
  write(image, Uint, Int4{}, Uint4{1, 2, 3, 4});
  EXPECT_EQ((Bytes{1, 2, 0, 0}), image.bytes);
  EXPECT_EQ((Uint4{1, 2, 0, 1}), read_as<Uint4>(image, Uint, no_sampler, Int4{}));
}

TEST(ImageSampling, SwizzleXReadsZero) {
  TestImage image(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, UNORM, Swizzle{A, X, X, X}, {});
  image.bytes = {0, 0, 0, 255};
  EXPECT_EQ((Float4{1, 0, 0, 0}), read(image, no_sampler, Int4{}));
}

// --- Addressing and filtering -------------------------------------------------------------------------------------

TEST(ImageSampling, NearestFilteringTakesThePixelUnderTheCoordinate) {
  TestImage image = four_pixels();
  EXPECT_EQ(10, read_x(image, nearest | clamp_to_edge, 0.0f));
  EXPECT_EQ(30, read_x(image, nearest | clamp_to_edge, 2.7f));
  EXPECT_EQ(40, read_x(image, nearest | clamp_to_edge, 3.99f));
  // Normalized: u = s * 4.
  EXPECT_EQ(30, read_x(image, normalized | nearest | clamp_to_edge, 0.6f));
  EXPECT_EQ(30, read_x(image, normalized | nearest | clamp_to_edge, 0.5f));
  EXPECT_EQ(10, read_x(image, normalized | nearest | clamp_to_edge, 0.24f));
}

TEST(ImageSampling, LinearFilteringOfA1DImageBlendsTheTwoNearestPixels) {
  TestImage image = four_pixels();
  // u - 0.5 = 1.25: pixels 1 and 2 weighted 0.75 and 0.25.
  EXPECT_EQ(22.5f, read_x(image, linear | clamp_to_edge, 1.75f));
  // At a pixel's centre only that pixel counts.
  EXPECT_EQ(30, read_x(image, linear | clamp_to_edge, 2.5f));
  // Normalized 0.5: u = 2, halfway between pixels 1 and 2.
  EXPECT_EQ(25, read_x(image, normalized | linear | clamp_to_edge, 0.5f));
}

TEST(ImageSampling, LinearFilteringOfA2x2ImageBlendsTheFourPixels) {
  TestImage image = float_image({.width = 2, .height = 2, .dims = 2}, {1, 2, 3, 4});
  EXPECT_EQ(2.5f, read(image, linear | clamp_to_edge, Float4{1, 1})[0]);
  // a = 0.75, b = 0.25: 0.25 * 0.75 * 1 + 0.75 * 0.75 * 2 + 0.25 * 0.25 * 3 + 0.75 * 0.25 * 4 = 2.25.
  EXPECT_EQ(2.25f, read(image, linear | clamp_to_edge, Float4{1.25f, 0.75f})[0]);
  EXPECT_EQ(2.25f, read(image, normalized | linear | clamp_to_edge, Float4{0.625f, 0.375f})[0]);
  EXPECT_EQ(4, read(image, nearest | clamp_to_edge, Float4{1.25f, 1.75f})[0]);
  EXPECT_EQ(3, read(image, normalized | nearest | clamp_to_edge, Float4{0.25f, 0.75f})[0]);
}

TEST(ImageSampling, LinearFilteringOfA3DImageBlendsTheEightPixels) {
  // The value x + 2y + 4z, which linear filtering reproduces between pixel centres.
  TestImage image = float_image({.width = 2, .height = 2, .depth = 2, .dims = 3}, {0, 1, 2, 3, 4, 5, 6, 7});
  EXPECT_EQ(3.5f, read(image, linear | clamp_to_edge, Float4{1, 1, 1})[0]);
  // u - 0.5 = 0.75, 0.5, 0.25: 0.75 + 2 * 0.5 + 4 * 0.25.
  EXPECT_EQ(2.75f, read(image, normalized | linear | clamp_to_edge, Float4{0.625f, 0.5f, 0.375f})[0]);
  EXPECT_EQ(6, read(image, nearest | clamp_to_edge, Float4{0.5f, 1.5f, 1.0f})[0]);
  EXPECT_EQ(5, read(image, normalized | nearest | clamp_to_edge, Float4{0.75f, 0.25f, 0.5f})[0]);
}

TEST(ImageSampling, ClampToEdgeAddressingHoldsTheEdgePixels) {
  TestImage image = four_pixels();
  EXPECT_EQ(10, read_x(image, normalized | nearest | clamp_to_edge, -0.5f));
  EXPECT_EQ(40, read_x(image, normalized | nearest | clamp_to_edge, 1.5f));
  // u - 0.5 = -0.25: pixel -1, clamped to 0, and pixel 0.
  EXPECT_EQ(10, read_x(image, linear | clamp_to_edge, 0.25f));
  EXPECT_EQ(40, read_x(image, linear | clamp_to_edge, 3.9f));
}

TEST(ImageSampling, ClampAddressingReadsTheBorderOutsideTheImageWithAnAlphaOfOneForAnRFormat) {
  TestImage image = four_pixels();
  EXPECT_EQ((Float4{0, 0, 0, 1}), read(image, nearest | clamp, Float4{-0.5f}));
  EXPECT_EQ((Float4{0, 0, 0, 1}), read(image, nearest | clamp, Float4{4.0f}));
  EXPECT_EQ((Float4{0, 0, 0, 1}), read(image, normalized | nearest | clamp, Float4{1.0f}));
  EXPECT_EQ((Float4{40, 0, 0, 1}), read(image, nearest | clamp, Float4{3.99f}));
  // Linear: pixel -1 is the border, weighted 0.25 against pixel 0's 0.75.
  EXPECT_EQ((Float4{7.5f, 0, 0, 1}), read(image, linear | clamp, Float4{0.25f}));
  EXPECT_EQ((Float4{10, 0, 0, 1}), read(image, linear | clamp, Float4{4.25f}));
}

TEST(ImageSampling, TheBorderIsZeroInEveryChannelTheFormatHas) {
  TestImage rgba_image(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, UNORM, rgba, {});
  rgba_image.bytes = {255, 255, 255, 255};
  EXPECT_EQ((Float4{0, 0, 0, 0}), read(rgba_image, nearest | clamp, Float4{2.0f}));
  TestImage integers(ZE_IMAGE_FORMAT_LAYOUT_8, UINT, r, {});
  integers.bytes = {5};
  EXPECT_EQ((Uint4{0, 0, 0, 1}), read_as<Uint4>(integers, Uint, nearest | clamp, Int4{-1}));
  TestImage bgr_image(ZE_IMAGE_FORMAT_LAYOUT_5_6_5, UNORM, Swizzle{B, G, R, One}, {});
  EXPECT_EQ((Float4{0, 0, 0, 1}), read(bgr_image, normalized | nearest | clamp, Float4{-0.1f}));
}

TEST(ImageSampling, RepeatAddressingWrapsNormalizedCoordinates) {
  TestImage image = four_pixels();
  const uint32_t sampler = normalized | nearest | repeat;
  EXPECT_EQ(30, read_x(image, sampler, 1.6f));   // 0.6 * 4 = 2.4
  EXPECT_EQ(40, read_x(image, sampler, -0.1f));  // 0.9 * 4 = 3.6
  EXPECT_EQ(10, read_x(image, sampler, -0x1p-30f)); // s - floor(s) rounds to 1: u = 4, which wraps to 0
  // Linear: u - 0.5 = -0.5 takes pixels 3 and 0 half each; 3.25 takes 3 and 0 weighted 0.75 and 0.25.
  EXPECT_EQ(25, read_x(image, normalized | linear | repeat, 0.0f));
  EXPECT_EQ(25, read_x(image, normalized | linear | repeat, 1.0f));
  EXPECT_EQ(20, read_x(image, normalized | linear | repeat, 2.375f));
  EXPECT_EQ(32.5f, read_x(image, normalized | linear | repeat, 0.9375f));
}

TEST(ImageSampling, MirroredRepeatAddressingReflectsAtEveryEdge) {
  TestImage image = four_pixels();
  const uint32_t sampler = normalized | nearest | mirrored_repeat;
  EXPECT_EQ(40, read_x(image, sampler, 1.1f));  // |1.1 - 2| = 0.9: u = 3.6
  EXPECT_EQ(10, read_x(image, sampler, -0.1f)); // 0.1: u = 0.4
  EXPECT_EQ(10, read_x(image, sampler, 1.9f));  // |1.9 - 2| = 0.1
  EXPECT_EQ(20, read_x(image, sampler, 2.3f));  // |2.3 - 2| = 0.3: u = 1.2
  EXPECT_EQ(40, read_x(image, sampler, 1.0f));  // rint(0.5) = 0: s' = 1, u = 4, held at 3
  // Linear: 1.0 gives u - 0.5 = 3.5, both pixels held at 3; 0.3125 gives 0.75 between pixels 0 and 1.
  EXPECT_EQ(40, read_x(image, normalized | linear | mirrored_repeat, 1.0f));
  EXPECT_EQ(10, read_x(image, normalized | linear | mirrored_repeat, -0.125f));
  EXPECT_EQ(17.5f, read_x(image, normalized | linear | mirrored_repeat, 0.3125f));
  EXPECT_EQ(17.5f, read_x(image, normalized | linear | mirrored_repeat, -0.3125f));
}

TEST(ImageSampling, RepeatAndMirroredRepeatWithUnnormalizedCoordinatesClampToTheEdge) {
  TestImage image = four_pixels();
  for (uint32_t addressing : {repeat, mirrored_repeat}) {
    EXPECT_EQ(40, read_x(image, nearest | addressing, 5.5f));
    EXPECT_EQ(10, read_x(image, nearest | addressing, -3.0f));
    EXPECT_EQ(22.5f, read_x(image, linear | addressing, 1.75f));
    EXPECT_EQ(10, read_x(image, linear | addressing, 0.25f));
  }
}

TEST(ImageSampling, AddressingNoneReadsTheNearestPixelInsideTheImage) {
  TestImage image = four_pixels();
  EXPECT_EQ(30, read_x(image, nearest | none, 2.5f));
  EXPECT_EQ(40, read_x(image, nearest | none, 1e30f));
  EXPECT_EQ(10, read_x(image, nearest | none, -1e30f));
  EXPECT_EQ(40, read_x(image, normalized | nearest | none, 1e30f)); // u = s * 4 overflows to infinity
  EXPECT_EQ(40, read_x(image, linear | none, 1e30f));
  EXPECT_EQ(10, read_x(image, linear | none, -infinity));
  EXPECT_EQ(40, read(image, no_sampler, Int4{int_max})[0]);
  EXPECT_EQ(10, read(image, no_sampler, Int4{int_min})[0]);
}

TEST(ImageSampling, IntegerCoordinatesNameThePixelAndFollowTheAddressingOutsideTheImage) {
  TestImage image = four_pixels();
  EXPECT_EQ(30, read(image, no_sampler, Int4{2})[0]);
  EXPECT_EQ(10, read(image, nearest | clamp_to_edge, Int4{-5})[0]);
  EXPECT_EQ(40, read(image, nearest | clamp_to_edge, Int4{100})[0]);
  EXPECT_EQ((Float4{0, 0, 0, 1}), read(image, nearest | clamp, Int4{-1}));
  EXPECT_EQ((Float4{0, 0, 0, 1}), read(image, nearest | clamp, Int4{4}));
  EXPECT_EQ((Float4{40, 0, 0, 1}), read(image, nearest | clamp, Int4{3}));
  // A linear sampler takes the named pixel too (OpenCL allows only nearest with integer coordinates).
  EXPECT_EQ(20, read(image, linear | clamp_to_edge, Int4{1})[0]);
}

TEST(ImageSampling, IntegerReadsIgnoreLinearFiltering) {
  TestImage image(ZE_IMAGE_FORMAT_LAYOUT_8, UINT, r, {.width = 4});
  image.bytes = {10, 20, 30, 40};
  EXPECT_EQ((Uint4{20, 0, 0, 1}), read_as<Uint4>(image, Uint, linear | clamp_to_edge, Float4{1.75f}));
  EXPECT_EQ((Uint4{30, 0, 0, 1}), read_as<Uint4>(image, Uint, normalized | linear | clamp_to_edge, Float4{0.5f}));
}

TEST(ImageSampling, PixelsLieAtTheirRowAndSlicePitches) {
  // Rows of 3 bytes for 2 pixels, slices of 7 for 2 rows: pixel (1, 1, 1) is byte 7 + 3 + 1.
  TestImage image(ZE_IMAGE_FORMAT_LAYOUT_8, UINT, r, {.width = 2, .height = 2, .depth = 2, .dims = 3}, 1, 1);
  ASSERT_EQ(14u, image.bytes.size());
  write(image, Uint, Int4{1, 1, 1}, Uint4{9});
  write(image, Uint, Int4{0, 1, 0}, Uint4{5});
  EXPECT_EQ((Bytes{0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0}), image.bytes);
  EXPECT_EQ((Uint4{9, 0, 0, 1}), read_as<Uint4>(image, Uint, no_sampler, Int4{1, 1, 1}));
  EXPECT_EQ((Uint4{5, 0, 0, 1}), read_as<Uint4>(image, Uint, no_sampler, Float4{0.5f, 1.5f, 0.5f}));
}

// --- Arrays -------------------------------------------------------------------------------------------------------

TEST(ImageSampling, A1DArrayTakesItsLayerFromItsRowsRoundedToEvenAndClamped) {
  // Pixel (x, layer) holds 100 * layer + x.
  TestImage image = float_image({.width = 2, .layers = 3}, {0, 1, 100, 101, 200, 201});
  const uint32_t sampler = nearest | clamp_to_edge;
  EXPECT_EQ(101, read(image, sampler, Float4{1.5f, 1.0f})[0]);
  EXPECT_EQ(101, read(image, sampler, Float4{1.5f, 1.4f})[0]);
  EXPECT_EQ(201, read(image, sampler, Float4{1.5f, 1.5f})[0]); // rint(1.5) = 2
  EXPECT_EQ(1, read(image, sampler, Float4{1.5f, 0.5f})[0]);   // rint(0.5) = 0
  EXPECT_EQ(201, read(image, sampler, Float4{1.5f, 2.5f})[0]); // rint(2.5) = 2
  EXPECT_EQ(1, read(image, sampler, Float4{1.5f, -3.0f})[0]);
  EXPECT_EQ(201, read(image, sampler, Float4{1.5f, 7.0f})[0]);
  EXPECT_EQ(201, read(image, sampler, Float4{1.5f, infinity})[0]);
  EXPECT_EQ(1, read(image, no_sampler, Int4{1, -1})[0]);
  EXPECT_EQ(201, read(image, no_sampler, Int4{1, 5})[0]);
  // Normalized coordinates scale the pixel coordinate, not the layer.
  EXPECT_EQ(100, read(image, normalized | nearest | clamp_to_edge, Float4{0.25f, 1.0f})[0]);
}

TEST(ImageSampling, A2DArrayTakesItsLayerFromItsSlicesAndFiltersWithinOneLayer) {
  // Pixel (x, y, layer) holds 10 * layer + x + 2y.
  TestImage image = float_image({.width = 2, .height = 2, .layers = 2, .dims = 2}, {0, 1, 2, 3, 10, 11, 12, 13});
  EXPECT_EQ(11.5f, read(image, linear | clamp_to_edge, Float4{1, 1, 1.4f})[0]);
  EXPECT_EQ(11.5f, read(image, linear | clamp_to_edge, Float4{1, 1, 0.6f})[0]);
  EXPECT_EQ(1.5f, read(image, linear | clamp_to_edge, Float4{1, 1, 0.4f})[0]);
  EXPECT_EQ(11.5f, read(image, normalized | linear | clamp_to_edge, Float4{0.5f, 0.5f, 1})[0]);
  EXPECT_EQ(13, read(image, no_sampler, Int4{1, 1, 9})[0]);
  // Clamp addressing's border is about pixels; the layer is still clamped.
  EXPECT_EQ((Float4{0, 0, 0, 1}), read(image, nearest | clamp, Float4{-1, 0, 1}));
  EXPECT_EQ(12, read(image, nearest | clamp, Float4{0.5f, 1.5f, 5})[0]);
}

TEST(ImageSampling, ArrayWritesGoToTheirLayerAndOutsideTheLayersAreDropped) {
  TestImage image(ZE_IMAGE_FORMAT_LAYOUT_8, UINT, r, {.width = 2, .height = 2, .layers = 2, .dims = 2});
  write(image, Uint, Int4{1, 0, 1}, Uint4{7});
  write(image, Uint, Int4{0, 0, 2}, Uint4{8});
  write(image, Uint, Int4{0, 0, -1}, Uint4{8});
  EXPECT_EQ((Bytes{0, 0, 0, 0, 0, 7, 0, 0}), image.bytes);
  TestImage rows(ZE_IMAGE_FORMAT_LAYOUT_8, UINT, r, {.width = 2, .layers = 2});
  write(rows, Uint, Int4{0, 1}, Uint4{6});
  write(rows, Uint, Int4{0, 2}, Uint4{8});
  EXPECT_EQ((Bytes{0, 0, 6, 0}), rows.bytes);
}

// --- Memory safety ------------------------------------------------------------------------------------------------

TEST(ImageSampling, WritesOutsideTheImageAreDropped) {
  TestImage image(ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, UINT, rgba, {.width = 2, .height = 2, .dims = 2});
  const Int4 outside[] = {{-1, 0}, {2, 0}, {0, 2}, {0, -1}, {int_min, int_max}, {int_max, 0}};
  for (const Int4 &coord : outside) write(image, Uint, coord, Uint4{1, 2, 3, 4});
  EXPECT_EQ(Bytes(16, 0), image.bytes);
  TestImage volume(ZE_IMAGE_FORMAT_LAYOUT_8, UINT, r, {.width = 2, .height = 2, .depth = 2, .dims = 3});
  write(volume, Uint, Int4{0, 0, 2}, Uint4{1});
  write(volume, Uint, Int4{0, 0, -1}, Uint4{1});
  EXPECT_EQ(Bytes(8, 0), volume.bytes);
}

// Every sampler on every shape, at coordinates no image holds: each read gives a pixel or the border, blends of
// them, or (for NaN) any of those; AddressSanitizer checks that no byte outside the exact-size buffers is touched.
TEST(ImageSampling, NoCoordinateReadsOutsideTheImage) {
  const Extent extents[] = {{.width = 4},
                            {.width = 3, .height = 2, .dims = 2},
                            {.width = 2, .height = 2, .depth = 2, .dims = 3},
                            {.width = 3, .layers = 2},
                            {.width = 2, .height = 2, .layers = 2, .dims = 2}};
  const float floats[] = {nan, infinity, -infinity, 1e30f, -1e30f, std::numeric_limits<float>::max(), 0x1p31f,
                          -0x1p31f, 0x1p24f + 2, -0.0f, 0x1p-149f, 1.0f};
  const int32_t integers[] = {int_min, int_max, -1, 1 << 30, 4, 0};
  const uint32_t addressings[] = {none, clamp_to_edge, clamp, repeat, mirrored_repeat};
  for (const Extent &extent : extents) {
    const size_t pixels = size_t(extent.width * extent.height * extent.depth * std::max(extent.layers, 1));
    std::vector<float> values(pixels);
    for (size_t i = 0; i < pixels; ++i) values[i] = float(i + 1); // 1 .. pixels; the border is 0
    TestImage image = float_image(extent, values);
    for (uint32_t sampler_normalized : {0u, normalized}) {
      for (uint32_t addressing : addressings) {
        for (uint32_t filter : {nearest, linear}) {
          const uint32_t sampler = sampler_normalized | addressing | filter;
          for (float s : floats) {
            for (const Float4 &coord : {Float4{s, s, s, s}, Float4{s, 0.5f, s, 0.5f}, Float4{0.5f, s, 0.5f, s}}) {
              const Float4 result = read(image, sampler, coord);
              EXPECT_TRUE(result[0] >= 0 && result[0] <= float(pixels) + 1e-3f) << "sampler " << sampler << " at " << s;
              EXPECT_FLOAT_EQ(1, result[3]) << "sampler " << sampler << " at " << s;
            }
          }
          for (int32_t i : integers) {
            const Float4 result = read(image, sampler, Int4{i, i, i, i});
            EXPECT_TRUE(result[0] >= 0 && result[0] <= float(pixels)) << "sampler " << sampler << " at " << i;
          }
        }
      }
    }
    // Of these writes only the one at 0 is inside the image.
    for (int32_t i : integers) write(image, Float, Int4{i, i, i, i}, Float4{-1});
    values[0] = -1;
    EXPECT_EQ(0, std::memcmp(values.data(), image.bytes.data(), image.bytes.size()));
  }
}

TEST(ImageSampling, ImageSymbolsBindBothFunctionsByName) {
  const std::span<const detail::RuntimeSymbol> symbols = detail::image_symbols();
  ASSERT_EQ(2u, symbols.size());
  EXPECT_EQ(std::string(detail::image_read_symbol), symbols[0].name);
  EXPECT_EQ(reinterpret_cast<void *>(&image_read), symbols[0].address);
  EXPECT_EQ(std::string(detail::image_write_symbol), symbols[1].name);
  EXPECT_EQ(reinterpret_cast<void *>(&image_write), symbols[1].address);
}

} // namespace
} // namespace zeal::cpu::test
