// Images on the CPU driver (issue 50, first part: the objects and their copies). Pixels lie in host memory with
// rows and slices packed (a row is width × pixel bytes), so that every image copy is a region copy of bytes
// (copy_region.hpp): a 1-D array's layers are its rows, a 2-D array's its slices. Kernels see an image as its
// ImageDescriptor (kernel_abi.hpp) and a sampler as its SamplerBits.
#pragma once

#include "cpu_driver/kernel_abi.hpp"
#include "ze_driver/image_layout.hpp"
#include "ze_driver/handles.hpp"

#include <level_zero/ze_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>

namespace zeal::cpu {

// The largest images the driver makes (what the device reports).
inline constexpr ze::ImageLimits image_limits{};

// Bytes per pixel of `format` (the layouts OpenCL's full profile uses, with the channel types that fit them); 0,
// with the sentence, for a media layout, a type the layout cannot hold, or a value Level Zero does not define.
uint32_t image_pixel_bytes(const ze_image_format_t &format, std::string &why);

class Image : public _ze_image_handle_t {
public:
  // The image `desc` describes, or the code and sentence of what is wrong with it.
  static ze_result_t create(const ze_image_desc_t &desc, std::unique_ptr<Image> &out, std::string &why);
  // A view of `base`'s pixels as `desc` describes them (zeImageViewCreateExp): another format of the same pixel
  // size, over as many pixels as the base has or fewer, at the base's pitches; it keeps the pixels alive.
  static ze_result_t create_view(const ze_image_desc_t &desc, const Image &base, std::unique_ptr<Image> &out,
                                 std::string &why);
  static Image *from(ze_image_handle_t h) { return static_cast<Image *>(h); }

  const ze_image_desc_t &desc() const { return desc_; }
  uint32_t pixel_bytes() const { return pixel_bytes_; }
  // Pixels per row, rows per slice (a 1-D array's layers), slices (a 2-D array's layers, a 3-D image's depth).
  uint64_t width() const { return width_; }
  uint32_t height() const { return height_; }
  uint32_t depth() const { return depth_; }
  size_t row_pitch() const { return row_pitch_; }
  size_t slice_pitch() const { return slice_pitch_; }
  size_t bytes() const { return slice_pitch_ * depth_; }
  // What zeImageGetAllocPropertiesExt answers: the same for a view as for its image.
  uint64_t allocation_id() const { return allocation_id_; }
  std::byte *data() const { return data_.get(); }
  // What a kernel argument of this image points to.
  const ImageDescriptor *descriptor() const { return &descriptor_; }

  // `region` (null: the whole image) as bytes of the image's memory; INVALID_ARGUMENT with the sentence when it
  // passes the image's end or is empty.
  ze_result_t byte_region(const ze_image_region_t *region, ze_copy_region_t &out, std::string &why) const;

private:
  void set_shape(const ze_image_desc_t &desc, uint32_t pixel_bytes, uint64_t width, uint32_t height, uint32_t depth,
                 size_t row_pitch, size_t slice_pitch);
  void describe(); // fills descriptor_ from the rest

  ze_image_desc_t desc_{};
  uint32_t pixel_bytes_ = 0;
  uint64_t width_ = 0;
  uint32_t height_ = 1, depth_ = 1;
  size_t row_pitch_ = 0, slice_pitch_ = 0;
  uint64_t allocation_id_ = 0;
  std::shared_ptr<std::byte> data_; // 64-byte aligned (ImageFast); an image's views share it
  ImageDescriptor descriptor_;
};

// A sampler: how kernels will read an image through it (addressing, filtering, normalized coordinates), checked
// when made (ze_driver/image_layout.hpp: sampler_bits).
class Sampler : public _ze_sampler_handle_t {
public:
  explicit Sampler(const ze_sampler_desc_t &desc);
  static Sampler *from(ze_sampler_handle_t h) { return static_cast<Sampler *>(h); }
  const ze_sampler_desc_t &desc() const { return desc_; }
  // What a kernel argument of this sampler holds.
  uint32_t bits() const { return bits_; }

private:
  ze_sampler_desc_t desc_;
  uint32_t bits_ = 0;
};

} // namespace zeal::cpu
