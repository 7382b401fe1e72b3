// Contexts and USM: every allocation is recorded so that freeing an unknown pointer is an error, not a crash.
#include "adapter/core/context.hpp"
#include "adapter/core/commands.hpp"
#include "adapter/core/queue.hpp"
#include "adapter/core/usm_pool.hpp"

#include "common/log.hpp"

#include <algorithm>
#include <bit>

namespace zeal::adapter {

Context::Context(std::vector<Device *> devices, ZeContext context)
    : Object(kKind), devices_(std::move(devices)), context_(std::move(context)),
      plain_pools_(context_.get(), false), timestamp_pools_(context_.get(), true) {}

namespace {

// A device listed more than once is one device of the context, as OpenCL says of clCreateContext; the first
// place it is listed is its place.
std::vector<Device *> once_each(std::vector<Device *> devices) {
  std::vector<Device *> unique;
  for (Device *d : devices)
    if (std::find(unique.begin(), unique.end(), d) == unique.end()) unique.push_back(d);
  return unique;
}

} // namespace

Result<Context *> Context::create(std::vector<Device *> devices) {
  assert(!devices.empty());
  devices = once_each(std::move(devices));
  auto desc = ze_desc<ze_context_desc_t>();
  std::vector<ze_device_handle_t> ze_devices;
  for (Device *d : devices) ze_devices.push_back(d->ze());
  ze_context_handle_t context = nullptr;
  if (Status s = ze_check(zeContextCreateEx(devices.front()->platform().ze(), &desc,
                                            static_cast<uint32_t>(ze_devices.size()), ze_devices.data(), &context),
                          "zeContextCreateEx");
      !s.ok())
    return std::move(s).error();
  ZeContext owned(context); // owned before the next allocation, which may fail
  return new Context(std::move(devices), std::move(owned));
}

Result<Context *> Context::adopt(std::vector<Device *> devices, ze_context_handle_t context, bool owned) {
  if (context == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_HANDLE, "context adopt: the native Level Zero context is null");
  if (devices.empty())
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      "context adopt: no devices are given, and a Level Zero context cannot be asked for its own");
  for (const Device *d : devices)
    if (&d->platform() != &devices.front()->platform())
      return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                        fmt::format("context adopt: devices '{}' and '{}' belong to different platforms",
                                    devices.front()->name(), d->name()));
  auto *adopted = new Context(once_each(std::move(devices)), ZeContext(context));
  adopted->owns_context_ = owned;
  return adopted;
}

Context::~Context() {
  // Memory the application forgot is freed with the context it belongs to.
  for (auto &[ptr, allocation] : allocations_) {
    logger("zeal-adapter").warn("context released with USM pointer {} ({} bytes) still allocated", ptr,
                                allocation.size);
    (void)zeMemFree(context_.get(), ptr);
  }
  // A context made elsewhere stays for its maker (the event pools still go, after this body, with their own
  // handles).
  if (!owns_context_) (void)context_.release();
}

bool Context::has_device(const Device *device) const {
  return std::find(devices_.begin(), devices_.end(), device) != devices_.end();
}

Result<void *> Context::usm_alloc(Device *device, zeal_usm_kind_t kind, size_t size, size_t alignment, UsmPool *pool,
                                  size_t block) {
  if (size == 0) return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE, "USM allocation: size is 0");
  if (alignment != 0 && !std::has_single_bit(alignment))
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("USM allocation: alignment {} is not a power of two", alignment));
  if (kind != ZEAL_USM_KIND_HOST && device == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, "USM allocation: device and shared allocations need a device");
  if (device != nullptr && !has_device(device))
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("USM allocation: device '{}' is not in the context", device->name()));
  // Host memory is reached by every device of the context, so each device's limit applies to it.
  for (const Device *d : devices_) {
    if (device != nullptr && d != device) continue;
    if (size > d->properties().maxMemAllocSize)
      return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                        fmt::format("USM allocation: {} bytes is more than device '{}' allocates at once ({} bytes)",
                                    size, d->name(), d->properties().maxMemAllocSize));
  }
  const size_t bytes = std::max(size, block);
  auto host = ze_desc<ze_host_mem_alloc_desc_t>();
  auto dev = ze_desc<ze_device_mem_alloc_desc_t>();
  void *ptr = nullptr;
  ze_result_t r = ZE_RESULT_SUCCESS;
  const char *call = "zeMemAllocHost";
  switch (kind) {
  case ZEAL_USM_KIND_HOST: r = zeMemAllocHost(context_.get(), &host, bytes, alignment, &ptr); break;
  case ZEAL_USM_KIND_DEVICE:
    call = "zeMemAllocDevice";
    r = zeMemAllocDevice(context_.get(), &dev, bytes, alignment, device->ze(), &ptr);
    break;
  case ZEAL_USM_KIND_SHARED:
    call = "zeMemAllocShared";
    r = zeMemAllocShared(context_.get(), &dev, &host, bytes, alignment, device ? device->ze() : nullptr, &ptr);
    break;
  }
  if (Status s = ze_check(r, call, fmt::format("{} bytes", bytes)); !s.ok()) return std::move(s).error();
  try {
    std::lock_guard lock(usm_mutex_);
    allocations_.emplace(ptr, Allocation{kind, size, kind == ZEAL_USM_KIND_HOST ? nullptr : device, pool, bytes});
  } catch (const std::bad_alloc &) {
    (void)zeMemFree(context_.get(), ptr); // unrecorded memory could never be freed
    throw;
  }
  return ptr;
}

std::optional<Context::UsmAllocation> Context::usm_allocation(const void *ptr) const {
  std::lock_guard lock(usm_mutex_);
  auto it = allocations_.upper_bound(const_cast<void *>(ptr));
  if (it == allocations_.begin()) return std::nullopt;
  --it;
  if (it->second.kept || reinterpret_cast<uintptr_t>(ptr) - reinterpret_cast<uintptr_t>(it->first) >= it->second.size)
    return std::nullopt;
  return UsmAllocation{it->first, it->second.size, it->second.kind, it->second.device, it->second.pool};
}

Result<Context::UsmAllocation> Context::foreign_allocation(void *ptr, bool take) {
  if (ptr == nullptr) return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, "the native memory pointer is null");
  std::optional<UsmAllocation> whole = usm_allocation(ptr);
  const bool known = whole.has_value();
  if (!known) {
    void *base = nullptr;
    size_t size = 0;
    if (zeMemGetAddressRange(context_.get(), ptr, &base, &size) != ZE_RESULT_SUCCESS || base == nullptr)
      return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                        fmt::format("pointer {} is not memory Level Zero allocated in this context", ptr));
    auto props = ze_desc<ze_memory_allocation_properties_t>();
    ze_device_handle_t ze_device = nullptr;
    if (Status s = ze_check(zeMemGetAllocProperties(context_.get(), ptr, &props, &ze_device),
                            "zeMemGetAllocProperties", fmt::format("pointer {}", ptr));
        !s.ok())
      return std::move(s).error();
    whole = UsmAllocation{base, size,
                          props.type == ZE_MEMORY_TYPE_DEVICE   ? ZEAL_USM_KIND_DEVICE
                          : props.type == ZE_MEMORY_TYPE_SHARED ? ZEAL_USM_KIND_SHARED
                                                                : ZEAL_USM_KIND_HOST,
                          nullptr};
    for (Device *d : devices_)
      if (d->ze() == ze_device) whole->device = d;
  }
  const size_t offset = static_cast<size_t>(static_cast<uint8_t *>(ptr) - static_cast<uint8_t *>(whole->base));
  if (take && offset != 0)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("pointer {} is {} bytes into its allocation, so its ownership cannot be taken (only "
                                  "an allocation's first byte frees it)",
                                  ptr, offset));
  if (take && !known) {
    std::lock_guard lock(usm_mutex_);
    allocations_.emplace(ptr, Allocation{whole->kind, whole->size, whole->device});
  }
  return UsmAllocation{ptr, whole->size - offset, whole->kind, whole->device};
}

void Context::remember_handed_out(ze_event_handle_t event, const Event *original) {
  std::lock_guard lock(handed_out_mutex_);
  handed_out_[event] = original;
}

void Context::forget_handed_out(ze_event_handle_t event, const Event *original) {
  std::lock_guard lock(handed_out_mutex_);
  auto it = handed_out_.find(event);
  if (it != handed_out_.end() && it->second == original) handed_out_.erase(it);
}

void Context::describe_handed_out(ze_event_handle_t event, FunctionRef<void(const Event &)> describe) {
  std::lock_guard lock(handed_out_mutex_);
  auto it = handed_out_.find(event);
  if (it != handed_out_.end()) describe(*it->second);
}

void Context::add_queue(Queue *queue) {
  std::lock_guard lock(queues_mutex_);
  queues_.push_back(queue);
}

void Context::remove_queue(Queue *queue) {
  std::lock_guard lock(queues_mutex_);
  std::erase(queues_, queue);
}

Status Context::usm_free(void *ptr) {
  auto unknown = [&] {
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("pointer {} was not allocated by usmAlloc in this context", ptr));
  };
  {
    std::lock_guard lock(usm_mutex_);
    auto it = allocations_.find(ptr);
    if (it == allocations_.end() || it->second.kept) return unknown();
  }
  finish_queues();
  Allocation block{};
  {
    std::lock_guard lock(usm_mutex_);
    auto it = allocations_.find(ptr);
    if (it == allocations_.end() || it->second.kept) return unknown();
    if (it->second.pool == nullptr || !it->second.pool->keeps(it->second.block)) {
      allocations_.erase(it);
      return ze_check(zeMemFree(context_.get(), ptr), "zeMemFree", fmt::format("pointer {}", ptr));
    }
    it->second.kept = true;
    block = it->second;
  }
  // Outside the lock: the pool takes its own, and its allocations take this one.
  block.pool->keep(ptr, block.kind, block.device, block.block);
  return {};
}

void Context::finish_queues() {
  // Which commands touch an object is not known, so every queue's are waited for; their failures belong to their
  // own events.
  std::lock_guard lock(queues_mutex_);
  for (Queue *q : queues_) (void)q->finish();
}

void Context::usm_reuse(void *ptr, size_t size) {
  std::lock_guard lock(usm_mutex_);
  auto it = allocations_.find(ptr);
  if (it == allocations_.end()) return;
  it->second.kept = false;
  it->second.size = size;
}

void Context::usm_forget_pool(const UsmPool &pool, std::span<void *const> kept) {
  std::lock_guard lock(usm_mutex_);
  for (void *ptr : kept)
    if (allocations_.erase(ptr) != 0) (void)zeMemFree(context_.get(), ptr);
  for (auto &[ptr, allocation] : allocations_)
    if (allocation.pool == &pool) allocation.pool = nullptr;
}

Status Context::copy(void *dst, const void *src, size_t size) {
  if (Status s = check_copy(*this, dst, src, size); !s.ok()) return s;
  Device *device = devices_.front();
  for (const void *p : {static_cast<const void *>(dst), src})
    if (auto a = usm_allocation(p); a && a->device != nullptr) device = a->device;
  const std::string what = "a context copy on device '" + device->name() + "'";
  auto list = synchronous_list(*device, what);
  if (!list.ok()) return std::move(list).error();
  return ze_check(zeCommandListAppendMemoryCopy(list.value().get(), dst, src, size, nullptr, 0, nullptr),
                  "zeCommandListAppendMemoryCopy", what);
}

Result<ZeCommandList> Context::synchronous_list(const Device &device, const std::string &what) const {
  auto desc = ze_desc<ze_command_queue_desc_t>();
  desc.ordinal = device.compute_queue_ordinal();
  desc.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
  ze_command_list_handle_t list = nullptr;
  if (Status s = ze_check(zeCommandListCreateImmediate(ze(), device.ze(), &desc, &list),
                          "zeCommandListCreateImmediate", what);
      !s.ok())
    return std::move(s).error();
  return ZeCommandList(list);
}

} // namespace zeal::adapter
