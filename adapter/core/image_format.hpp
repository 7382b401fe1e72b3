// OpenCL's image formats and shapes (zeal_image_desc_t) as Level Zero's: layouts, types and swizzles, checked once
// for both faces.
#pragma once

#include "common/result.hpp"

#include <level_zero/ze_api.h>
#include <zeal/zeal_adapter.h>

namespace zeal::adapter {

// The Level Zero format of an OpenCL channel order and type: the layout of the channels stored, their type, and
// the swizzle that reads them as the order's components (component c is the stored channel swizzle[c] names).
// INVALID_ENUMERATION for values outside zeal's enumerations, UNSUPPORTED_IMAGE_FORMAT naming the pair for one
// OpenCL does not allow (zeal_adapter.h lists them). Enumerations arrive as the numbers callers passed
// (info.hpp's abi_value): reading any number as the enum would be undefined.
Result<ze_image_format_t> ze_image_format(int32_t order, int32_t type);

// Bytes per pixel of a format ze_image_format made.
uint32_t bytes_per_pixel(const ze_image_format_t &format);

// The Level Zero image type of a zeal one, or INVALID_ENUMERATION.
Result<ze_image_type_t> ze_image_type(int32_t type);

// Names for sentences: "RGBA", "UNORM_INT8", "2-D".
const char *channel_order_name(int32_t order);
const char *channel_type_name(int32_t type);
const char *image_type_name(int32_t type);

} // namespace zeal::adapter
