// Images on the CPU driver: formats, shapes and regions (image.hpp); the zeImage* entry points.
#include "cpu_driver/runtime/image.hpp"

#include "common/log.hpp"
#include "cpu_driver/compiler/compiler.hpp"
#include "cpu_driver/runtime/ddi.hpp"
#include "cpu_driver/runtime/handles.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cstring>
#include <new>

namespace zeal::cpu {
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

// An image's shape in pixels: width, rows per slice, slices.
struct Shape {
  uint32_t pixel_bytes = 0;
  uint64_t width = 0;
  uint32_t height = 1, depth = 1;
};

ze_result_t too_large(std::string &why, const char *what, uint64_t value, uint64_t limit) {
  why = value == 0 ? fmt::format("the image's {} is 0", what)
                   : fmt::format("the image's {} is {}, more than the {} the CPU driver makes", what, value, limit);
  return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
}

ze_result_t shape_in_limits(const ze_image_desc_t &desc, Shape &out, std::string &why);

// The shape, and that a slice's bytes fit the 32-bit pitches of region copies.
ze_result_t shape_of(const ze_image_desc_t &desc, Shape &out, std::string &why) {
  if (ze_result_t r = shape_in_limits(desc, out, why); r != ZE_RESULT_SUCCESS) return r;
  if (out.width * out.pixel_bytes * out.height > UINT32_MAX) {
    why = fmt::format("a slice of the image, {}x{} pixels of {} bytes, is over 4 GiB", out.width, out.height,
                      out.pixel_bytes);
    return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t shape_in_limits(const ze_image_desc_t &desc, Shape &out, std::string &why) {
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
  out.pixel_bytes = image_pixel_bytes(desc.format, why);
  if (out.pixel_bytes == 0) return ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT;
  using L = ImageLimits;
  out.width = desc.width;
  switch (desc.type) {
  case ZE_IMAGE_TYPE_1D:
    if (desc.width == 0 || desc.width > L::width_1d) return too_large(why, "width", desc.width, L::width_1d);
    return ZE_RESULT_SUCCESS;
  case ZE_IMAGE_TYPE_1DARRAY:
    if (desc.width == 0 || desc.width > L::width_1d) return too_large(why, "width", desc.width, L::width_1d);
    if (desc.arraylevels == 0 || desc.arraylevels > L::array_layers)
      return too_large(why, "array layer count", desc.arraylevels, L::array_layers);
    out.height = desc.arraylevels;
    return ZE_RESULT_SUCCESS;
  case ZE_IMAGE_TYPE_2D:
  case ZE_IMAGE_TYPE_2DARRAY:
    if (desc.width == 0 || desc.width > L::width_2d) return too_large(why, "width", desc.width, L::width_2d);
    if (desc.height == 0 || desc.height > L::height_2d) return too_large(why, "height", desc.height, L::height_2d);
    out.height = desc.height;
    if (desc.type == ZE_IMAGE_TYPE_2DARRAY) {
      if (desc.arraylevels == 0 || desc.arraylevels > L::array_layers)
        return too_large(why, "array layer count", desc.arraylevels, L::array_layers);
      out.depth = desc.arraylevels;
    }
    return ZE_RESULT_SUCCESS;
  case ZE_IMAGE_TYPE_3D:
    if (desc.width == 0 || desc.width > L::size_3d) return too_large(why, "width", desc.width, L::size_3d);
    if (desc.height == 0 || desc.height > L::size_3d) return too_large(why, "height", desc.height, L::size_3d);
    if (desc.depth == 0 || desc.depth > L::size_3d) return too_large(why, "depth", desc.depth, L::size_3d);
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
    if (out.width == 0 || out.width > L::buffer_pixels)
      return too_large(why, "pixel count", out.width, L::buffer_pixels);
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

ze_result_t answer(const char *entry_point, ze_result_t result, const std::string &why) {
  if (result != ZE_RESULT_SUCCESS && !why.empty()) zeal::logger("zeal-cpu").warn("{}: {}", entry_point, why);
  return result;
}

} // namespace

uint32_t image_pixel_bytes(const ze_image_format_t &format, std::string &why) {
  const Layout l = layout_of(format.layout);
  if (l.bytes == 0) {
    why = fmt::format("image format layout {} is a media layout, which the CPU driver does not support",
                      unsigned(format.layout));
    return 0;
  }
  if (!fits(format.layout, l, format.type)) {
    why = fmt::format("image format layout {} cannot hold channels of type {}", unsigned(format.layout),
                      type_name(format.type));
    return 0;
  }
  return l.bytes;
}

ze_result_t Image::create(const ze_image_desc_t &desc, std::unique_ptr<Image> &out, std::string &why) {
  Shape shape;
  if (ze_result_t r = shape_of(desc, shape, why); r != ZE_RESULT_SUCCESS) return r;
  auto image = std::make_unique<Image>();
  const size_t row_pitch = size_t(shape.width) * shape.pixel_bytes;
  image->set_shape(desc, shape.pixel_bytes, shape.width, shape.height, shape.depth, row_pitch,
                   row_pitch * shape.height);
  const size_t bytes = image->bytes();
  auto *pixels = static_cast<std::byte *>(::operator new[](bytes, std::align_val_t{64}, std::nothrow));
  if (pixels == nullptr) {
    why = fmt::format("no host memory for the image's {} bytes", bytes);
    return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  }
  std::memset(pixels, 0, bytes); // a new image reads as zeros
  image->data_.reset(pixels, [](std::byte *p) { ::operator delete[](p, std::align_val_t{64}); });
  static std::atomic<uint64_t> next_id{1};
  image->allocation_id_ = next_id.fetch_add(1, std::memory_order_relaxed);
  image->describe();
  out = std::move(image);
  return ZE_RESULT_SUCCESS;
}

ze_result_t Image::create_view(const ze_image_desc_t &desc, const Image &base, std::unique_ptr<Image> &out,
                               std::string &why) {
  Shape shape;
  if (ze_result_t r = shape_of(desc, shape, why); r != ZE_RESULT_SUCCESS) return r;
  if (shape.pixel_bytes != base.pixel_bytes_) {
    why = fmt::format("a view's pixels must be the size of its image's: {} bytes, not {}", base.pixel_bytes_,
                      shape.pixel_bytes);
    return ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT;
  }
  if (shape.width > base.width_ || shape.height > base.height_ || shape.depth > base.depth_) {
    why = fmt::format("the view's {}x{}x{} pixels are more than its image's {}x{}x{}", shape.width, shape.height,
                      shape.depth, base.width_, base.height_, base.depth_);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  auto view = std::make_unique<Image>();
  view->set_shape(desc, shape.pixel_bytes, shape.width, shape.height, shape.depth, base.row_pitch_,
                  base.slice_pitch_);
  view->data_ = base.data_;
  view->allocation_id_ = base.allocation_id_;
  view->describe();
  out = std::move(view);
  return ZE_RESULT_SUCCESS;
}

void Image::set_shape(const ze_image_desc_t &desc, uint32_t pixel_bytes, uint64_t width, uint32_t height,
                      uint32_t depth, size_t row_pitch, size_t slice_pitch) {
  desc_ = desc;
  desc_.pNext = nullptr;
  pixel_bytes_ = pixel_bytes;
  width_ = width;
  height_ = height;
  depth_ = depth;
  row_pitch_ = row_pitch;
  slice_pitch_ = slice_pitch;
}

void Image::describe() {
  ImageDescriptor &d = descriptor_;
  d.data = reinterpret_cast<unsigned char *>(data_.get());
  d.row_pitch = row_pitch();
  d.slice_pitch = slice_pitch();
  d.pixel_bytes = pixel_bytes_;
  d.width = int32_t(width_);
  switch (desc_.type) {
  case ZE_IMAGE_TYPE_1DARRAY: d.array_size = int32_t(height_); break;
  case ZE_IMAGE_TYPE_2D: d.height = int32_t(height_); break;
  case ZE_IMAGE_TYPE_2DARRAY:
    d.height = int32_t(height_);
    d.array_size = int32_t(depth_);
    break;
  case ZE_IMAGE_TYPE_3D:
    d.height = int32_t(height_);
    d.depth = int32_t(depth_);
    break;
  default: break; // 1-D and buffer images: one row
  }
  d.dims = desc_.type == ZE_IMAGE_TYPE_3D                                        ? 3
           : desc_.type == ZE_IMAGE_TYPE_2D || desc_.type == ZE_IMAGE_TYPE_2DARRAY ? 2
                                                                                  : 1;
  const ze_image_format_t &f = desc_.format;
  d.layout = uint32_t(f.layout);
  d.type = uint32_t(f.type);
  d.swizzle[0] = uint8_t(f.x);
  d.swizzle[1] = uint8_t(f.y);
  d.swizzle[2] = uint8_t(f.z);
  d.swizzle[3] = uint8_t(f.w);
  d.cl_channel_type = cl_channel_type(f);
  d.cl_channel_order = cl_channel_order(f);
  d.fast = uint32_t(fast_format(f));
  d.stream_writes = bytes() >= streaming_store_threshold() ? 1 : 0;
}

// OpenCL's sampler bits for Level Zero's modes: CLAMP is OpenCL's clamp-to-edge, CLAMP_TO_BORDER its clamp.
Sampler::Sampler(const ze_sampler_desc_t &desc) : desc_(desc) {
  desc_.pNext = nullptr;
  switch (desc.addressMode) {
  case ZE_SAMPLER_ADDRESS_MODE_REPEAT: bits_ = SamplerAddressRepeat; break;
  case ZE_SAMPLER_ADDRESS_MODE_CLAMP: bits_ = SamplerAddressClampToEdge; break;
  case ZE_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER: bits_ = SamplerAddressClamp; break;
  case ZE_SAMPLER_ADDRESS_MODE_MIRROR: bits_ = SamplerAddressMirroredRepeat; break;
  default: bits_ = SamplerAddressNone; break;
  }
  bits_ |= desc.filterMode == ZE_SAMPLER_FILTER_MODE_LINEAR ? SamplerFilterLinear : SamplerFilterNearest;
  if (desc.isNormalized) bits_ |= SamplerNormalized;
}

ze_result_t Image::byte_region(const ze_image_region_t *region, ze_copy_region_t &out, std::string &why) const {
  ze_image_region_t r{0, 0, 0, uint32_t(width_), height_, depth_};
  if (region != nullptr) {
    r = *region;
    r.depth = std::max(r.depth, 1u); // 0 is a 2-D region's single slice
  }
  if (r.width == 0 || r.height == 0 || uint64_t(r.originX) + r.width > width_ || uint64_t(r.originY) + r.height > height_ ||
      uint64_t(r.originZ) + r.depth > depth_) {
    why = fmt::format("the region of {}x{}x{} pixels at ({}, {}, {}) is empty or passes the image's {}x{}x{}", r.width,
                      r.height, r.depth, r.originX, r.originY, r.originZ, width_, height_, depth_);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  out = {uint32_t(r.originX * pixel_bytes_), r.originY, r.originZ, uint32_t(r.width * pixel_bytes_), r.height,
         r.depth};
  return ZE_RESULT_SUCCESS;
}

namespace {

ze_result_t image_get_properties(ze_device_handle_t device, const ze_image_desc_t *desc, ze_image_properties_t *out) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Shape shape;
  std::string why;
  if (ze_result_t r = shape_of(*desc, shape, why); r != ZE_RESULT_SUCCESS)
    return answer("zeImageGetProperties", r, why);
  // Integer images are sampled with the nearest pixel only, as OpenCL specifies.
  const bool integer = desc->format.type == ZE_IMAGE_FORMAT_TYPE_UINT || desc->format.type == ZE_IMAGE_FORMAT_TYPE_SINT;
  out->samplerFilterFlags = ZE_IMAGE_SAMPLER_FILTER_FLAG_POINT | (integer ? 0 : ZE_IMAGE_SAMPLER_FILTER_FLAG_LINEAR);
  return ZE_RESULT_SUCCESS;
}

ze_result_t image_create(ze_context_handle_t context, ze_device_handle_t device, const ze_image_desc_t *desc,
                         ze_image_handle_t *out) {
  if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::unique_ptr<Image> image;
  std::string why;
  if (ze_result_t r = Image::create(*desc, image, why); r != ZE_RESULT_SUCCESS) return answer("zeImageCreate", r, why);
  *out = image.release();
  return ZE_RESULT_SUCCESS;
}

ze_result_t image_view_create(ze_context_handle_t context, ze_device_handle_t device, const ze_image_desc_t *desc,
                              ze_image_handle_t image, ze_image_handle_t *out) {
  if (context == nullptr || device == nullptr || image == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::unique_ptr<Image> view;
  std::string why;
  if (ze_result_t r = Image::create_view(*desc, *Image::from(image), view, why); r != ZE_RESULT_SUCCESS)
    return answer("zeImageViewCreateExp", r, why);
  *out = view.release();
  return ZE_RESULT_SUCCESS;
}

ze_result_t image_get_memory_properties(ze_image_handle_t image, ze_image_memory_properties_exp_t *out) {
  if (image == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const Image &i = *Image::from(image);
  out->size = i.bytes();
  out->rowPitch = i.row_pitch();
  out->slicePitch = i.slice_pitch();
  return ZE_RESULT_SUCCESS;
}

ze_result_t image_get_alloc_properties(ze_context_handle_t context, ze_image_handle_t image,
                                       ze_image_allocation_ext_properties_t *out) {
  if (context == nullptr || image == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  out->id = Image::from(image)->allocation_id();
  return ZE_RESULT_SUCCESS;
}

ze_result_t sampler_create(ze_context_handle_t context, ze_device_handle_t device, const ze_sampler_desc_t *desc,
                           ze_sampler_handle_t *out) {
  if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->addressMode > ZE_SAMPLER_ADDRESS_MODE_MIRROR || desc->filterMode > ZE_SAMPLER_FILTER_MODE_LINEAR) {
    return answer("zeSamplerCreate", ZE_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("sampler address mode {} or filter mode {} is not Level Zero's",
                              unsigned(desc->addressMode), unsigned(desc->filterMode)));
  }
  *out = new Sampler(*desc);
  return ZE_RESULT_SUCCESS;
}

} // namespace

void implement(ze_sampler_dditable_t &t) {
  t.pfnCreate = guarded<sampler_create>;
  t.pfnDestroy = guarded<destroy<Sampler>>;
}

void implement(ze_image_dditable_t &t) {
  t.pfnGetProperties = guarded<image_get_properties>;
  t.pfnCreate = guarded<image_create>;
  t.pfnDestroy = guarded<destroy<Image>>;
  t.pfnGetAllocPropertiesExt = guarded<image_get_alloc_properties>;
}

void implement(ze_image_exp_dditable_t &t) {
  t.pfnGetMemoryPropertiesExp = guarded<image_get_memory_properties>;
  t.pfnViewCreateExp = guarded<image_view_create>;
}

} // namespace zeal::cpu
