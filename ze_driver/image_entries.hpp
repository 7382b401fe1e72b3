// The image and sampler entry points every zeal driver answers alike (issues 49 and 50): checks, sentences and
// regions here, once; what differs (where pixels lie, how a region of bytes is copied, the driver's log) comes from
// the driver's `Traits`:
//   Traits::Image    from(), shape(), row_pitch(), slice_pitch(), bytes(), allocation_id(),
//                    create_view(desc, base, out, why)
//   Traits::limits, Traits::name     the largest images it makes, and its name in sentences ("CUDA driver")
//   Traits::warn(entry_point, why)   logs a refusal
//   Traits::create(device, desc, out, why)                     zeImageCreate's image
//   Traits::pixels(image)                                      the address of the image's first pixel byte
//   Traits::argument(image)                                    what a kernel argument of the image holds
//   Traits::append_copy(list, dst, src, signal, count, waits)  a copy of a box of bytes between pitched layouts
#pragma once

#include "ze_driver/ddi.hpp"
#include "ze_driver/handles.hpp"
#include "ze_driver/image_layout.hpp"

#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

namespace zeal::ze {

// A sampler, checked when made (check_sampler): how kernels read an image through it, as OpenCL's sampler bits.
class Sampler : public _ze_sampler_handle_t {
public:
  explicit Sampler(const ze_sampler_desc_t &desc) : bits_(sampler_bits(desc)) {}
  static Sampler *from(ze_sampler_handle_t h) { return static_cast<Sampler *>(h); }
  // What a kernel argument of this sampler holds.
  uint32_t bits() const { return bits_; }

private:
  uint32_t bits_ = 0;
};

// One side of a copy of bytes between pitched layouts: where the layout starts, the box (width in bytes), and the
// bytes between its rows and between its slices.
struct PitchedSide {
  const void *base = nullptr;
  ze_copy_region_t region{};
  uint32_t row_pitch = 0, slice_pitch = 0;
};

template <class Traits>
struct ImageEntries {
  using Image = typename Traits::Image;

  static ze_result_t answer(const char *entry_point, ze_result_t result, const std::string &why) {
    if (result != ZE_RESULT_SUCCESS && !why.empty()) Traits::warn(entry_point, why);
    return result;
  }

  static ze_result_t get_properties(ze_device_handle_t device, const ze_image_desc_t *desc,
                                    ze_image_properties_t *out) {
    if (device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    ImageShape shape;
    std::string why;
    if (ze_result_t r = image_shape(*desc, Traits::limits, Traits::name, shape, why); r != ZE_RESULT_SUCCESS)
      return answer("zeImageGetProperties", r, why);
    out->samplerFilterFlags = image_filter_flags(*desc);
    return ZE_RESULT_SUCCESS;
  }

  static ze_result_t create(ze_context_handle_t context, ze_device_handle_t device, const ze_image_desc_t *desc,
                            ze_image_handle_t *out) {
    if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    std::unique_ptr<Image> image;
    std::string why;
    if (ze_result_t r = Traits::create(device, *desc, image, why); r != ZE_RESULT_SUCCESS)
      return answer("zeImageCreate", r, why);
    *out = image.release();
    return ZE_RESULT_SUCCESS;
  }

  static ze_result_t view_create(ze_context_handle_t context, ze_device_handle_t device, const ze_image_desc_t *desc,
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

  static ze_result_t memory_properties(ze_image_handle_t image, ze_image_memory_properties_exp_t *out) {
    if (image == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    const Image &i = *Image::from(image);
    out->size = i.bytes();
    out->rowPitch = i.row_pitch();
    out->slicePitch = i.slice_pitch();
    return ZE_RESULT_SUCCESS;
  }

  // What zeImageGetAllocPropertiesExt answers: the same for a view as for its image.
  static ze_result_t alloc_properties(ze_context_handle_t context, ze_image_handle_t image,
                                      ze_image_allocation_ext_properties_t *out) {
    if (context == nullptr || image == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    out->id = Image::from(image)->allocation_id();
    return ZE_RESULT_SUCCESS;
  }

  static ze_result_t sampler_create(ze_context_handle_t context, ze_device_handle_t device,
                                    const ze_sampler_desc_t *desc, ze_sampler_handle_t *out) {
    if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    std::string why;
    if (ze_result_t r = check_sampler(*desc, why); r != ZE_RESULT_SUCCESS) return answer("zeSamplerCreate", r, why);
    *out = new Sampler(*desc);
    return ZE_RESULT_SUCCESS;
  }

  // zeKernelSetArgumentValue of an image or sampler argument: `value` holds the handle; `passed` gets what the
  // kernel holds in its place (Traits::argument of the image, or the sampler's bits).
  static ze_result_t argument_value(bool image, size_t size, const void *value, uint64_t &passed, std::string &why) {
    if (size != sizeof(void *)) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
    void *handle = nullptr;
    if (value != nullptr) std::memcpy(&handle, value, sizeof handle);
    if (handle == nullptr) {
      why = fmt::format("{}, and no {} was given", image ? "an image" : "a sampler", image ? "image" : "sampler");
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    passed = image ? Traits::argument(*Image::from(static_cast<ze_image_handle_t>(handle)))
                   : Sampler::from(static_cast<ze_sampler_handle_t>(handle))->bits();
    return ZE_RESULT_SUCCESS;
  }

  // --- Copies: regions of the images' bytes; memory beside an image packed as the region is unless pitches are
  // given (the Ext forms; 0 means packed) ----------------------------------------------------------------------------

  // `region` of `image` as the image side of a copy; INVALID_ARGUMENT with the sentence (after `which`) when it is
  // empty or passes the image's end.
  static ze_result_t image_side(const char *entry_point, const char *which, const Image &image,
                                const ze_image_region_t *region, PitchedSide &out) {
    std::string why;
    if (ze_result_t r = image_byte_region(image.shape(), region, out.region, why); r != ZE_RESULT_SUCCESS)
      return answer(entry_point, r, which + why);
    out.base = Traits::pixels(image);
    out.row_pitch = uint32_t(image.row_pitch());
    out.slice_pitch = uint32_t(image.slice_pitch());
    return ZE_RESULT_SUCCESS;
  }

  // The memory side of a copy to or from an image: the image side's box of bytes at `ptr`.
  static PitchedSide memory_side(const void *ptr, const PitchedSide &image, uint32_t row_pitch, uint32_t slice_pitch) {
    const ze_copy_region_t &r = image.region;
    const uint32_t row = row_pitch != 0 ? row_pitch : r.width;
    return {ptr, {0, 0, 0, r.width, r.height, r.depth}, row, slice_pitch != 0 ? slice_pitch : row * r.height};
  }

  static ze_result_t append_copy_region(ze_command_list_handle_t list, ze_image_handle_t dst, ze_image_handle_t src,
                                        const ze_image_region_t *dst_region, const ze_image_region_t *src_region,
                                        ze_event_handle_t signal, uint32_t count, ze_event_handle_t *waits) {
    if (list == nullptr || dst == nullptr || src == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    constexpr const char *entry = "zeCommandListAppendImageCopyRegion";
    const Image &d = *Image::from(dst), &s = *Image::from(src);
    if (d.shape().pixel_bytes != s.shape().pixel_bytes) {
      return answer(entry, ZE_RESULT_ERROR_INVALID_ARGUMENT,
                    fmt::format("the destination image's pixels are {} bytes, the source's {}", d.shape().pixel_bytes,
                                s.shape().pixel_bytes));
    }
    PitchedSide to, from;
    if (ze_result_t r = image_side(entry, "destination: ", d, dst_region, to); r != ZE_RESULT_SUCCESS) return r;
    if (ze_result_t r = image_side(entry, "source: ", s, src_region, from); r != ZE_RESULT_SUCCESS) return r;
    return Traits::append_copy(list, to, from, signal, count, waits);
  }

  static ze_result_t append_copy(ze_command_list_handle_t list, ze_image_handle_t dst, ze_image_handle_t src,
                                 ze_event_handle_t signal, uint32_t count, ze_event_handle_t *waits) {
    return append_copy_region(list, dst, src, nullptr, nullptr, signal, count, waits);
  }

  static ze_result_t append_copy_to_memory_ext(ze_command_list_handle_t list, void *dst, ze_image_handle_t src,
                                               const ze_image_region_t *region, uint32_t row_pitch,
                                               uint32_t slice_pitch, ze_event_handle_t signal, uint32_t count,
                                               ze_event_handle_t *waits) {
    if (list == nullptr || src == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (dst == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    PitchedSide from;
    if (ze_result_t r = image_side("zeCommandListAppendImageCopyToMemory", "", *Image::from(src), region, from);
        r != ZE_RESULT_SUCCESS)
      return r;
    return Traits::append_copy(list, memory_side(dst, from, row_pitch, slice_pitch), from, signal, count, waits);
  }

  static ze_result_t append_copy_to_memory(ze_command_list_handle_t list, void *dst, ze_image_handle_t src,
                                           const ze_image_region_t *region, ze_event_handle_t signal, uint32_t count,
                                           ze_event_handle_t *waits) {
    return append_copy_to_memory_ext(list, dst, src, region, 0, 0, signal, count, waits);
  }

  static ze_result_t append_copy_from_memory_ext(ze_command_list_handle_t list, ze_image_handle_t dst,
                                                 const void *src, const ze_image_region_t *region, uint32_t row_pitch,
                                                 uint32_t slice_pitch, ze_event_handle_t signal, uint32_t count,
                                                 ze_event_handle_t *waits) {
    if (list == nullptr || dst == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (src == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    PitchedSide to;
    if (ze_result_t r = image_side("zeCommandListAppendImageCopyFromMemory", "", *Image::from(dst), region, to);
        r != ZE_RESULT_SUCCESS)
      return r;
    return Traits::append_copy(list, to, memory_side(src, to, row_pitch, slice_pitch), signal, count, waits);
  }

  static ze_result_t append_copy_from_memory(ze_command_list_handle_t list, ze_image_handle_t dst, const void *src,
                                             const ze_image_region_t *region, ze_event_handle_t signal,
                                             uint32_t count, ze_event_handle_t *waits) {
    return append_copy_from_memory_ext(list, dst, src, region, 0, 0, signal, count, waits);
  }
};

// The dispatch-table entries above, for a driver's `implement` overloads.
template <class Traits>
void implement_images(ze_image_dditable_t &t) {
  using E = ImageEntries<Traits>;
  t.pfnGetProperties = guarded<E::get_properties>;
  t.pfnCreate = guarded<E::create>;
  t.pfnDestroy = guarded<destroy<typename Traits::Image>>;
  t.pfnGetAllocPropertiesExt = guarded<E::alloc_properties>;
}
template <class Traits>
void implement_images(ze_image_exp_dditable_t &t) {
  using E = ImageEntries<Traits>;
  t.pfnGetMemoryPropertiesExp = guarded<E::memory_properties>;
  t.pfnViewCreateExp = guarded<E::view_create>;
}
template <class Traits>
void implement_samplers(ze_sampler_dditable_t &t) {
  t.pfnCreate = guarded<ImageEntries<Traits>::sampler_create>;
  t.pfnDestroy = guarded<destroy<Sampler>>;
}
template <class Traits>
void implement_image_copies(ze_command_list_dditable_t &t) {
  using E = ImageEntries<Traits>;
  t.pfnAppendImageCopy = guarded<E::append_copy>;
  t.pfnAppendImageCopyRegion = guarded<E::append_copy_region>;
  t.pfnAppendImageCopyToMemory = guarded<E::append_copy_to_memory>;
  t.pfnAppendImageCopyFromMemory = guarded<E::append_copy_from_memory>;
  t.pfnAppendImageCopyToMemoryExt = guarded<E::append_copy_to_memory_ext>;
  t.pfnAppendImageCopyFromMemoryExt = guarded<E::append_copy_from_memory_ext>;
}

} // namespace zeal::ze
