// Images: OpenCL's descriptions checked and made Level Zero images of the context's first device; regions and
// host pitches of the commands that copy them.
#include "adapter/core/image.hpp"

#include "adapter/core/image_format.hpp"
#include "adapter/core/info.hpp"

namespace zeal::adapter {

namespace {

bool is_array(zeal_image_type_t type) { return type == ZEAL_IMAGE_TYPE_1D_ARRAY || type == ZEAL_IMAGE_TYPE_2D_ARRAY; }

// INVALID_IMAGE_SIZE unless 1 <= value <= limit.
Status check_extent(const zeal_image_desc_t &desc, const char *what, size_t value, uint64_t limit,
                    const Device &device) {
  if (value >= 1 && value <= limit) return {};
  return make_error(ZEAL_RESULT_ERROR_INVALID_IMAGE_SIZE,
                    fmt::format("image create: the {} image's {} is {}, but device '{}' takes 1 to {}",
                                image_type_name(abi_value(desc.type)), what, value, device.name(), limit));
}

} // namespace

Result<ze_image_desc_t> Image::describe(const Context &context, const zeal_image_desc_t &desc, bool kernel_writes,
                                        std::array<size_t, 3> &extent) {
  auto type = ze_image_type(abi_value(desc.type));
  if (!type.ok()) return std::move(type).error();
  auto format = ze_image_format(abi_value(desc.channel_order), abi_value(desc.channel_type));
  if (!format.ok()) return std::move(format).error();
  const Device &device = *context.devices().front();
  if (!device.has_images())
    return make_error(ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE,
                      fmt::format("image create: device '{}' has no image support", device.name()));
  const auto &limits = device.image();
  const bool one_d = desc.type == ZEAL_IMAGE_TYPE_1D || desc.type == ZEAL_IMAGE_TYPE_1D_ARRAY;
  const bool three_d = desc.type == ZEAL_IMAGE_TYPE_3D;
  const uint64_t side = one_d ? limits.maxImageDims1D : three_d ? limits.maxImageDims3D : limits.maxImageDims2D;
  if (Status s = check_extent(desc, "width", desc.width, side, device); !s.ok()) return std::move(s).error();
  if (!one_d)
    if (Status s = check_extent(desc, "height", desc.height, side, device); !s.ok()) return std::move(s).error();
  if (three_d)
    if (Status s = check_extent(desc, "depth", desc.depth, side, device); !s.ok()) return std::move(s).error();
  if (is_array(desc.type))
    if (Status s = check_extent(desc, "array size", desc.array_size, limits.maxImageArraySlices, device); !s.ok())
      return std::move(s).error();

  const size_t height = one_d ? 1 : desc.height;
  const size_t depth = three_d ? desc.depth : 1;
  const size_t layers = is_array(desc.type) ? desc.array_size : 1;
  extent = desc.type == ZEAL_IMAGE_TYPE_1D_ARRAY ? std::array<size_t, 3>{desc.width, layers, 1}
           : desc.type == ZEAL_IMAGE_TYPE_2D_ARRAY ? std::array<size_t, 3>{desc.width, height, layers}
                                                    : std::array<size_t, 3>{desc.width, height, depth};
  auto out = ze_desc<ze_image_desc_t>();
  out.flags = kernel_writes ? ZE_IMAGE_FLAG_KERNEL_WRITE : 0;
  out.type = type.value();
  out.format = format.value();
  out.width = desc.width;
  out.height = static_cast<uint32_t>(height);
  out.depth = static_cast<uint32_t>(depth);
  out.arraylevels = is_array(desc.type) ? static_cast<uint32_t>(layers) : 0;
  return out;
}

Result<Image *> Image::create(Context &context, const zeal_image_desc_t &desc, bool kernel_writes, const void *host,
                              HostPitches host_pitches) {
  std::array<size_t, 3> extent{};
  auto ze_desc_made = describe(context, desc, kernel_writes, extent);
  if (!ze_desc_made.ok()) return std::move(ze_desc_made).error();
  const Device &device = *context.devices().front();
  ze_image_handle_t handle = nullptr;
  if (Status s = ze_check(zeImageCreate(context.ze(), device.ze(), &ze_desc_made.value(), &handle), "zeImageCreate",
                          "an image on device '" + device.name() + "'");
      !s.ok())
    return std::move(s).error();
  Ref<Image> image(new Image(context, desc, ZeImage(handle), bytes_per_pixel(ze_desc_made.value().format), extent), false);
  if (host == nullptr) return image.detach();
  // Nothing can use the image yet: a synchronous list writes it before it is handed out.
  const zeal_image_region_t whole{{0, 0, 0}, {extent[0], extent[1], extent[2]}};
  auto pitches = image->host_pitches(whole, host_pitches, "image create from host memory");
  if (!pitches.ok()) return std::move(pitches).error();
  const std::string what = "an image's first pixels on device '" + device.name() + "'";
  auto list = context.synchronous_list(device, what);
  if (!list.ok()) return std::move(list).error();
  const ze_image_region_t region = ze_region(whole);
  if (Status s = ze_check(zeCommandListAppendImageCopyFromMemoryExt(list.value().get(), handle, host, &region,
                                                                    pitches.value().first, pitches.value().second,
                                                                    nullptr, 0, nullptr),
                          "zeCommandListAppendImageCopyFromMemoryExt", what);
      !s.ok())
    return std::move(s).error();
  return image.detach();
}

Result<Image *> Image::adopt(Context &context, ze_image_handle_t image, const zeal_image_desc_t &desc, bool owned) {
  if (image == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_HANDLE, "image from a native handle: the Level Zero image is null");
  std::array<size_t, 3> extent{};
  auto described = describe(context, desc, true, extent);
  if (!described.ok()) return std::move(described).error();
  auto *made = new Image(context, desc, ZeImage(image), bytes_per_pixel(described.value().format), extent);
  made->owns_image_ = owned;
  return made;
}

Image::~Image() {
  // A command may still copy or sample the image.
  context_->finish_queues();
  if (!owns_image_) (void)image_.release();
}

size_t Image::slice_pitch() const {
  switch (desc_.type) {
  case ZEAL_IMAGE_TYPE_1D_ARRAY: return row_pitch();
  case ZEAL_IMAGE_TYPE_2D_ARRAY:
  case ZEAL_IMAGE_TYPE_3D: return row_pitch() * extent_[1];
  default: return 0;
  }
}

Status Image::check_region(const zeal_image_region_t &region, const char *what) const {
  static constexpr const char *kAxes[] = {"x", "y", "z"};
  for (size_t d = 0; d < 3; ++d) {
    if (region.size[d] == 0)
      return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                        fmt::format("{}: the region is {}x{}x{} pixels, and none may be 0", what, region.size[0],
                                    region.size[1], region.size[2]));
    if (region.origin[d] > extent_[d] || region.size[d] > extent_[d] - region.origin[d])
      return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                        fmt::format("{}: the region of {}x{}x{} pixels at ({}, {}, {}) passes the {} image's {}x{}x{} "
                                    "in {}",
                                    what, region.size[0], region.size[1], region.size[2], region.origin[0],
                                    region.origin[1], region.origin[2], image_type_name(abi_value(desc_.type)), extent_[0],
                                    extent_[1], extent_[2], kAxes[d]));
  }
  return {};
}

ze_image_region_t Image::ze_region(const zeal_image_region_t &r) {
  // Inside an image, whose extents the device holds to 32 bits.
  return {static_cast<uint32_t>(r.origin[0]), static_cast<uint32_t>(r.origin[1]), static_cast<uint32_t>(r.origin[2]),
          static_cast<uint32_t>(r.size[0]),   static_cast<uint32_t>(r.size[1]),   static_cast<uint32_t>(r.size[2])};
}

Result<std::pair<uint32_t, uint32_t>> Image::host_pitches(const zeal_image_region_t &region, HostPitches pitches,
                                                          const char *what) const {
  const size_t row_bytes = region.size[0] * pixel_bytes_;
  const size_t row = pitches.row_pitch != 0 ? pitches.row_pitch : row_bytes;
  if (row < row_bytes)
    return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                      fmt::format("{}: the host row pitch {} is less than the region's row of {} bytes", what, row,
                                  row_bytes));
  // OpenCL puts a 1-D array's layers slice_pitch apart; the driver sees them as rows.
  const bool layers_are_rows = desc_.type == ZEAL_IMAGE_TYPE_1D_ARRAY;
  const size_t rows = layers_are_rows ? 1 : region.size[1];
  size_t packed = 0;
  if (__builtin_mul_overflow(row, rows, &packed))
    return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                      fmt::format("{}: {} rows of pitch {} overflow the address space", what, rows, row));
  const size_t slice = pitches.slice_pitch != 0 ? pitches.slice_pitch : packed;
  if (slice < packed)
    return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                      fmt::format("{}: the host slice pitch {} does not hold {} rows of pitch {}", what, slice, rows,
                                  row));
  const size_t ze_row = layers_are_rows ? slice : row;
  size_t ze_slice = slice;
  if (layers_are_rows && __builtin_mul_overflow(slice, region.size[1], &ze_slice)) ze_slice = SIZE_MAX;
  if (ze_row > UINT32_MAX || ze_slice > UINT32_MAX)
    return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                      fmt::format("{}: the host pitches {} and {} are 4 GiB or more, which Level Zero's image copies "
                                  "cannot take",
                                  what, ze_row, ze_slice));
  return std::pair{static_cast<uint32_t>(ze_row), static_cast<uint32_t>(ze_slice)};
}

} // namespace zeal::adapter
