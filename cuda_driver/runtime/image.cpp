// Images on the CUDA driver (image.hpp): device memory for the pixels and descriptors; the zeImage* and zeSampler*
// entry points and the image copies, which are region copies of bytes (command_list.hpp: append_pitched_copy).
#include "cuda_driver/runtime/image.hpp"

#include "common/log.hpp"
#include "cuda_driver/runtime/command_list.hpp"
#include "cuda_driver/runtime/context.hpp"
#include "cuda_driver/runtime/cuda_call.hpp"
#include "cuda_driver/runtime/ddi.hpp"

#include <fmt/format.h>

#include <atomic>

namespace zeal::cuda {
namespace {

constexpr const char *kDriver = "CUDA driver";

ze_result_t answer(const char *entry_point, ze_result_t result, const std::string &why) {
  if (result != ZE_RESULT_SUCCESS && !why.empty()) zeal::logger("zeal-cuda").warn("{}: {}", entry_point, why);
  return result;
}

uint64_t next_allocation_id() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

} // namespace

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
  if (ze_result_t r = ze::image_shape(desc, image_limits, kDriver, image->shape_, why); r != ZE_RESULT_SUCCESS)
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
  image->allocation_id_ = next_allocation_id();
  if (ze_result_t r = image->publish(why); r != ZE_RESULT_SUCCESS) return r;
  out = std::move(image);
  return ZE_RESULT_SUCCESS;
}

ze_result_t Image::create_view(const ze_image_desc_t &desc, const Image &base, std::unique_ptr<Image> &out,
                               std::string &why) {
  std::unique_ptr<Image> view(new Image(base.device_, desc));
  if (ze_result_t r = ze::image_shape(desc, image_limits, kDriver, view->shape_, why); r != ZE_RESULT_SUCCESS)
    return r;
  const ze::ImageShape &s = view->shape_, &b = base.shape_;
  if (s.pixel_bytes != b.pixel_bytes) {
    why = fmt::format("a view's pixels must be the size of its image's: {} bytes, not {}", b.pixel_bytes,
                      s.pixel_bytes);
    return ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT;
  }
  if (s.width > b.width || s.height > b.height || s.depth > b.depth) {
    why = fmt::format("the view's {}x{}x{} pixels are more than its image's {}x{}x{}", s.width, s.height, s.depth,
                      b.width, b.height, b.depth);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
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

namespace {

ze_result_t image_get_properties(ze_device_handle_t device, const ze_image_desc_t *desc, ze_image_properties_t *out) {
  if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  ze::ImageShape shape;
  std::string why;
  if (ze_result_t r = ze::image_shape(*desc, image_limits, kDriver, shape, why); r != ZE_RESULT_SUCCESS)
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
  if (ze_result_t r = Image::create(*Device::from(device), *desc, image, why); r != ZE_RESULT_SUCCESS)
    return answer("zeImageCreate", r, why);
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

// --- Copies: regions of bytes, the memory side packed (rows of the region's width, slices of its height) ----------

// The memory side of a copy of `image_region` bytes: the same box from the start of memory, with the pitches given
// (0: packed).
ze_copy_region_t memory_side(const ze_copy_region_t &image_region) {
  return {0, 0, 0, image_region.width, image_region.height, image_region.depth};
}

ze_result_t checked_regions(const char *entry_point, const Image &image, const ze_image_region_t *region,
                            ze_copy_region_t &out) {
  std::string why;
  return answer(entry_point, image.byte_region(region, out, why), why);
}

ze_result_t append_image_copy_to_memory_ext(ze_command_list_handle_t list, void *dst, ze_image_handle_t src,
                                            const ze_image_region_t *region, uint32_t row_pitch,
                                            uint32_t slice_pitch, ze_event_handle_t signal, uint32_t count,
                                            ze_event_handle_t *waits) {
  if (list == nullptr || src == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (dst == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const Image &image = *Image::from(src);
  ze_copy_region_t from{};
  if (ze_result_t r = checked_regions("zeCommandListAppendImageCopyToMemory", image, region, from);
      r != ZE_RESULT_SUCCESS)
    return r;
  const ze_copy_region_t to = memory_side(from);
  return append_pitched_copy(list, dst, &to, row_pitch, slice_pitch, reinterpret_cast<const void *>(image.pixels()),
                            &from, uint32_t(image.row_pitch()), uint32_t(image.slice_pitch()), signal, count, waits);
}

ze_result_t append_image_copy_to_memory(ze_command_list_handle_t list, void *dst, ze_image_handle_t src,
                                        const ze_image_region_t *region, ze_event_handle_t signal, uint32_t count,
                                        ze_event_handle_t *waits) {
  return append_image_copy_to_memory_ext(list, dst, src, region, 0, 0, signal, count, waits);
}

ze_result_t append_image_copy_from_memory_ext(ze_command_list_handle_t list, ze_image_handle_t dst, const void *src,
                                              const ze_image_region_t *region, uint32_t row_pitch,
                                              uint32_t slice_pitch, ze_event_handle_t signal, uint32_t count,
                                              ze_event_handle_t *waits) {
  if (list == nullptr || dst == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (src == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const Image &image = *Image::from(dst);
  ze_copy_region_t to{};
  if (ze_result_t r = checked_regions("zeCommandListAppendImageCopyFromMemory", image, region, to);
      r != ZE_RESULT_SUCCESS)
    return r;
  const ze_copy_region_t from = memory_side(to);
  return append_pitched_copy(list, reinterpret_cast<void *>(image.pixels()), &to, uint32_t(image.row_pitch()),
                            uint32_t(image.slice_pitch()), src, &from, row_pitch, slice_pitch, signal, count, waits);
}

ze_result_t append_image_copy_from_memory(ze_command_list_handle_t list, ze_image_handle_t dst, const void *src,
                                          const ze_image_region_t *region, ze_event_handle_t signal, uint32_t count,
                                          ze_event_handle_t *waits) {
  return append_image_copy_from_memory_ext(list, dst, src, region, 0, 0, signal, count, waits);
}

ze_result_t append_image_copy_region(ze_command_list_handle_t list, ze_image_handle_t dst, ze_image_handle_t src,
                                     const ze_image_region_t *dst_region, const ze_image_region_t *src_region,
                                     ze_event_handle_t signal, uint32_t count, ze_event_handle_t *waits) {
  if (list == nullptr || dst == nullptr || src == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const Image &to_image = *Image::from(dst), &from_image = *Image::from(src);
  if (to_image.shape().pixel_bytes != from_image.shape().pixel_bytes) {
    return answer("zeCommandListAppendImageCopyRegion", ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  fmt::format("the images' pixels differ in size ({} and {} bytes)", to_image.shape().pixel_bytes,
                              from_image.shape().pixel_bytes));
  }
  ze_copy_region_t to{}, from{};
  if (ze_result_t r = checked_regions("zeCommandListAppendImageCopyRegion", to_image, dst_region, to);
      r != ZE_RESULT_SUCCESS)
    return r;
  if (ze_result_t r = checked_regions("zeCommandListAppendImageCopyRegion", from_image, src_region, from);
      r != ZE_RESULT_SUCCESS)
    return r;
  if (to.width != from.width || to.height != from.height || to.depth != from.depth) {
    return answer("zeCommandListAppendImageCopyRegion", ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  "the destination and source regions differ in size");
  }
  return append_pitched_copy(list, reinterpret_cast<void *>(to_image.pixels()), &to, uint32_t(to_image.row_pitch()),
                            uint32_t(to_image.slice_pitch()), reinterpret_cast<const void *>(from_image.pixels()),
                            &from, uint32_t(from_image.row_pitch()), uint32_t(from_image.slice_pitch()), signal,
                            count, waits);
}

ze_result_t append_image_copy(ze_command_list_handle_t list, ze_image_handle_t dst, ze_image_handle_t src,
                              ze_event_handle_t signal, uint32_t count, ze_event_handle_t *waits) {
  return append_image_copy_region(list, dst, src, nullptr, nullptr, signal, count, waits);
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

void implement_image_copies(ze_command_list_dditable_t &t) {
  t.pfnAppendImageCopy = guarded<append_image_copy>;
  t.pfnAppendImageCopyRegion = guarded<append_image_copy_region>;
  t.pfnAppendImageCopyToMemory = guarded<append_image_copy_to_memory>;
  t.pfnAppendImageCopyFromMemory = guarded<append_image_copy_from_memory>;
  t.pfnAppendImageCopyToMemoryExt = guarded<append_image_copy_to_memory_ext>;
  t.pfnAppendImageCopyFromMemoryExt = guarded<append_image_copy_from_memory_ext>;
}

} // namespace zeal::cuda
