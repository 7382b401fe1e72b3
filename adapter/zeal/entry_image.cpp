// C ABI entry points of images and samplers (0.5): create, retain, release, and the image read, write and copy
// commands.
#include "adapter/core/image.hpp"
#include "adapter/core/sampler.hpp"
#include "adapter/zeal/entry_points.hpp"

namespace zeal::adapter {
namespace {

zeal_result_t ZEAL_APICALL image_create(zeal_context_handle_t context, const zeal_image_desc_t *desc,
                                        zeal_image_handle_t *image) {
  return run_entry(
      "imageCreate", [&] { return fmt::format("context={}", fmt::ptr(context)); },
      [&]() -> Status {
        auto c = from_handle<Context>(context, "context");
        if (!c.ok()) return std::move(c).error();
        if (Status s = require(desc != nullptr && image != nullptr, "imageCreate: desc or image is null"); !s.ok())
          return s;
        auto made = Image::create(*c.value(), *desc, true);
        if (!made.ok()) return std::move(made).error();
        *image = to_handle<Image, zeal_image_handle_t>(made.value());
        return {};
      });
}

zeal_result_t ZEAL_APICALL sampler_create(zeal_context_handle_t context, const zeal_sampler_desc_t *desc,
                                          zeal_sampler_handle_t *sampler) {
  return run_entry(
      "samplerCreate", [&] { return fmt::format("context={}", fmt::ptr(context)); },
      [&]() -> Status {
        auto c = from_handle<Context>(context, "context");
        if (!c.ok()) return std::move(c).error();
        if (Status s = require(desc != nullptr && sampler != nullptr, "samplerCreate: desc or sampler is null");
            !s.ok())
          return s;
        auto made = Sampler::create(*c.value(), *desc);
        if (!made.ok()) return std::move(made).error();
        *sampler = to_handle<Sampler, zeal_sampler_handle_t>(made.value());
        return {};
      });
}

// enqueueImageRead (to_host) and enqueueImageWrite.
zeal_result_t image_host_copy(const char *name, bool to_host, zeal_queue_handle_t queue, zeal_image_handle_t image,
                              const zeal_image_region_t *region, size_t row_pitch, size_t slice_pitch, void *host,
                              uint32_t num_wait, const zeal_event_handle_t *wait, zeal_event_handle_t *event) {
  return run_entry(
      name,
      [&] {
        return fmt::format("queue={}, image={}, row_pitch={}, slice_pitch={}, host={}, num_wait={}", fmt::ptr(queue),
                           fmt::ptr(image), row_pitch, slice_pitch, host, num_wait);
      },
      [&]() -> Status {
        auto i = from_handle<Image>(image, "image");
        if (!i.ok()) return std::move(i).error();
        if (Status s = require(region != nullptr, "image read or write: the region is null"); !s.ok()) return s;
        return enqueue(queue, num_wait, wait, event, [&](Queue &q, std::span<Event *const> w) {
          return q.image_host_copy(*i.value(), *region, host, {row_pitch, slice_pitch}, to_host, w);
        });
      });
}

zeal_result_t ZEAL_APICALL image_copy(zeal_queue_handle_t queue, zeal_image_handle_t src, zeal_image_handle_t dst,
                                      const zeal_image_region_t *region, const size_t dst_origin[3], uint32_t num_wait,
                                      const zeal_event_handle_t *wait, zeal_event_handle_t *event) {
  return run_entry(
      "enqueueImageCopy",
      [&] {
        return fmt::format("queue={}, src={}, dst={}, num_wait={}", fmt::ptr(queue), fmt::ptr(src), fmt::ptr(dst),
                           num_wait);
      },
      [&]() -> Status {
        auto from = from_handle<Image>(src, "source image");
        if (!from.ok()) return std::move(from).error();
        auto to = from_handle<Image>(dst, "destination image");
        if (!to.ok()) return std::move(to).error();
        if (Status s = require(region != nullptr && dst_origin != nullptr,
                               "enqueueImageCopy: the region or the destination origin is null");
            !s.ok())
          return s;
        return enqueue(queue, num_wait, wait, event, [&](Queue &q, std::span<Event *const> w) {
          return q.image_copy(*from.value(), *to.value(), *region, {dst_origin[0], dst_origin[1], dst_origin[2]}, w);
        });
      });
}

} // namespace

void fill_image_entries(zeal_adapter_dispatch_t &t) {
  t.imageCreate = image_create;
  t.imageRetain = [](zeal_image_handle_t i) { return retain_or_release<Image>("imageRetain", "image", i, true); };
  t.imageRelease = [](zeal_image_handle_t i) { return retain_or_release<Image>("imageRelease", "image", i, false); };
  t.enqueueImageWrite = [](zeal_queue_handle_t queue, zeal_image_handle_t image, const zeal_image_region_t *region,
                           size_t row_pitch, size_t slice_pitch, const void *src, uint32_t num_wait,
                           const zeal_event_handle_t *wait, zeal_event_handle_t *event) {
    return image_host_copy("enqueueImageWrite", false, queue, image, region, row_pitch, slice_pitch,
                           const_cast<void *>(src), num_wait, wait, event);
  };
  t.enqueueImageRead = [](zeal_queue_handle_t queue, zeal_image_handle_t image, const zeal_image_region_t *region,
                          size_t row_pitch, size_t slice_pitch, void *dst, uint32_t num_wait,
                          const zeal_event_handle_t *wait, zeal_event_handle_t *event) {
    return image_host_copy("enqueueImageRead", true, queue, image, region, row_pitch, slice_pitch, dst, num_wait,
                           wait, event);
  };
  t.enqueueImageCopy = image_copy;
  t.samplerCreate = sampler_create;
  t.samplerRetain = [](zeal_sampler_handle_t s) {
    return retain_or_release<Sampler>("samplerRetain", "sampler", s, true);
  };
  t.samplerRelease = [](zeal_sampler_handle_t s) {
    return retain_or_release<Sampler>("samplerRelease", "sampler", s, false);
  };
}

} // namespace zeal::adapter
