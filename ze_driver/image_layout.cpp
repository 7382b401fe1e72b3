// Images as every zeal driver makes them (image_layout.hpp): formats, shapes, descriptors, regions, sampler bits.
#include "ze_driver/image_layout.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>

namespace zeal::ze {
namespace {

// A layout's bytes per pixel and the bits of its channels (0: a packed layout of channels of different sizes).
struct Layout {
  uint32_t bytes = 0, channel_bits = 0;
};

Layout layout_of(ze_image_format_layout_t layout) {
  switch (layout) {
  case ZE_IMAGE_FORMAT_LAYOUT_8: return {1, 8};
  case ZE_IMAGE_FORMAT_LAYOUT_16: return {2, 16};
  case ZE_IMAGE_FORMAT_LAYOUT_32: return {4, 32};
  case ZE_IMAGE_FORMAT_LAYOUT_8_8: return {2, 8};
  case ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8: return {4, 8};
  case ZE_IMAGE_FORMAT_LAYOUT_16_16: return {4, 16};
  case ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16: return {8, 16};
  case ZE_IMAGE_FORMAT_LAYOUT_32_32: return {8, 32};
  case ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32: return {16, 32};
  case ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2: return {4, 0};
  case ZE_IMAGE_FORMAT_LAYOUT_11_11_10: return {4, 0};
  case ZE_IMAGE_FORMAT_LAYOUT_5_6_5: return {2, 0};
  case ZE_IMAGE_FORMAT_LAYOUT_5_5_5_1: return {2, 0};
  case ZE_IMAGE_FORMAT_LAYOUT_4_4_4_4: return {2, 0};
  default: return {};
  }
}

const char *type_name(ze_image_format_type_t type) {
  switch (type) {
  case ZE_IMAGE_FORMAT_TYPE_UINT: return "UINT";
  case ZE_IMAGE_FORMAT_TYPE_SINT: return "SINT";
  case ZE_IMAGE_FORMAT_TYPE_UNORM: return "UNORM";
  case ZE_IMAGE_FORMAT_TYPE_SNORM: return "SNORM";
  case ZE_IMAGE_FORMAT_TYPE_FLOAT: return "FLOAT";
  default: return "?";
  }
}

// Whether channels of `layout` can hold `type`: 8-bit ones every integer and normalized type, 16-bit ones those and
// half, 32-bit ones integers and float; the packed layouts are normalized (11_11_10: float).
bool fits(ze_image_format_layout_t layout, const Layout &l, ze_image_format_type_t type) {
  const bool integer = type == ZE_IMAGE_FORMAT_TYPE_UINT || type == ZE_IMAGE_FORMAT_TYPE_SINT;
  const bool normalized = type == ZE_IMAGE_FORMAT_TYPE_UNORM || type == ZE_IMAGE_FORMAT_TYPE_SNORM;
  switch (l.channel_bits) {
  case 8: return integer || normalized;
  case 16: return integer || normalized || type == ZE_IMAGE_FORMAT_TYPE_FLOAT;
  case 32: return integer || type == ZE_IMAGE_FORMAT_TYPE_FLOAT;
  default:
    return layout == ZE_IMAGE_FORMAT_LAYOUT_11_11_10 ? type == ZE_IMAGE_FORMAT_TYPE_FLOAT
                                                      : type == ZE_IMAGE_FORMAT_TYPE_UNORM;
  }
}

ze_result_t too_large(std::string &why, const char *what, uint64_t value, uint64_t limit, const char *driver) {
  why = value == 0 ? fmt::format("the image's {} is 0", what)
                   : fmt::format("the image's {} is {}, more than the {} {} makes", what, value, limit, driver);
  return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
}

ze_result_t shape_in_limits(const ze_image_desc_t &desc, const ImageLimits &limits, const char *driver, ImageShape &out,
                            std::string &why);

} // namespace

ze_result_t image_shape(const ze_image_desc_t &desc, const ImageLimits &limits, const char *driver, ImageShape &out,
                        std::string &why) {
  if (ze_result_t r = shape_in_limits(desc, limits, driver, out, why); r != ZE_RESULT_SUCCESS) return r;
  if (out.width * out.pixel_bytes * out.height > UINT32_MAX) {
    why = fmt::format("a slice of the image, {}x{} pixels of {} bytes, is over 4 GiB", out.width, out.height,
                      out.pixel_bytes);
    return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  }
  return ZE_RESULT_SUCCESS;
}

namespace {

ze_result_t shape_in_limits(const ze_image_desc_t &desc, const ImageLimits &limits, const char *driver, ImageShape &out,
                            std::string &why) {
  constexpr ze_image_flags_t known = ZE_IMAGE_FLAG_KERNEL_WRITE | ZE_IMAGE_FLAG_BIAS_UNCACHED;
  if ((desc.flags & ~known) != 0) {
    why = fmt::format("image flags {:#x} are not Level Zero's", unsigned(desc.flags));
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  }
  if (desc.format.layout > ZE_IMAGE_FORMAT_LAYOUT_BRGP || desc.format.type > ZE_IMAGE_FORMAT_TYPE_FLOAT) {
    why = fmt::format("image format layout {} or type {} is not Level Zero's", unsigned(desc.format.layout),
                      unsigned(desc.format.type));
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  }
  out.pixel_bytes = image_pixel_bytes(desc.format, driver, why);
  if (out.pixel_bytes == 0) return ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT;
  out.width = desc.width;
  switch (desc.type) {
  case ZE_IMAGE_TYPE_1D:
    if (desc.width == 0 || desc.width > limits.width_1d)
      return too_large(why, "width", desc.width, limits.width_1d, driver);
    return ZE_RESULT_SUCCESS;
  case ZE_IMAGE_TYPE_1DARRAY:
    if (desc.width == 0 || desc.width > limits.width_1d)
      return too_large(why, "width", desc.width, limits.width_1d, driver);
    if (desc.arraylevels == 0 || desc.arraylevels > limits.array_layers)
      return too_large(why, "array layer count", desc.arraylevels, limits.array_layers, driver);
    out.height = desc.arraylevels;
    return ZE_RESULT_SUCCESS;
  case ZE_IMAGE_TYPE_2D:
  case ZE_IMAGE_TYPE_2DARRAY:
    if (desc.width == 0 || desc.width > limits.width_2d)
      return too_large(why, "width", desc.width, limits.width_2d, driver);
    if (desc.height == 0 || desc.height > limits.height_2d)
      return too_large(why, "height", desc.height, limits.height_2d, driver);
    out.height = desc.height;
    if (desc.type == ZE_IMAGE_TYPE_2DARRAY) {
      if (desc.arraylevels == 0 || desc.arraylevels > limits.array_layers)
        return too_large(why, "array layer count", desc.arraylevels, limits.array_layers, driver);
      out.depth = desc.arraylevels;
    }
    return ZE_RESULT_SUCCESS;
  case ZE_IMAGE_TYPE_3D:
    if (desc.width == 0 || desc.width > limits.size_3d)
      return too_large(why, "width", desc.width, limits.size_3d, driver);
    if (desc.height == 0 || desc.height > limits.size_3d)
      return too_large(why, "height", desc.height, limits.size_3d, driver);
    if (desc.depth == 0 || desc.depth > limits.size_3d)
      return too_large(why, "depth", desc.depth, limits.size_3d, driver);
    out.height = desc.height;
    out.depth = desc.depth;
    return ZE_RESULT_SUCCESS;
  case ZE_IMAGE_TYPE_BUFFER: // the width is in bytes
    if (desc.width % out.pixel_bytes != 0) {
      why = fmt::format("a buffer image's width is its size in bytes; {} is not a whole number of {}-byte pixels",
                        desc.width, out.pixel_bytes);
      return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
    }
    out.width = desc.width / out.pixel_bytes;
    if (out.width == 0 || out.width > limits.buffer_pixels)
      return too_large(why, "pixel count", out.width, limits.buffer_pixels, driver);
    return ZE_RESULT_SUCCESS;
  default:
    why = fmt::format("image type {} is not Level Zero's", unsigned(desc.type));
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  }
}

// OpenCL's names for the format, which get_image_channel_data_type and get_image_channel_order answer.
enum ClChannelType : uint32_t {
  ClSnormInt8 = 0x10D0, ClSnormInt16, ClUnormInt8, ClUnormInt16, ClUnormShort565, ClUnormShort555, ClUnormInt101010,
  ClSignedInt8, ClSignedInt16, ClSignedInt32, ClUnsignedInt8, ClUnsignedInt16, ClUnsignedInt32, ClHalfFloat, ClFloat,
};
enum ClChannelOrder : uint32_t {
  ClR = 0x10B0, ClA, ClRG, ClRA, ClRGB, ClRGBA, ClBGRA, ClARGB, ClIntensity, ClLuminance, ClABGR = 0x10C3,
};

uint32_t cl_channel_type(const ze_image_format_t &format) {
  switch (format.layout) {
  case ZE_IMAGE_FORMAT_LAYOUT_5_6_5: return ClUnormShort565;
  case ZE_IMAGE_FORMAT_LAYOUT_5_5_5_1: return ClUnormShort555;
  case ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2: return ClUnormInt101010;
  case ZE_IMAGE_FORMAT_LAYOUT_11_11_10: return ClFloat; // OpenCL has no name for it
  case ZE_IMAGE_FORMAT_LAYOUT_4_4_4_4: return ClUnormInt8; // nor for this one
  default: break;
  }
  const uint32_t bits = layout_of(format.layout).channel_bits;
  const uint32_t size = bits == 8 ? 0 : bits == 16 ? 1 : 2;
  switch (format.type) {
  case ZE_IMAGE_FORMAT_TYPE_UINT: return ClUnsignedInt8 + size;
  case ZE_IMAGE_FORMAT_TYPE_SINT: return ClSignedInt8 + size;
  case ZE_IMAGE_FORMAT_TYPE_UNORM: return size == 0 ? ClUnormInt8 : ClUnormInt16;
  case ZE_IMAGE_FORMAT_TYPE_SNORM: return size == 0 ? ClSnormInt8 : ClSnormInt16;
  default: return size == 1 ? ClHalfFloat : ClFloat;
  }
}

// The swizzle says where each component of a read comes from (x: red): OpenCL's orders are the swizzles of theirs.
uint32_t cl_channel_order(const ze_image_format_t &f) {
  auto is = [&](ze_image_format_swizzle_t x, ze_image_format_swizzle_t y, ze_image_format_swizzle_t z,
                ze_image_format_swizzle_t w) { return f.x == x && f.y == y && f.z == z && f.w == w; };
  using S = ze_image_format_swizzle_t;
  constexpr S r = ZE_IMAGE_FORMAT_SWIZZLE_R, g = ZE_IMAGE_FORMAT_SWIZZLE_G, b = ZE_IMAGE_FORMAT_SWIZZLE_B,
              a = ZE_IMAGE_FORMAT_SWIZZLE_A, zero = ZE_IMAGE_FORMAT_SWIZZLE_0, one = ZE_IMAGE_FORMAT_SWIZZLE_1;
  if (is(zero, zero, zero, r)) return ClA;
  if (is(r, r, r, r)) return ClIntensity;
  if (is(r, r, r, one)) return ClLuminance;
  if (is(r, zero, zero, g)) return ClRA;
  if (is(b, g, r, a)) return ClBGRA;
  if (is(g, b, a, r)) return ClARGB;
  if (is(a, b, g, r)) return ClABGR;
  if (f.w == a) return ClRGBA;
  if (f.z == b) return ClRGB;
  if (f.y == g) return ClRG;
  return ClR;
}

ImageFast fast_format(const ze_image_format_t &f) {
  const bool rgba = f.x == ZE_IMAGE_FORMAT_SWIZZLE_R && f.y == ZE_IMAGE_FORMAT_SWIZZLE_G &&
                    f.z == ZE_IMAGE_FORMAT_SWIZZLE_B && f.w == ZE_IMAGE_FORMAT_SWIZZLE_A;
  if (rgba && f.layout == ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32) return ImageFast::Rgba32;
  if (rgba && f.layout == ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8 && f.type == ZE_IMAGE_FORMAT_TYPE_UNORM)
    return ImageFast::RgbaUnorm8;
  return ImageFast::None;
}

} // namespace

uint32_t image_pixel_bytes(const ze_image_format_t &format, const char *driver, std::string &why) {
  const Layout l = layout_of(format.layout);
  if (l.bytes == 0) {
    why = fmt::format("image format layout {} is a media layout, which the {} does not support",
                      unsigned(format.layout), driver);
    return 0;
  }
  if (!fits(format.layout, l, format.type)) {
    why = fmt::format("image format layout {} cannot hold channels of type {}", unsigned(format.layout),
                      type_name(format.type));
    return 0;
  }
  return l.bytes;
}

ImageDescriptor describe_image(const ze_image_desc_t &desc, const ImageShape &shape, uint64_t row_pitch,
                               uint64_t slice_pitch) {
  ImageDescriptor d;
  d.row_pitch = row_pitch;
  d.slice_pitch = slice_pitch;
  d.pixel_bytes = shape.pixel_bytes;
  d.width = int32_t(shape.width);
  switch (desc.type) {
  case ZE_IMAGE_TYPE_1DARRAY: d.array_size = int32_t(shape.height); break;
  case ZE_IMAGE_TYPE_2D: d.height = int32_t(shape.height); break;
  case ZE_IMAGE_TYPE_2DARRAY:
    d.height = int32_t(shape.height);
    d.array_size = int32_t(shape.depth);
    break;
  case ZE_IMAGE_TYPE_3D:
    d.height = int32_t(shape.height);
    d.depth = int32_t(shape.depth);
    break;
  default: break; // 1-D and buffer images: one row
  }
  d.dims = desc.type == ZE_IMAGE_TYPE_3D                                       ? 3
           : desc.type == ZE_IMAGE_TYPE_2D || desc.type == ZE_IMAGE_TYPE_2DARRAY ? 2
                                                                                : 1;
  const ze_image_format_t &f = desc.format;
  d.layout = uint32_t(f.layout);
  d.type = uint32_t(f.type);
  d.swizzle[0] = uint8_t(f.x);
  d.swizzle[1] = uint8_t(f.y);
  d.swizzle[2] = uint8_t(f.z);
  d.swizzle[3] = uint8_t(f.w);
  d.cl_channel_type = cl_channel_type(f);
  d.cl_channel_order = cl_channel_order(f);
  d.fast = uint32_t(fast_format(f));
  return d;
}

uint64_t next_image_allocation_id() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

ze_result_t check_view(const ImageShape &view, const ImageShape &base, std::string &why) {
  if (view.pixel_bytes != base.pixel_bytes) {
    why = fmt::format("a view's pixels must be the size of its image's: {} bytes, not {}", base.pixel_bytes,
                      view.pixel_bytes);
    return ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT;
  }
  if (view.width > base.width || view.height > base.height || view.depth > base.depth) {
    why = fmt::format("the view's {}x{}x{} pixels are more than its image's {}x{}x{}", view.width, view.height,
                      view.depth, base.width, base.height, base.depth);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t image_byte_region(const ImageShape &shape, const ze_image_region_t *region, ze_copy_region_t &out,
                              std::string &why) {
  ze_image_region_t r{0, 0, 0, uint32_t(shape.width), shape.height, shape.depth};
  if (region != nullptr) {
    r = *region;
    r.depth = std::max(r.depth, 1u); // 0 is a 2-D region's single slice
  }
  if (r.width == 0 || r.height == 0 || uint64_t(r.originX) + r.width > shape.width ||
      uint64_t(r.originY) + r.height > shape.height || uint64_t(r.originZ) + r.depth > shape.depth) {
    why = fmt::format("the region of {}x{}x{} pixels at ({}, {}, {}) is empty or passes the image's {}x{}x{}", r.width,
                      r.height, r.depth, r.originX, r.originY, r.originZ, shape.width, shape.height, shape.depth);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  out = {uint32_t(r.originX * shape.pixel_bytes), r.originY, r.originZ, uint32_t(r.width * shape.pixel_bytes),
         r.height, r.depth};
  return ZE_RESULT_SUCCESS;
}

ze_device_image_properties_t device_image_properties(const ImageLimits &limits) {
  ze_device_image_properties_t p{};
  p.maxImageDims1D = uint32_t(limits.width_1d);
  p.maxImageDims2D = uint32_t(std::min(limits.width_2d, limits.height_2d));
  p.maxImageDims3D = uint32_t(limits.size_3d);
  p.maxImageBufferSize = limits.buffer_pixels;
  p.maxImageArraySlices = limits.array_layers;
  p.maxSamplers = 16;
  p.maxReadImageArgs = 128;
  p.maxWriteImageArgs = 64;
  return p;
}

ze_image_sampler_filter_flags_t image_filter_flags(const ze_image_desc_t &desc) {
  const bool integer = desc.format.type == ZE_IMAGE_FORMAT_TYPE_UINT || desc.format.type == ZE_IMAGE_FORMAT_TYPE_SINT;
  return ZE_IMAGE_SAMPLER_FILTER_FLAG_POINT | (integer ? 0 : ZE_IMAGE_SAMPLER_FILTER_FLAG_LINEAR);
}

uint32_t sampler_bits(const ze_sampler_desc_t &desc) {
  uint32_t bits = SamplerAddressNone;
  switch (desc.addressMode) {
  case ZE_SAMPLER_ADDRESS_MODE_REPEAT: bits = SamplerAddressRepeat; break;
  case ZE_SAMPLER_ADDRESS_MODE_CLAMP: bits = SamplerAddressClampToEdge; break;
  case ZE_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER: bits = SamplerAddressClamp; break;
  case ZE_SAMPLER_ADDRESS_MODE_MIRROR: bits = SamplerAddressMirroredRepeat; break;
  default: break;
  }
  bits |= desc.filterMode == ZE_SAMPLER_FILTER_MODE_LINEAR ? SamplerFilterLinear : SamplerFilterNearest;
  if (desc.isNormalized) bits |= SamplerNormalized;
  return bits;
}

ze_result_t check_sampler(const ze_sampler_desc_t &desc, std::string &why) {
  if (desc.addressMode > ZE_SAMPLER_ADDRESS_MODE_MIRROR || desc.filterMode > ZE_SAMPLER_FILTER_MODE_LINEAR) {
    why = fmt::format("sampler address mode {} or filter mode {} is not Level Zero's", unsigned(desc.addressMode),
                      unsigned(desc.filterMode));
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  }
  return ZE_RESULT_SUCCESS;
}

} // namespace zeal::ze
