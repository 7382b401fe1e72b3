// A zeal buffer: bytes of USM a kernel reaches through a pointer, with views (sub-buffers) and host maps.
#pragma once

#include "adapter/core/event.hpp"

#include <mutex>
#include <span>
#include <utility>
#include <vector>

namespace zeal::adapter {

class Queue;

class Buffer : public Object {
public:
  static constexpr Kind kKind = Kind::Buffer;

  // What the buffer does with a host pointer it is given: nothing, copy it in, or use it as the place host
  // maps show (copied in at creation, to it at each map, back from it at each unmap of a written map).
  enum class Host { None, Copy, Use };
  // What kernels may do with the bytes. Not enforced on kernels (a pointer carries no access), but a view may
  // not widen its buffer's.
  enum class Access { ReadWrite, ReadOnly, WriteOnly };

  // `size` bytes of shared USM of the context's first device (a kernel reads it through a pointer, the host
  // maps it in place), or, for Host::Use where every device reaches the host's own memory, the host's bytes
  // themselves. `host` must be given exactly when `use` is not None.
  static Result<Buffer *> create(Context &context, size_t size, void *host, Host use,
                                 Access access = Access::ReadWrite);
  // A buffer over USM made elsewhere (a native handle): from `memory` to the end of its allocation in the
  // context. `owned`: the context takes the allocation and the buffer frees it; otherwise its maker does.
  static Result<Buffer *> adopt(Context &context, void *memory, bool owned);
  // A view of `size` bytes at `offset` of a buffer that is not itself a view; `access` no wider than its own.
  static Result<Buffer *> view(Buffer &parent, size_t offset, size_t size, Access access);
  ~Buffer() override;

  Context &context() const { return *context_; }
  size_t size() const { return size_; }
  uint8_t *data() const { return base_; }
  const Buffer *parent() const { return parent_.get(); }
  // The address of `size` bytes at `offset`, or INVALID_SIZE naming the buffer and its size.
  Result<uint8_t *> range(size_t offset, size_t size, const char *what) const;

  // The host address of `size` bytes at `offset` once the returned event completes. `read`: the host sees the
  // current bytes (a host-pointer buffer copies them there first); `write`: what the host writes reaches the
  // buffer at unmap.
  Result<std::pair<void *, Ref<Event>>> map(Queue &queue, size_t offset, size_t size, bool read, bool write,
                                            std::span<Event *const> wait);
  // Ends a map by its address: what a written map of a host-pointer buffer changed goes back to the buffer.
  Result<Ref<Event>> unmap(Queue &queue, void *mapped, std::span<Event *const> wait);

private:
  Buffer(Context &context, Buffer *parent, uint8_t *base, size_t size, uint8_t *host, Access access)
      : Object(kKind), context_(&context), parent_(parent), base_(base), size_(size), host_(host), access_(access) {}

  struct Mapping {
    void *address;
    size_t offset;
    size_t size;
    bool written;
  };

  Ref<Context> context_;
  Ref<Buffer> parent_; // a view keeps its buffer alive
  uint8_t *base_;      // owned unless this is a view or owns_memory_ is false
  bool owns_memory_ = true;
  size_t size_;
  uint8_t *host_;      // Host::Use: the host bytes of this buffer (of this view)
  Access access_;
  std::mutex maps_mutex_;
  std::vector<Mapping> maps_;
};

} // namespace zeal::adapter
