// A zeal image: a Level Zero image of the context's first device, in one of OpenCL's formats and shapes.
#pragma once

#include "adapter/core/context.hpp"

#include <array>

namespace zeal::adapter {

class Image : public Object {
public:
  static constexpr Kind kKind = Kind::Image;

  // Where a host side of an image command keeps its pixels: rows `row_pitch` bytes apart and slices (layers of
  // an array) `slice_pitch` bytes apart; 0 packs them.
  struct HostPitches {
    size_t row_pitch;
    size_t slice_pitch;
  };

  // An image of `desc` (checked here: its enumerations, its format, its extents against the first device's
  // limits), written from `host` when given (HostPitches as for a write of the whole image). `kernel_writes`: a
  // kernel may write it. UNSUPPORTED_FEATURE for a context whose first device has no images.
  static Result<Image *> create(Context &context, const zeal_image_desc_t &desc, bool kernel_writes,
                                const void *host = nullptr, HostPitches host_pitches = {});
  // An image over a Level Zero image made elsewhere (a native handle) of the context's first device, which
  // `desc` describes (the driver cannot be asked). `owned`: the image destroys it when it goes.
  static Result<Image *> adopt(Context &context, ze_image_handle_t image, const zeal_image_desc_t &desc, bool owned);
  ~Image() override;

  Context &context() const { return *context_; }
  const zeal_image_desc_t &desc() const { return desc_; }
  ze_image_handle_t ze() const { return image_.get(); }
  // Where the handle lives as long as the image: the bytes a kernel argument passes.
  const ze_image_handle_t *ze_address() const { return &image_handle_; }
  uint32_t pixel_bytes() const { return pixel_bytes_; }
  // The image's extent in region coordinates: width, rows (a 1-D array's layers) and slices (a 2-D array's
  // layers), each at least 1.
  const std::array<size_t, 3> &extent() const { return extent_; }
  // Bytes from a row to the next and from a slice (or layer) to the next, packed, as OpenCL reports them
  // (the slice pitch is 0 for 1-D and 2-D images).
  size_t row_pitch() const { return extent_[0] * pixel_bytes_; }
  size_t slice_pitch() const;
  size_t size() const { return extent_[0] * pixel_bytes_ * extent_[1] * extent_[2]; }

  // INVALID_SIZE, its sentence beginning with `what`, when `region` is empty or does not lie in the image.
  Status check_region(const zeal_image_region_t &region, const char *what) const;
  // The Level Zero region of a checked one.
  static ze_image_region_t ze_region(const zeal_image_region_t &region);
  // Level Zero's pitches of a host side of `region` (an array's layers are its rows for the driver), checked:
  // INVALID_SIZE when a pitch does not hold its row or slice or does not fit Level Zero's 32 bits.
  Result<std::pair<uint32_t, uint32_t>> host_pitches(const zeal_image_region_t &region, HostPitches pitches,
                                                     const char *what) const;

private:
  Image(Context &context, const zeal_image_desc_t &desc, ZeImage image, uint32_t pixel_bytes,
        std::array<size_t, 3> extent)
      : Object(kKind), context_(&context), desc_(desc), image_(std::move(image)), image_handle_(image_.get()),
        pixel_bytes_(pixel_bytes), extent_(extent) {}
  // The Level Zero desc of `desc`, checked; `extent` gets the image's extent.
  static Result<ze_image_desc_t> describe(const Context &context, const zeal_image_desc_t &desc, bool kernel_writes,
                                          std::array<size_t, 3> &extent);

  Ref<Context> context_;
  zeal_image_desc_t desc_;
  ZeImage image_;
  ze_image_handle_t image_handle_; // image_'s handle, where kernel arguments read it
  bool owns_image_ = true;
  uint32_t pixel_bytes_;
  std::array<size_t, 3> extent_;
};

} // namespace zeal::adapter
