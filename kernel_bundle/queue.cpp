// zeal::queue, zeal::event and USM allocation over the adapter's queues, events and USM.
#include "kernel_bundle/detail.hpp"

#include <fmt/format.h>

namespace zeal {
namespace detail {

QueueImpl::~QueueImpl() {
  if (handle != nullptr) {
    (void)dispatch().queueFinish(handle);
    (void)dispatch().queueRelease(handle);
  }
}

EventImpl::~EventImpl() {
  if (handle != nullptr) (void)dispatch->eventRelease(handle);
}

event wrap_event(const std::shared_ptr<QueueImpl> &q, zeal_event_handle_t handle) {
  auto e = std::make_shared<EventImpl>();
  e->dispatch = &q->dispatch();
  e->handle = handle;
  e->queue = q;
  return event(std::move(e));
}

namespace {

std::shared_ptr<QueueImpl> create_queue(std::shared_ptr<ContextImpl> ctx, DeviceImpl *dev, bool in_order) {
  ctx->expect(dev, "the queue");
  auto q = std::make_shared<QueueImpl>();
  q->context = std::move(ctx);
  q->device = dev;
  uint32_t flags = in_order ? ZEAL_QUEUE_FLAG_IN_ORDER : ZEAL_QUEUE_FLAG_OUT_OF_ORDER;
  check(q->dispatch(), q->dispatch().queueCreate(q->context->handle, dev->handle, flags, &q->handle));
  return q;
}

void *usm_alloc(const queue &q, zeal_usm_kind_t kind, size_t bytes, size_t alignment) {
  const auto &impl = q.impl();
  void *ptr = nullptr;
  zeal_device_handle_t dev = kind == ZEAL_USM_KIND_HOST ? nullptr : impl->device->handle;
  check(impl->dispatch(), impl->dispatch().usmAlloc(impl->context->handle, dev, kind, bytes, alignment, &ptr));
  return ptr;
}

} // namespace
} // namespace detail

queue::queue() : queue(device()) {}
queue::queue(const device &dev) : queue(context(detail::default_context(dev.impl())), dev, false) {}
queue::queue(const device &dev, property::queue::in_order)
    : queue(context(detail::default_context(dev.impl())), dev, true) {}
queue::queue(const context &ctx, const device &dev, bool in_order)
    : impl_(detail::create_queue(ctx.impl(), dev.impl(), in_order)) {}

device queue::get_device() const { return device(impl_->device); }
context queue::get_context() const { return context(impl_->context); }

kernel queue::get_kernel(const kernel_id &id) const {
  return kernel(detail::get_kernel(impl_->context, impl_->device, id.get_name()));
}

event queue::submit(const kernel &k, const zeal_launch_desc_t &desc) {
  const detail::KernelImpl &kernel = *k.impl();
  if (kernel.context != impl_->context)
    throw exception(errc::invalid, fmt::format("kernel '{}' was built in another context than the queue's (devices "
                                               "{}): a kernel runs on queues of its own context",
                                               kernel.name, describe_devices(impl_->context->devices)));
  zeal_kernel_handle_t handle = kernel.for_device(impl_->device).handle;
  zeal_event_handle_t e = nullptr;
  detail::check(impl_->dispatch(),
                impl_->dispatch().enqueueKernelLaunch(impl_->handle, handle, &desc, 0, nullptr, &e));
  return detail::wrap_event(impl_, e);
}

event queue::memcpy(void *dst, const void *src, size_t bytes) {
  zeal_event_handle_t e = nullptr;
  detail::check(impl_->dispatch(), impl_->dispatch().enqueueMemcpy(impl_->handle, dst, src, bytes, 0, nullptr, &e));
  return detail::wrap_event(impl_, e);
}

event queue::fill(void *ptr, const void *pattern, size_t pattern_size, size_t bytes) {
  zeal_event_handle_t e = nullptr;
  detail::check(impl_->dispatch(),
                impl_->dispatch().enqueueFill(impl_->handle, ptr, pattern, pattern_size, bytes, 0, nullptr, &e));
  return detail::wrap_event(impl_, e);
}

void queue::wait() { detail::check(impl_->dispatch(), impl_->dispatch().queueFinish(impl_->handle)); }

void event::wait() {
  if (!impl_) return;
  detail::check(*impl_->dispatch, impl_->dispatch->eventWait(1, &impl_->handle));
}

bool event::is_complete() const {
  if (!impl_) return true;
  zeal_event_status_t status{};
  detail::check(*impl_->dispatch, impl_->dispatch->eventGetInfo(impl_->handle, ZEAL_EVENT_INFO_STATUS,
                                                                sizeof(status), &status, nullptr));
  return status == ZEAL_EVENT_STATUS_COMPLETE;
}

void *malloc_device(size_t bytes, const queue &q, size_t alignment) {
  return detail::usm_alloc(q, ZEAL_USM_KIND_DEVICE, bytes, alignment);
}
void *malloc_host(size_t bytes, const queue &q, size_t alignment) {
  return detail::usm_alloc(q, ZEAL_USM_KIND_HOST, bytes, alignment);
}
void *malloc_shared(size_t bytes, const queue &q, size_t alignment) {
  return detail::usm_alloc(q, ZEAL_USM_KIND_SHARED, bytes, alignment);
}

void free(void *ptr, const queue &q) {
  if (ptr == nullptr) return;
  const auto &impl = q.impl();
  detail::check(impl->dispatch(), impl->dispatch().usmFree(impl->context->handle, ptr));
}

} // namespace zeal
