// Images on the CPU driver (issue 50, first part: the objects and their copies). Pixels lie in host memory with
// rows and slices packed (a row is width × pixel bytes), so that every image copy is a region copy of bytes
// (copy_region.hpp): a 1-D array's layers are its rows, a 2-D array's its slices. Kernels see an image as its
// ImageDescriptor (kernel_abi.hpp) and a sampler as its SamplerBits.
#pragma once

#include "cpu_driver/kernel_abi.hpp"
#include "ze_driver/image_entries.hpp"
#include "ze_driver/handles.hpp"

#include <level_zero/ze_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>

namespace zeal::cpu {

class Image;
using ze::Sampler;

// What the shared image entry points (ze_driver/image_entries.hpp) need of this driver; append_copy is the region
// copy of command_list.cpp.
struct Images {
  using Image = cpu::Image;
  static constexpr ze::ImageLimits limits{}; // the largest images the driver makes (what the device reports)
  static constexpr const char *name = "CPU driver";
  static void warn(const char *entry_point, const std::string &why);
  static ze_result_t create(ze_device_handle_t device, const ze_image_desc_t &desc, std::unique_ptr<Image> &out,
                            std::string &why);
  static const void *pixels(const Image &image);
  static uint64_t argument(const Image &image); // the address of its ImageDescriptor
  static ze_result_t append_copy(ze_command_list_handle_t list, const ze::PitchedSide &dst,
                                 const ze::PitchedSide &src, ze_event_handle_t signal, uint32_t count,
                                 ze_event_handle_t *waits);
};

class Image : public _ze_image_handle_t {
public:
  // The image `desc` describes, or the code and sentence of what is wrong with it.
  static ze_result_t create(const ze_image_desc_t &desc, std::unique_ptr<Image> &out, std::string &why);
  // A view of `base`'s pixels as `desc` describes them (zeImageViewCreateExp): another format of the same pixel
  // size, over as many pixels as the base has or fewer, at the base's pitches; it keeps the pixels alive.
  static ze_result_t create_view(const ze_image_desc_t &desc, const Image &base, std::unique_ptr<Image> &out,
                                 std::string &why);
  static Image *from(ze_image_handle_t h) { return static_cast<Image *>(h); }

  // Bytes per pixel, pixels per row, rows per slice (a 1-D array's layers), slices (a 2-D array's layers, a 3-D
  // image's depth).
  const ze::ImageShape &shape() const { return shape_; }
  size_t row_pitch() const { return row_pitch_; }
  size_t slice_pitch() const { return slice_pitch_; }
  size_t bytes() const { return slice_pitch_ * shape_.depth; }
  // What zeImageGetAllocPropertiesExt answers: the same for a view as for its image.
  uint64_t allocation_id() const { return allocation_id_; }
  std::byte *data() const { return data_.get(); }
  // What a kernel argument of this image points to.
  const ImageDescriptor *descriptor() const { return &descriptor_; }

private:
  Image(const ze_image_desc_t &desc, const ze::ImageShape &shape, size_t row_pitch, size_t slice_pitch);
  void describe(); // fills descriptor_ from the rest

  ze_image_desc_t desc_{};
  ze::ImageShape shape_;
  size_t row_pitch_ = 0, slice_pitch_ = 0;
  uint64_t allocation_id_ = 0;
  std::shared_ptr<std::byte> data_; // 64-byte aligned (ImageFast); an image's views share it
  ImageDescriptor descriptor_;
};

} // namespace zeal::cpu
