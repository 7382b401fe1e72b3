// Images on the CUDA driver (image.hpp): device memory for the pixels and descriptors; the entry points are the
// shared ones (ze_driver/image_entries.hpp) over this driver's Images, whose copies are region copies of bytes
// (command_list.hpp: append_pitched_copy).
#include "cuda_driver/runtime/image.hpp"

#include "common/log.hpp"
#include "cuda_driver/runtime/command_list.hpp"
#include "cuda_driver/runtime/context.hpp"
#include "cuda_driver/runtime/cuda_call.hpp"
#include "cuda_driver/runtime/ddi.hpp"

#include <fmt/format.h>


namespace zeal::cuda {
Image::Pixels::~Pixels() {
  if (address == 0) return;
  device->make_current();
  checked(device->api().cuMemFree_v2(address), "cuMemFree_v2");
}

Image::~Image() {
  if (descriptor_ == 0) return;
  device_.make_current();
  checked(device_.api().cuMemFree_v2(descriptor_), "cuMemFree_v2");
}

ze_result_t Image::create(const Device &device, const ze_image_desc_t &desc, std::unique_ptr<Image> &out,
                          std::string &why) {
  std::unique_ptr<Image> image(new Image(device, desc));
  if (ze_result_t r = ze::image_shape(desc, Images::limits, Images::name, image->shape_, why); r != ZE_RESULT_SUCCESS)
    return r;
  image->row_pitch_ = image->shape_.row_pitch();
  image->slice_pitch_ = image->shape_.slice_pitch();
  const DriverApi &api = device.api();
  device.make_current();
  auto pixels = std::make_shared<Pixels>();
  pixels->device = &device;
  const uint64_t bytes = image->bytes();
  if (ze_result_t r = checked(api.cuMemAlloc_v2(&pixels->address, bytes), "cuMemAlloc_v2"); r != ZE_RESULT_SUCCESS) {
    why = fmt::format("no device memory for the image's {} bytes", bytes);
    return r;
  }
  image->pixels_ = std::move(pixels);
  // A new image reads as zeros; the descriptor's copy below waits for it.
  if (ze_result_t r = checked(api.cuMemsetD8Async(image->pixels(), 0, bytes, nullptr), "cuMemsetD8Async");
      r != ZE_RESULT_SUCCESS) {
    why = "the image's pixels could not be cleared";
    return r;
  }
  image->allocation_id_ = ze::next_image_allocation_id();
  if (ze_result_t r = image->publish(why); r != ZE_RESULT_SUCCESS) return r;
  out = std::move(image);
  return ZE_RESULT_SUCCESS;
}

ze_result_t Image::create_view(const ze_image_desc_t &desc, const Image &base, std::unique_ptr<Image> &out,
                               std::string &why) {
  std::unique_ptr<Image> view(new Image(base.device_, desc));
  if (ze_result_t r = ze::image_shape(desc, Images::limits, Images::name, view->shape_, why); r != ZE_RESULT_SUCCESS)
    return r;
  if (ze_result_t r = ze::check_view(view->shape_, base.shape_, why); r != ZE_RESULT_SUCCESS) return r;
  view->row_pitch_ = base.row_pitch_;
  view->slice_pitch_ = base.slice_pitch_;
  view->pixels_ = base.pixels_;
  view->allocation_id_ = base.allocation_id_;
  if (ze_result_t r = view->publish(why); r != ZE_RESULT_SUCCESS) return r;
  out = std::move(view);
  return ZE_RESULT_SUCCESS;
}

ze_result_t Image::publish(std::string &why) {
  ze::ImageDescriptor d = ze::describe_image(desc_, shape_, row_pitch_, slice_pitch_);
  d.data = reinterpret_cast<unsigned char *>(pixels_->address);
  const DriverApi &api = device_.api();
  device_.make_current();
  ze_result_t r = checked(api.cuMemAlloc_v2(&descriptor_, sizeof d), "cuMemAlloc_v2");
  if (r == ZE_RESULT_SUCCESS) {
    r = checked(api.cuMemcpyAsync(descriptor_, CUdeviceptr(&d), sizeof d, nullptr), "cuMemcpyAsync");
    if (r == ZE_RESULT_SUCCESS) r = checked(api.cuStreamSynchronize(nullptr), "cuStreamSynchronize");
  }
  if (r != ZE_RESULT_SUCCESS) why = "the image's descriptor could not be written to device memory";
  return r;
}

void Images::warn(const char *entry_point, const std::string &why) {
  zeal::logger("zeal-cuda").warn("{}: {}", entry_point, why);
}

ze_result_t Images::create(ze_device_handle_t device, const ze_image_desc_t &desc, std::unique_ptr<Image> &out,
                           std::string &why) {
  return Image::create(*Device::from(device), desc, out, why);
}

const void *Images::pixels(const Image &image) { return reinterpret_cast<const void *>(image.pixels()); }

uint64_t Images::argument(const Image &image) { return image.descriptor(); }

ze_result_t Images::append_copy(ze_command_list_handle_t list, const ze::PitchedSide &dst,
                                const ze::PitchedSide &src, ze_event_handle_t signal, uint32_t count,
                                ze_event_handle_t *waits) {
  return append_pitched_copy(list, const_cast<void *>(dst.base), &dst.region, dst.row_pitch, dst.slice_pitch,
                             src.base, &src.region, src.row_pitch, src.slice_pitch, signal, count, waits);
}

void implement(ze_sampler_dditable_t &t) { ze::implement_samplers<Images>(t); }
void implement(ze_image_dditable_t &t) { ze::implement_images<Images>(t); }
void implement(ze_image_exp_dditable_t &t) { ze::implement_images<Images>(t); }

} // namespace zeal::cuda
