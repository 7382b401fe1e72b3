// Images and samplers on the CUDA driver (issue 49): the shapes, formats and descriptors every zeal driver shares
// (ze_driver/image_layout.hpp), with the pixels and the descriptor in device memory. Kernels read and write the
// pixels through the image library the back end links in (compiler/images.cpp), not CUDA's texture units: every
// format, addressing and filter mode of OpenCL, as the CPU driver has them.
#pragma once

#include "cuda_driver/runtime/driver.hpp"
#include "ze_driver/handles.hpp"
#include "ze_driver/image_entries.hpp"

#include <level_zero/ze_api.h>

#include <memory>
#include <string>

namespace zeal::cuda {

class Image;
using ze::Sampler;

// What the shared image entry points (ze_driver/image_entries.hpp) need of this driver.
struct Images {
  using Image = cuda::Image;
  static constexpr ze::ImageLimits limits{}; // the largest images the driver makes (what the device reports)
  static constexpr const char *name = "CUDA driver";
  static void warn(const char *entry_point, const std::string &why);
  static ze_result_t create(ze_device_handle_t device, const ze_image_desc_t &desc, std::unique_ptr<Image> &out,
                            std::string &why);
  static const void *pixels(const Image &image);
  static uint64_t argument(const Image &image); // the device address of its ImageDescriptor
  static ze_result_t append_copy(ze_command_list_handle_t list, const ze::PitchedSide &dst,
                                 const ze::PitchedSide &src, ze_event_handle_t signal, uint32_t count,
                                 ze_event_handle_t *waits);
};

class Image : public _ze_image_handle_t {
public:
  ~Image();
  // The image `desc` describes on `device`, its pixels zeros, or the code and sentence of what is wrong.
  static ze_result_t create(const Device &device, const ze_image_desc_t &desc, std::unique_ptr<Image> &out,
                            std::string &why);
  // A view of `base`'s pixels as `desc` describes them (zeImageViewCreateExp): another format of the same pixel
  // size, over as many pixels as the base has or fewer, at the base's pitches; it keeps the pixels alive.
  static ze_result_t create_view(const ze_image_desc_t &desc, const Image &base, std::unique_ptr<Image> &out,
                                 std::string &why);
  static Image *from(ze_image_handle_t h) { return static_cast<Image *>(h); }

  const ze::ImageShape &shape() const { return shape_; }
  uint64_t row_pitch() const { return row_pitch_; }
  uint64_t slice_pitch() const { return slice_pitch_; }
  uint64_t bytes() const { return slice_pitch_ * shape_.depth; }
  uint64_t allocation_id() const { return allocation_id_; }
  // The pixels' device address, and what a kernel argument of this image holds: its descriptor's.
  CUdeviceptr pixels() const { return pixels_->address; }
  CUdeviceptr descriptor() const { return descriptor_; }

private:
  struct Pixels {
    const Device *device = nullptr;
    CUdeviceptr address = 0;
    ~Pixels();
  };
  Image(const Device &device, const ze_image_desc_t &desc) : device_(device), desc_(desc) { desc_.pNext = nullptr; }
  // Writes the descriptor kernels read into device memory of its own.
  ze_result_t publish(std::string &why);

  const Device &device_;
  ze_image_desc_t desc_;
  ze::ImageShape shape_;
  uint64_t row_pitch_ = 0, slice_pitch_ = 0;
  uint64_t allocation_id_ = 0;
  std::shared_ptr<Pixels> pixels_; // an image's views share them
  CUdeviceptr descriptor_ = 0;
};

} // namespace zeal::cuda
