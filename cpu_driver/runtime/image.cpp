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

constexpr const char *kDriver = "CPU driver";

ze_result_t shape_of(const ze_image_desc_t &desc, ze::ImageShape &out, std::string &why) {
  return ze::image_shape(desc, image_limits, kDriver, out, why);
}

ze_result_t answer(const char *entry_point, ze_result_t result, const std::string &why) {
  if (result != ZE_RESULT_SUCCESS && !why.empty()) zeal::logger("zeal-cpu").warn("{}: {}", entry_point, why);
  return result;
}

} // namespace

uint32_t image_pixel_bytes(const ze_image_format_t &format, std::string &why) {
  return ze::image_pixel_bytes(format, kDriver, why);
}

ze_result_t Image::create(const ze_image_desc_t &desc, std::unique_ptr<Image> &out, std::string &why) {
  ze::ImageShape shape;
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
  ze::ImageShape shape;
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
  descriptor_ = ze::describe_image(desc_, {pixel_bytes_, width_, height_, depth_}, row_pitch(), slice_pitch());
  descriptor_.data = reinterpret_cast<unsigned char *>(data_.get());
  descriptor_.stream_writes = bytes() >= streaming_store_threshold() ? 1 : 0;
}

Sampler::Sampler(const ze_sampler_desc_t &desc) : desc_(desc), bits_(ze::sampler_bits(desc)) { desc_.pNext = nullptr; }

ze_result_t Image::byte_region(const ze_image_region_t *region, ze_copy_region_t &out, std::string &why) const {
  return ze::image_byte_region({pixel_bytes_, width_, height_, depth_}, region, out, why);
}

namespace {

ze_result_t image_get_properties(ze_device_handle_t device, const ze_image_desc_t *desc, ze_image_properties_t *out) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  ze::ImageShape shape;
  std::string why;
  if (ze_result_t r = shape_of(*desc, shape, why); r != ZE_RESULT_SUCCESS)
    return answer("zeImageGetProperties", r, why);
  out->samplerFilterFlags = ze::image_filter_flags(*desc);
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

ze_result_t sampler_create(ze_context_handle_t context, ze_device_handle_t device, const ze_sampler_desc_t *desc,
                           ze_sampler_handle_t *out) {
  if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::string why;
  if (ze_result_t r = ze::check_sampler(*desc, why); r != ZE_RESULT_SUCCESS) return answer("zeSamplerCreate", r, why);
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
  t.pfnGetAllocPropertiesExt = guarded<ze::image_alloc_properties<Image>>;
}

void implement(ze_image_exp_dditable_t &t) {
  t.pfnGetMemoryPropertiesExp = guarded<ze::image_memory_properties<Image>>;
  t.pfnViewCreateExp = guarded<image_view_create>;
}

} // namespace zeal::cpu
