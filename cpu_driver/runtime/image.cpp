// Images on the CPU driver: pixels in host memory (image.hpp); the entry points are the shared ones
// (ze_driver/image_entries.hpp) over this driver's Images.
#include "cpu_driver/runtime/image.hpp"

#include "common/log.hpp"
#include "cpu_driver/compiler/compiler.hpp"
#include "cpu_driver/runtime/ddi.hpp"
#include "cpu_driver/runtime/handles.hpp"

#include <fmt/format.h>

#include <cstring>
#include <new>

namespace zeal::cpu {

void Images::warn(const char *entry_point, const std::string &why) {
  zeal::logger("zeal-cpu").warn("{}: {}", entry_point, why);
}

ze_result_t Images::create(ze_device_handle_t, const ze_image_desc_t &desc, std::unique_ptr<Image> &out,
                           std::string &why) {
  return Image::create(desc, out, why);
}

const void *Images::pixels(const Image &image) { return image.data(); }

uint64_t Images::argument(const Image &image) { return uint64_t(reinterpret_cast<uintptr_t>(image.descriptor())); }

Image::Image(const ze_image_desc_t &desc, const ze::ImageShape &shape, size_t row_pitch, size_t slice_pitch)
    : desc_(desc), shape_(shape), row_pitch_(row_pitch), slice_pitch_(slice_pitch) {
  desc_.pNext = nullptr;
}

ze_result_t Image::create(const ze_image_desc_t &desc, std::unique_ptr<Image> &out, std::string &why) {
  ze::ImageShape shape;
  if (ze_result_t r = ze::image_shape(desc, Images::limits, Images::name, shape, why); r != ZE_RESULT_SUCCESS)
    return r;
  std::unique_ptr<Image> image(new Image(desc, shape, shape.row_pitch(), shape.slice_pitch()));
  const size_t bytes = image->bytes();
  auto *pixels = static_cast<std::byte *>(::operator new[](bytes, std::align_val_t{64}, std::nothrow));
  if (pixels == nullptr) {
    why = fmt::format("no host memory for the image's {} bytes", bytes);
    return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  }
  std::memset(pixels, 0, bytes); // a new image reads as zeros
  image->data_.reset(pixels, [](std::byte *p) { ::operator delete[](p, std::align_val_t{64}); });
  image->allocation_id_ = ze::next_image_allocation_id();
  image->describe();
  out = std::move(image);
  return ZE_RESULT_SUCCESS;
}

ze_result_t Image::create_view(const ze_image_desc_t &desc, const Image &base, std::unique_ptr<Image> &out,
                               std::string &why) {
  ze::ImageShape shape;
  if (ze_result_t r = ze::image_shape(desc, Images::limits, Images::name, shape, why); r != ZE_RESULT_SUCCESS)
    return r;
  if (ze_result_t r = ze::check_view(shape, base.shape_, why); r != ZE_RESULT_SUCCESS) return r;
  std::unique_ptr<Image> view(new Image(desc, shape, base.row_pitch_, base.slice_pitch_));
  view->data_ = base.data_;
  view->allocation_id_ = base.allocation_id_;
  view->describe();
  out = std::move(view);
  return ZE_RESULT_SUCCESS;
}

void Image::describe() {
  descriptor_ = ze::describe_image(desc_, shape_, row_pitch(), slice_pitch());
  descriptor_.data = reinterpret_cast<unsigned char *>(data_.get());
  descriptor_.stream_writes = bytes() >= streaming_store_threshold() ? 1 : 0;
}

void implement(ze_sampler_dditable_t &t) { ze::implement_samplers<Images>(t); }
void implement(ze_image_dditable_t &t) { ze::implement_images<Images>(t); }
void implement(ze_image_exp_dditable_t &t) { ze::implement_images<Images>(t); }

} // namespace zeal::cpu
