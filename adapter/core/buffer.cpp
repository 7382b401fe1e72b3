// Buffers over shared USM: a kernel gets the address, the host maps in place, views share their buffer's bytes.
#include "adapter/core/buffer.hpp"
#include "adapter/core/queue.hpp"

#include <algorithm>
#include <cstring>

namespace zeal::adapter {

namespace {
// The largest OpenCL C type (long16) is 128 bytes: any view whose offset is a multiple of it stays aligned for
// every type, which is what a device's MEM_BASE_ADDR_ALIGN promises.
constexpr size_t kBufferAlignment = 128;
} // namespace

Result<Buffer *> Buffer::create(Context &context, size_t size, void *host, Host use, Access access) {
  if (size == 0) return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE, "buffer create: size is 0");
  if ((use == Host::None) != (host == nullptr))
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      host == nullptr ? "buffer create: the buffer is to copy or use a host pointer, but it is null"
                                      : "buffer create: a host pointer is given, but the buffer is not to copy or use it");
  // Where every device of the context reaches the host's own memory (shared system allocations, as the CPU
  // driver's devices do), a buffer that uses a host pointer is the host's bytes: no copy, and the host sees what
  // kernels write, as OpenCL's USE_HOST_PTR means.
  if (use == Host::Use && std::all_of(context.devices().begin(), context.devices().end(), [](const Device *d) {
        return (d->memory_access().sharedSystemAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_RW) != 0;
      })) {
    auto *buffer = new Buffer(context, nullptr, static_cast<uint8_t *>(host), size, nullptr, access);
    buffer->owns_memory_ = false;
    return buffer;
  }
  // Shared memory of the first device: a context of several devices would need a copy per device, which zeal
  // does not keep (its contexts hold one device).
  auto memory = context.usm_alloc(context.devices().front(), ZEAL_USM_KIND_SHARED, size, kBufferAlignment);
  if (!memory.ok()) return std::move(memory).error();
  auto *base = static_cast<uint8_t *>(memory.value());
  if (host != nullptr) std::memcpy(base, host, size); // nothing can use the memory yet
  return new Buffer(context, nullptr, base, size, use == Host::Use ? static_cast<uint8_t *>(host) : nullptr, access);
}

Result<Buffer *> Buffer::adopt(Context &context, void *memory, bool owned) {
  auto allocation = context.foreign_allocation(memory, owned);
  if (!allocation.ok()) {
    Error e = std::move(allocation).error();
    e.message = "buffer from a native handle: " + e.message;
    return e;
  }
  auto *buffer = new Buffer(context, nullptr, static_cast<uint8_t *>(memory), allocation.value().size, nullptr,
                            Access::ReadWrite);
  buffer->owns_memory_ = owned;
  return buffer;
}

Result<Buffer *> Buffer::view(Buffer &parent, size_t offset, size_t size, Access access) {
  // A handle of the wrong kind of buffer, so INVALID_HANDLE.
  if (parent.parent_)
    return make_error(ZEAL_RESULT_ERROR_INVALID_HANDLE,
                      "sub-buffer create: the buffer is itself a sub-buffer, and sub-buffers of sub-buffers are not "
                      "allowed");
  if (size == 0) return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE, "sub-buffer create: size is 0");
  if (parent.access_ != Access::ReadWrite && access != parent.access_)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("sub-buffer create: the buffer is {}, so a sub-buffer of it cannot be {}",
                                  parent.access_ == Access::ReadOnly ? "read-only" : "write-only",
                                  access == Access::ReadWrite  ? "read-write"
                                  : access == Access::ReadOnly ? "read-only"
                                                               : "write-only"));
  auto start = parent.range(offset, size, "sub-buffer create");
  if (!start.ok()) return std::move(start).error();
  return new Buffer(*parent.context_, &parent, start.value(), size,
                    parent.host_ != nullptr ? parent.host_ + offset : nullptr, access);
}

Buffer::~Buffer() {
  // Freeing waits for the context's queues, so no command still uses the memory.
  if (!parent_ && owns_memory_) (void)context_->usm_free(base_);
}

Result<uint8_t *> Buffer::range(size_t offset, size_t size, const char *what) const {
  if (offset > size_ || size > size_ - offset)
    return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                      fmt::format("{}: {} bytes at offset {} do not fit in a buffer of {} bytes", what, size, offset,
                                  size_));
  return base_ + offset;
}

Result<std::pair<void *, Ref<Event>>> Buffer::map(Queue &queue, size_t offset, size_t size, bool read,
                                                  bool write, std::span<Event *const> wait) {
  auto device_bytes = range(offset, size, "buffer map");
  if (!device_bytes.ok()) return std::move(device_bytes).error();
  void *address = host_ != nullptr ? static_cast<void *>(host_ + offset) : device_bytes.value();
  auto event = host_ != nullptr && read ? queue.copy(address, device_bytes.value(), size, wait, Command::Map)
                                        : queue.barrier(Command::Map, wait);
  if (!event.ok()) return std::move(event).error();
  std::lock_guard lock(maps_mutex_);
  maps_.push_back(Mapping{address, offset, size, write});
  return std::pair<void *, Ref<Event>>{address, std::move(event).value()};
}

Result<Ref<Event>> Buffer::unmap(Queue &queue, void *mapped, std::span<Event *const> wait) {
  Mapping mapping{};
  {
    std::lock_guard lock(maps_mutex_);
    auto it = std::find_if(maps_.begin(), maps_.end(), [&](const Mapping &m) { return m.address == mapped; });
    if (it == maps_.end())
      return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                        fmt::format("buffer unmap: {} is not the address of a map of this buffer", mapped));
    mapping = *it;
    maps_.erase(it);
  }
  if (host_ != nullptr && mapping.written)
    return queue.copy(base_ + mapping.offset, host_ + mapping.offset, mapping.size, wait, Command::Unmap);
  return queue.barrier(Command::Unmap, wait);
}

} // namespace zeal::adapter
