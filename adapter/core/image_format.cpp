// OpenCL channel orders and types as Level Zero image formats (image_format.hpp).
#include "adapter/core/image_format.hpp"

#include <fmt/format.h>

#include <array>

namespace zeal::adapter {
namespace {

constexpr auto R = ZE_IMAGE_FORMAT_SWIZZLE_R, G = ZE_IMAGE_FORMAT_SWIZZLE_G, B = ZE_IMAGE_FORMAT_SWIZZLE_B,
               A = ZE_IMAGE_FORMAT_SWIZZLE_A, Zero = ZE_IMAGE_FORMAT_SWIZZLE_0, One = ZE_IMAGE_FORMAT_SWIZZLE_1;

// What an order stores and how a read sees it. `channels` 0: a packed layout, whose type decides the channels.
enum class Types { Any, Packed, EightBit, Normalized };
struct Order {
  const char *name;
  uint32_t channels;
  std::array<ze_image_format_swizzle_t, 4> swizzle;
  Types types;
};
// Indexed by zeal_image_channel_order_t - 1. RX, RGX and RGBX keep no padding channel.
constexpr Order kOrders[] = {
    {"R", 1, {R, Zero, Zero, One}, Types::Any},
    {"A", 1, {Zero, Zero, Zero, R}, Types::Any},
    {"RG", 2, {R, G, Zero, One}, Types::Any},
    {"RA", 2, {R, Zero, Zero, G}, Types::Any},
    {"RGB", 0, {R, G, B, One}, Types::Packed},
    {"RGBA", 4, {R, G, B, A}, Types::Any},
    // Stored B, G, R, A: red is the third channel.
    {"BGRA", 4, {B, G, R, A}, Types::EightBit},
    {"ARGB", 4, {G, B, A, R}, Types::EightBit},
    {"ABGR", 4, {A, B, G, R}, Types::EightBit},
    {"INTENSITY", 1, {R, R, R, R}, Types::Normalized},
    {"LUMINANCE", 1, {R, R, R, One}, Types::Normalized},
    {"RX", 1, {R, Zero, Zero, One}, Types::Any},
    {"RGX", 2, {R, G, Zero, One}, Types::Any},
    {"RGBX", 0, {R, G, B, One}, Types::Packed},
};

// `bits` 0: packed into `packed` (the CPU driver's bit order is OpenCL's: red highest).
struct Type {
  const char *name;
  ze_image_format_type_t type;
  uint32_t bits;
  ze_image_format_layout_t packed;
  bool normalized_or_float; // what INTENSITY and LUMINANCE take
};
constexpr auto kNone = ZE_IMAGE_FORMAT_LAYOUT_FORCE_UINT32;
// Indexed by zeal_image_channel_type_t - 1.
constexpr Type kTypes[] = {
    {"SNORM_INT8", ZE_IMAGE_FORMAT_TYPE_SNORM, 8, kNone, true},
    {"SNORM_INT16", ZE_IMAGE_FORMAT_TYPE_SNORM, 16, kNone, true},
    {"UNORM_INT8", ZE_IMAGE_FORMAT_TYPE_UNORM, 8, kNone, true},
    {"UNORM_INT16", ZE_IMAGE_FORMAT_TYPE_UNORM, 16, kNone, true},
    {"UNORM_SHORT_565", ZE_IMAGE_FORMAT_TYPE_UNORM, 0, ZE_IMAGE_FORMAT_LAYOUT_5_6_5, false},
    {"UNORM_SHORT_555", ZE_IMAGE_FORMAT_TYPE_UNORM, 0, ZE_IMAGE_FORMAT_LAYOUT_5_5_5_1, false},
    {"UNORM_INT_101010", ZE_IMAGE_FORMAT_TYPE_UNORM, 0, ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2, false},
    {"SIGNED_INT8", ZE_IMAGE_FORMAT_TYPE_SINT, 8, kNone, false},
    {"SIGNED_INT16", ZE_IMAGE_FORMAT_TYPE_SINT, 16, kNone, false},
    {"SIGNED_INT32", ZE_IMAGE_FORMAT_TYPE_SINT, 32, kNone, false},
    {"UNSIGNED_INT8", ZE_IMAGE_FORMAT_TYPE_UINT, 8, kNone, false},
    {"UNSIGNED_INT16", ZE_IMAGE_FORMAT_TYPE_UINT, 16, kNone, false},
    {"UNSIGNED_INT32", ZE_IMAGE_FORMAT_TYPE_UINT, 32, kNone, false},
    {"HALF_FLOAT", ZE_IMAGE_FORMAT_TYPE_FLOAT, 16, kNone, true},
    {"FLOAT", ZE_IMAGE_FORMAT_TYPE_FLOAT, 32, kNone, true},
};

const Order *order_of(int32_t order) {
  const int32_t i = order - 1;
  return i >= 0 && i < static_cast<int32_t>(std::size(kOrders)) ? &kOrders[i] : nullptr;
}
const Type *type_of(int32_t type) {
  const int32_t i = type - 1;
  return i >= 0 && i < static_cast<int32_t>(std::size(kTypes)) ? &kTypes[i] : nullptr;
}

bool allowed(const Order &order, const Type &type) {
  if ((order.types == Types::Packed) != (type.bits == 0)) return false;
  switch (order.types) {
  case Types::EightBit: return type.bits == 8;
  case Types::Normalized: return type.normalized_or_float;
  case Types::Any:
  case Types::Packed: return true;
  }
  return false;
}

// Channels of `bits` each, `count` of them.
ze_image_format_layout_t layout_of(uint32_t count, uint32_t bits) {
  const uint32_t size = bits == 8 ? 0 : bits == 16 ? 1 : 2;
  constexpr ze_image_format_layout_t kLayouts[3][3] = {
      {ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_LAYOUT_16, ZE_IMAGE_FORMAT_LAYOUT_32},
      {ZE_IMAGE_FORMAT_LAYOUT_8_8, ZE_IMAGE_FORMAT_LAYOUT_16_16, ZE_IMAGE_FORMAT_LAYOUT_32_32},
      {ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16, ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32}};
  return kLayouts[count == 1 ? 0 : count == 2 ? 1 : 2][size];
}

} // namespace

Result<ze_image_format_t> ze_image_format(int32_t order, int32_t type) {
  const Order *o = order_of(order);
  const Type *t = type_of(type);
  if (o == nullptr || t == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ENUMERATION,
                      fmt::format("image channel {} {} is not a zeal_image_channel_{}_t", o == nullptr ? "order" : "type",
                                  o == nullptr ? order : type,
                                  o == nullptr ? "order" : "type"));
  if (!allowed(*o, *t))
    return make_error(ZEAL_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT,
                      fmt::format("images of channel order {} and channel type {} are not supported (OpenCL allows "
                                  "{} with {})",
                                  o->name, t->name, o->name,
                                  o->types == Types::Packed       ? "the packed types 565, 555 and 101010 only"
                                  : o->types == Types::EightBit   ? "8-bit channel types only"
                                  : o->types == Types::Normalized ? "normalized 8- and 16-bit, half and float types only"
                                                                  : "every type but the packed ones"));
  ze_image_format_t format{};
  format.layout = t->bits == 0 ? t->packed : layout_of(o->channels, t->bits);
  format.type = t->type;
  format.x = o->swizzle[0];
  format.y = o->swizzle[1];
  format.z = o->swizzle[2];
  format.w = o->swizzle[3];
  return format;
}

uint32_t bytes_per_pixel(const ze_image_format_t &format) {
  switch (format.layout) {
  case ZE_IMAGE_FORMAT_LAYOUT_8: return 1;
  case ZE_IMAGE_FORMAT_LAYOUT_16:
  case ZE_IMAGE_FORMAT_LAYOUT_8_8:
  case ZE_IMAGE_FORMAT_LAYOUT_5_6_5:
  case ZE_IMAGE_FORMAT_LAYOUT_5_5_5_1: return 2;
  case ZE_IMAGE_FORMAT_LAYOUT_32:
  case ZE_IMAGE_FORMAT_LAYOUT_16_16:
  case ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8:
  case ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2: return 4;
  case ZE_IMAGE_FORMAT_LAYOUT_32_32:
  case ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16: return 8;
  case ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32: return 16;
  default: return 0;
  }
}

Result<ze_image_type_t> ze_image_type(int32_t type) {
  switch (type) {
  case ZEAL_IMAGE_TYPE_1D: return ZE_IMAGE_TYPE_1D;
  case ZEAL_IMAGE_TYPE_1D_ARRAY: return ZE_IMAGE_TYPE_1DARRAY;
  case ZEAL_IMAGE_TYPE_2D: return ZE_IMAGE_TYPE_2D;
  case ZEAL_IMAGE_TYPE_2D_ARRAY: return ZE_IMAGE_TYPE_2DARRAY;
  case ZEAL_IMAGE_TYPE_3D: return ZE_IMAGE_TYPE_3D;
  }
  return make_error(ZEAL_RESULT_ERROR_INVALID_ENUMERATION,
                    fmt::format("image type {} is not a zeal_image_type_t", type));
}

const char *channel_order_name(int32_t order) {
  const Order *o = order_of(order);
  return o != nullptr ? o->name : "(not an order)";
}

const char *channel_type_name(int32_t type) {
  const Type *t = type_of(type);
  return t != nullptr ? t->name : "(not a type)";
}

const char *image_type_name(int32_t type) {
  switch (type) {
  case ZEAL_IMAGE_TYPE_1D: return "1-D";
  case ZEAL_IMAGE_TYPE_1D_ARRAY: return "1-D array";
  case ZEAL_IMAGE_TYPE_2D: return "2-D";
  case ZEAL_IMAGE_TYPE_2D_ARRAY: return "2-D array";
  case ZEAL_IMAGE_TYPE_3D: return "3-D";
  }
  return "(not an image type)";
}

} // namespace zeal::adapter
