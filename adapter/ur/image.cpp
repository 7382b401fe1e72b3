// UR entry points of images: create (also from a native handle), image info, the read, write and copy commands,
// and images as kernel arguments, over the Image object and the Queue's image commands.
#include "adapter/core/image.hpp"
#include "adapter/core/image_format.hpp"
#include "adapter/core/queue.hpp"
#include "adapter/ur/commands.hpp"

#include <algorithm>
#include <iterator>

namespace zeal::adapter::ur {
namespace {

// zeal's channel order of each UR order, indexed by ur_image_channel_order_t (SRGBA has none: Level Zero has no
// sRGB format type).
constexpr zeal_image_channel_order_t kNoOrder = static_cast<zeal_image_channel_order_t>(0);
constexpr zeal_image_channel_order_t kOrders[] = {
    ZEAL_IMAGE_CHANNEL_ORDER_A,         ZEAL_IMAGE_CHANNEL_ORDER_R,         ZEAL_IMAGE_CHANNEL_ORDER_RG,
    ZEAL_IMAGE_CHANNEL_ORDER_RA,        ZEAL_IMAGE_CHANNEL_ORDER_RGB,       ZEAL_IMAGE_CHANNEL_ORDER_RGBA,
    ZEAL_IMAGE_CHANNEL_ORDER_BGRA,      ZEAL_IMAGE_CHANNEL_ORDER_ARGB,      ZEAL_IMAGE_CHANNEL_ORDER_ABGR,
    ZEAL_IMAGE_CHANNEL_ORDER_INTENSITY, ZEAL_IMAGE_CHANNEL_ORDER_LUMINANCE, ZEAL_IMAGE_CHANNEL_ORDER_RX,
    ZEAL_IMAGE_CHANNEL_ORDER_RGX,       ZEAL_IMAGE_CHANNEL_ORDER_RGBX,      kNoOrder};
// zeal's image type of each UR memory type, indexed by ur_mem_type_t up to IMAGE1D_ARRAY.
constexpr zeal_image_type_t kTypes[] = {ZEAL_IMAGE_TYPE_2D, ZEAL_IMAGE_TYPE_3D, ZEAL_IMAGE_TYPE_2D_ARRAY,
                                        ZEAL_IMAGE_TYPE_1D, ZEAL_IMAGE_TYPE_1D_ARRAY};

// UR's channel types are zeal's, one lower.
constexpr int32_t kTypeOffset =
    int32_t{ZEAL_IMAGE_CHANNEL_TYPE_SNORM_INT8} - int32_t{UR_IMAGE_CHANNEL_TYPE_SNORM_INT8};

// The UR face's own checks of an image's format and description (`entry` names the caller), then the zeal
// description; the format's pairs and the extents are the object model's to check.
Outcome to_zeal(const char *entry, const ur_image_format_t *format, const ur_image_desc_t *desc,
                zeal_image_desc_t &out) {
  if (format == nullptr || desc == nullptr)
    return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER,
                fmt::format("{}: {} is null", entry, format == nullptr ? "pImageFormat" : "pImageDesc"));
  auto bad_desc = [&](std::string why) {
    return fail(UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR, fmt::format("{}: {}", entry, why));
  };
  if (desc->stype != UR_STRUCTURE_TYPE_IMAGE_DESC)
    return bad_desc(fmt::format("pImageDesc's stype is {}, not UR_STRUCTURE_TYPE_IMAGE_DESC", abi_value(desc->stype)));
  const int32_t type = abi_value(desc->type);
  if (type < 0 || type >= static_cast<int32_t>(std::size(kTypes)))
    return bad_desc(fmt::format("memory type {} is not an image type UR's images take (IMAGE2D to IMAGE1D_ARRAY)", type));
  if (desc->numMipLevel != 0 || desc->numSamples != 0)
    return bad_desc(fmt::format("numMipLevel is {} and numSamples {}; both must be 0", desc->numMipLevel,
                                desc->numSamples));
  const int32_t order = abi_value(format->channelOrder);
  const int32_t channel_type = abi_value(format->channelType);
  if (order < 0 || order >= static_cast<int32_t>(std::size(kOrders)) || channel_type < 0 ||
      channel_type > UR_IMAGE_CHANNEL_TYPE_FLOAT)
    return bad_desc(fmt::format("channel order {} or channel type {} is not UR's", order, channel_type));
  if (kOrders[order] == kNoOrder)
    return fail(UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT,
                fmt::format("{}: sRGBA images are not supported (Level Zero has no sRGB format type)", entry));
  out = zeal_image_desc_t{kTypes[type],
                          kOrders[order],
                          static_cast<zeal_image_channel_type_t>(channel_type + kTypeOffset),
                          desc->width,
                          desc->height,
                          desc->depth,
                          desc->arraySize};
  return {};
}

ur_image_format_t ur_format_of(const zeal_image_desc_t &desc) {
  const auto *order = std::find(std::begin(kOrders), std::end(kOrders), desc.channel_order);
  return {static_cast<ur_image_channel_order_t>(order - std::begin(kOrders)),
          static_cast<ur_image_channel_type_t>(desc.channel_type - kTypeOffset)};
}

constexpr ur_mem_flags_t kHostPointerFlags = UR_MEM_FLAG_USE_HOST_POINTER | UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER;

// USE_HOST_POINTER copies the host's pixels in as ALLOC_COPY_HOST_POINTER does: a Level Zero image keeps its own.
ur_result_t image_create(ur_context_handle_t context_handle, ur_mem_flags_t flags, const ur_image_format_t *format,
                         const ur_image_desc_t *desc, void *host, ur_mem_handle_t *out) {
  constexpr const char *entry = "urMemImageCreate";
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(context_handle, context); !o.ok()) return o;
    if ((flags & UR_MEM_FLAGS_MASK) != 0)
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("{}: flags {:#x} has bits UR does not define", entry, flags));
    if (out == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: phMem is null", entry));
    zeal_image_desc_t zeal_desc{};
    if (Outcome o = to_zeal(entry, format, desc, zeal_desc); !o.ok()) return o;
    if (host == nullptr && (desc->rowPitch != 0 || desc->slicePitch != 0))
      return fail(UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                  fmt::format("{}: rowPitch {} and slicePitch {} must be 0 without pHost", entry, desc->rowPitch,
                              desc->slicePitch));
    if ((host != nullptr) != ((flags & kHostPointerFlags) != 0))
      return fail(UR_RESULT_ERROR_INVALID_HOST_PTR,
                  host == nullptr
                      ? fmt::format("{}: USE_HOST_POINTER or ALLOC_COPY_HOST_POINTER without pHost", entry)
                      : fmt::format("{}: pHost is given without USE_HOST_POINTER or ALLOC_COPY_HOST_POINTER", entry));
    const bool kernel_writes = (flags & UR_MEM_FLAG_READ_ONLY) == 0;
    auto image = Image::create(*context, zeal_desc, kernel_writes, host, {desc->rowPitch, desc->slicePitch});
    if (!image.ok())
      return Outcome(std::move(image).error())
          .remap(UR_RESULT_ERROR_INVALID_SIZE, UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    *out = to_ur<ur_mem_handle_t>(image.value());
    return {};
  });
}

// A native handle is a Level Zero image of the context's first device, which the format and description describe.
ur_result_t image_from_native(ur_native_handle_t native, ur_context_handle_t context_handle,
                              const ur_image_format_t *format, const ur_image_desc_t *desc,
                              const ur_mem_native_properties_t *properties, ur_mem_handle_t *out) {
  constexpr const char *entry = "urMemImageCreateWithNativeHandle";
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(context_handle, context); !o.ok()) return o;
    if (out == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: phMem is null", entry));
    zeal_image_desc_t zeal_desc{};
    if (Outcome o = to_zeal(entry, format, desc, zeal_desc); !o.ok()) return o;
    const bool owned = properties != nullptr && properties->isNativeHandleOwned;
    auto image = Image::adopt(*context, reinterpret_cast<ze_image_handle_t>(native), zeal_desc, owned);
    if (!image.ok()) return std::move(image).error();
    *out = to_ur<ur_mem_handle_t>(image.value());
    return {};
  });
}

// OpenCL's answers: a height for 2-D and 3-D images, a depth for 3-D ones, an array size for arrays, 0 otherwise.
using R = Result<InfoValue>;
size_t height_of(const Image &i) {
  const auto type = i.desc().type;
  return type == ZEAL_IMAGE_TYPE_1D || type == ZEAL_IMAGE_TYPE_1D_ARRAY ? 0 : i.desc().height;
}
const UrInfoRow<Image, ur_image_info_t> kImageInfo[] = {
    {UR_IMAGE_INFO_FORMAT, "FORMAT", [](const Image &i) -> R { return info_of(ur_format_of(i.desc())); }},
    {UR_IMAGE_INFO_ELEMENT_SIZE, "ELEMENT_SIZE", [](const Image &i) -> R { return info_of<size_t>(i.pixel_bytes()); }},
    {UR_IMAGE_INFO_ROW_PITCH, "ROW_PITCH", [](const Image &i) -> R { return info_of<size_t>(i.row_pitch()); }},
    {UR_IMAGE_INFO_SLICE_PITCH, "SLICE_PITCH", [](const Image &i) -> R { return info_of<size_t>(i.slice_pitch()); }},
    {UR_IMAGE_INFO_WIDTH, "WIDTH", [](const Image &i) -> R { return info_of<size_t>(i.desc().width); }},
    {UR_IMAGE_INFO_HEIGHT, "HEIGHT", [](const Image &i) -> R { return info_of<size_t>(height_of(i)); }},
    {UR_IMAGE_INFO_DEPTH, "DEPTH",
     [](const Image &i) -> R { return info_of<size_t>(i.desc().type == ZEAL_IMAGE_TYPE_3D ? i.desc().depth : 0); }},
    {UR_IMAGE_INFO_ARRAY_SIZE, "ARRAY_SIZE",
     [](const Image &i) -> R {
       const auto type = i.desc().type;
       const bool array = type == ZEAL_IMAGE_TYPE_1D_ARRAY || type == ZEAL_IMAGE_TYPE_2D_ARRAY;
       return info_of<size_t>(array ? i.desc().array_size : 0);
     }},
    {UR_IMAGE_INFO_NUM_MIP_LEVELS, "NUM_MIP_LEVELS", [](const Image &) -> R { return info_of<uint32_t>(0); }},
    {UR_IMAGE_INFO_NUM_SAMPLES, "NUM_SAMPLES", [](const Image &) -> R { return info_of<uint32_t>(0); }},
};

// A command on an image: the queue and image handles checked, then enqueue_command with the image.
template <class Command>
Outcome on_image(ur_queue_handle_t queue_handle, ur_mem_handle_t image_handle, uint32_t num_wait,
                 const ur_event_handle_t *wait, ur_event_handle_t *event, bool blocking, Command &&command) {
  Queue *queue = nullptr;
  Image *image = nullptr;
  if (Outcome o = check_handles(queue_handle, queue, image_handle, image); !o.ok()) return o;
  return enqueue_command(*queue, num_wait, wait, event, blocking,
                         [&](Queue &q, std::span<Event *const> w) { return command(q, *image, w); });
}

zeal_image_region_t region_of(ur_rect_offset_t origin, ur_rect_region_t region) {
  return {{origin.x, origin.y, origin.z}, {region.width, region.height, region.depth}};
}

// urEnqueueMemImageRead (kToHost) and urEnqueueMemImageWrite: one signature, so one entry point.
template <bool kToHost>
ur_result_t image_host_copy(ur_queue_handle_t queue, ur_mem_handle_t image, bool blocking, ur_rect_offset_t origin,
                            ur_rect_region_t region, size_t row_pitch, size_t slice_pitch, void *host,
                            uint32_t num_wait, const ur_event_handle_t *wait, ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    if (host == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER,
                  kToHost ? "urEnqueueMemImageRead: pDst is null" : "urEnqueueMemImageWrite: pSrc is null");
    return on_image(queue, image, num_wait, wait, event, blocking,
                    [&](Queue &q, Image &i, std::span<Event *const> w) {
                      return q.image_host_copy(i, region_of(origin, region), host,
                                               {row_pitch, slice_pitch}, kToHost, w);
                    });
  });
}

ur_result_t image_copy(ur_queue_handle_t queue, ur_mem_handle_t src_handle, ur_mem_handle_t dst_handle,
                       ur_rect_offset_t src_origin, ur_rect_offset_t dst_origin, ur_rect_region_t region,
                       uint32_t num_wait, const ur_event_handle_t *wait, ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    Image *dst = nullptr;
    if (Outcome o = check_handle(dst_handle, dst); !o.ok()) return o;
    return on_image(queue, src_handle, num_wait, wait, event, false,
                    [&](Queue &q, Image &src, std::span<Event *const> w) {
                      return q.image_copy(src, *dst, region_of(src_origin, region),
                                          {dst_origin.x, dst_origin.y, dst_origin.z}, w);
                    });
  });
}

} // namespace

void implement_images(ur_mem_dditable_t &t) {
  t.pfnImageCreate = image_create;
  t.pfnImageCreateWithNativeHandle = image_from_native;
  t.pfnImageGetInfo = info_entry<Image, kImageInfo, UR_IMAGE_INFO_NUM_SAMPLES>;
}

void implement_image_commands(ur_enqueue_dditable_t &t) {
  t.pfnMemImageRead = image_host_copy<true>;
  t.pfnMemImageWrite = image_host_copy<false>;
  t.pfnMemImageCopy = image_copy;
}

} // namespace zeal::adapter::ur
