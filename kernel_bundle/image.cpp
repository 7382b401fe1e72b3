// zeal::image and zeal::sampler over the adapter's images and samplers, and the queue's image copies.
#include "kernel_bundle/detail.hpp"

namespace zeal {
namespace detail {

ImageImpl::~ImageImpl() {
  if (handle != nullptr) (void)context->dispatch().imageRelease(handle);
}

SamplerImpl::~SamplerImpl() {
  if (handle != nullptr) (void)context->dispatch().samplerRelease(handle);
}

namespace {

// The whole image as a region: its extents in pixels, a 1-D array's layers in y and a 2-D array's in z.
zeal_image_region_t whole(const zeal_image_desc_t &d) {
  zeal_image_region_t r{{0, 0, 0}, {d.width, 1, 1}};
  switch (d.type) {
  case ZEAL_IMAGE_TYPE_1D_ARRAY: r.size[1] = d.array_size; break;
  case ZEAL_IMAGE_TYPE_2D: r.size[1] = d.height; break;
  case ZEAL_IMAGE_TYPE_2D_ARRAY:
    r.size[1] = d.height;
    r.size[2] = d.array_size;
    break;
  case ZEAL_IMAGE_TYPE_3D:
    r.size[1] = d.height;
    r.size[2] = d.depth;
    break;
  default: break;
  }
  return r;
}

} // namespace
} // namespace detail

image::image(const context &ctx, const zeal_image_desc_t &desc) : impl_(std::make_shared<detail::ImageImpl>()) {
  impl_->context = ctx.impl();
  impl_->desc = desc;
  detail::check(impl_->context->dispatch(),
                impl_->context->dispatch().imageCreate(impl_->context->handle, &desc, &impl_->handle));
}

const zeal_image_desc_t &image::desc() const { return impl_->desc; }
zeal_image_handle_t image::native_handle() const { return impl_->handle; }

sampler::sampler(const context &ctx, const zeal_sampler_desc_t &desc)
    : impl_(std::make_shared<detail::SamplerImpl>()) {
  impl_->context = ctx.impl();
  detail::check(impl_->context->dispatch(),
                impl_->context->dispatch().samplerCreate(impl_->context->handle, &desc, &impl_->handle));
}

zeal_sampler_handle_t sampler::native_handle() const { return impl_->handle; }

event queue::copy_to_image(const image &dst, const void *src) {
  const zeal_image_region_t region = detail::whole(dst.desc());
  zeal_event_handle_t e = nullptr;
  detail::check(impl_->dispatch(), impl_->dispatch().enqueueImageWrite(impl_->handle, dst.native_handle(), &region, 0,
                                                                       0, src, 0, nullptr, &e));
  return detail::wrap_event(impl_, e);
}

event queue::copy_from_image(void *dst, const image &src) {
  const zeal_image_region_t region = detail::whole(src.desc());
  zeal_event_handle_t e = nullptr;
  detail::check(impl_->dispatch(), impl_->dispatch().enqueueImageRead(impl_->handle, src.native_handle(), &region, 0,
                                                                      0, dst, 0, nullptr, &e));
  return detail::wrap_event(impl_, e);
}

} // namespace zeal
