// UR entry points of buffers: create, sub-buffers, and the commands that read, write, copy, fill and map them, over
// the Buffer object and the Queue's commands; and what every memory object answers, a buffer or an image (info,
// retain and release, native handles, kernel arguments).
#include "adapter/core/buffer.hpp"
#include "adapter/core/image.hpp"
#include "adapter/core/queue.hpp"
#include "adapter/ur/commands.hpp"
#include "adapter/ur/capture.hpp"

#include <bit>

namespace zeal::adapter::ur {
namespace {

constexpr ur_mem_flags_t kHostPointerFlags = UR_MEM_FLAG_USE_HOST_POINTER | UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER;

// READ_WRITE is the default when neither READ_ONLY nor WRITE_ONLY is given.
Buffer::Access access_of(ur_mem_flags_t flags) {
  if ((flags & UR_MEM_FLAG_READ_ONLY) != 0) return Buffer::Access::ReadOnly;
  if ((flags & UR_MEM_FLAG_WRITE_ONLY) != 0) return Buffer::Access::WriteOnly;
  return Buffer::Access::ReadWrite;
}

ur_result_t buffer_create(ur_context_handle_t context_handle, ur_mem_flags_t flags, size_t size,
                          const ur_buffer_properties_t *properties, ur_mem_handle_t *out) {
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(context_handle, context); !o.ok()) return o;
    if (out == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urMemBufferCreate: phBuffer is null");
    if ((flags & UR_MEM_FLAGS_MASK) != 0)
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("urMemBufferCreate: flags {:#x} has bits UR does not define", flags));
    if (size == 0) return fail(UR_RESULT_ERROR_INVALID_BUFFER_SIZE, "urMemBufferCreate: size is 0");
    void *host = properties != nullptr ? properties->pHost : nullptr;
    if ((host != nullptr) != ((flags & kHostPointerFlags) != 0))
      return fail(UR_RESULT_ERROR_INVALID_HOST_PTR,
                  host == nullptr ? "urMemBufferCreate: USE_HOST_POINTER or ALLOC_COPY_HOST_POINTER without pHost"
                                  : "urMemBufferCreate: pHost is given without USE_HOST_POINTER or "
                                    "ALLOC_COPY_HOST_POINTER");
    const Buffer::Host use = (flags & UR_MEM_FLAG_USE_HOST_POINTER) != 0 ? Buffer::Host::Use
                             : host != nullptr                           ? Buffer::Host::Copy
                                                                         : Buffer::Host::None;
    auto buffer = Buffer::create(*context, size, host, use, access_of(flags));
    if (!buffer.ok())
      return Outcome(std::move(buffer).error()).remap(UR_RESULT_ERROR_INVALID_SIZE, UR_RESULT_ERROR_INVALID_BUFFER_SIZE);
    *out = to_ur<ur_mem_handle_t>(buffer.value());
    return {};
  });
}

ur_result_t buffer_partition(ur_mem_handle_t handle, ur_mem_flags_t flags, ur_buffer_create_type_t type,
                             const ur_buffer_region_t *region, ur_mem_handle_t *out) {
  return run([&]() -> Outcome {
    Buffer *parent = nullptr;
    if (Outcome o = check_handle(handle, parent); !o.ok()) return o;
    if (region == nullptr || out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urMemBufferPartition: pRegion or phMem is null");
    if ((flags & UR_MEM_FLAGS_MASK) != 0 || abi_value(type) != UR_BUFFER_CREATE_TYPE_REGION)
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("urMemBufferPartition: flags {:#x} or create type {} is not UR's", flags,
                              abi_value(type)));
    auto view = Buffer::view(*parent, region->origin, region->size, access_of(flags));
    if (!view.ok())
      return Outcome(std::move(view).error())
          .remap(UR_RESULT_ERROR_INVALID_SIZE, UR_RESULT_ERROR_INVALID_BUFFER_SIZE)
          .remap(UR_RESULT_ERROR_INVALID_NULL_HANDLE, UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    *out = to_ur<ur_mem_handle_t>(view.value());
    return {};
  });
}

// A UR memory object: a buffer or an image, exactly one of them.
struct Mem {
  Buffer *buffer = nullptr;
  Image *image = nullptr;
  Object &object() const { return buffer != nullptr ? static_cast<Object &>(*buffer) : *image; }
  Context &context() const { return buffer != nullptr ? buffer->context() : image->context(); }
  size_t size() const { return buffer != nullptr ? buffer->size() : image->size(); }
};

// A live image, else check_handle's answer for a buffer (whose sentence and code serve both kinds).
Outcome check_mem(ur_mem_handle_t handle, Mem &out) {
  if (handle != nullptr)
    if (auto image = from_ur<Image>(handle, "image"); image.ok()) {
      out.image = image.value();
      return {};
    }
  return check_handle(handle, out.buffer);
}

using R = Result<InfoValue>;
const UrInfoRow<Mem, ur_mem_info_t> kMemInfo[] = {
    {UR_MEM_INFO_SIZE, "SIZE", [](const Mem &m) -> R { return info_of(m.size()); }},
    {UR_MEM_INFO_CONTEXT, "CONTEXT", [](const Mem &m) -> R { return info_of(to_ur<ur_context_handle_t>(&m.context())); }},
    {UR_MEM_INFO_REFERENCE_COUNT, "REFERENCE_COUNT",
     [](const Mem &m) -> R { return info_of<uint32_t>(m.object().ref_count()); }},
};

ur_result_t mem_get_info(ur_mem_handle_t handle, ur_mem_info_t key, size_t size, void *value, size_t *size_ret) {
  return run([&]() -> Outcome {
    Mem mem;
    if (Outcome o = check_mem(handle, mem); !o.ok()) return o;
    return answer_ur_info<Mem, ur_mem_info_t>(kMemInfo, mem, key, UR_MEM_INFO_REFERENCE_COUNT, size, value, size_ret,
                                              mem.image != nullptr ? "image" : "buffer");
  });
}

template <bool kRetain>
ur_result_t mem_retain_or_release(ur_mem_handle_t handle) {
  return run([&]() -> Outcome {
    Mem mem;
    if (Outcome o = check_mem(handle, mem); !o.ok()) return o;
    if (kRetain) mem.object().retain();
    else mem.object().release();
    return {};
  });
}

// The native handle of a buffer is its USM address, as for Intel's Level Zero adapter; an image's is its Level
// Zero image.
ur_result_t mem_native_handle(ur_mem_handle_t handle, ur_device_handle_t, ur_native_handle_t *out) {
  return run([&]() -> Outcome {
    Mem mem;
    if (Outcome o = check_mem(handle, mem); !o.ok()) return o;
    if (out == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urMemGetNativeHandle: phNativeMem is null");
    *out = mem.buffer != nullptr ? reinterpret_cast<ur_native_handle_t>(mem.buffer->data())
                                 : reinterpret_cast<ur_native_handle_t>(mem.image->ze());
    return {};
  });
}

// A native handle is a USM pointer of the context's Level Zero context (what urMemGetNativeHandle gives): a
// buffer from it to the end of its allocation. Not owned unless the properties say so.
ur_result_t buffer_from_native(ur_native_handle_t native, ur_context_handle_t hContext,
                               const ur_mem_native_properties_t *properties, ur_mem_handle_t *out) {
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(hContext, context); !o.ok()) return o;
    if (out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urMemBufferCreateWithNativeHandle: phMem is null");
    const bool owned = properties != nullptr && properties->isNativeHandleOwned;
    auto buffer = Buffer::adopt(*context, reinterpret_cast<void *>(native), owned);
    if (!buffer.ok()) return std::move(buffer).error();
    *out = to_ur<ur_mem_handle_t>(buffer.value());
    return {};
  });
}

// A command on a buffer: the queue and buffer handles checked, then enqueue_command with the buffer.
template <class Command>
Outcome on_buffer(ur_queue_handle_t queue_handle, ur_mem_handle_t buffer_handle, uint32_t num_wait,
                  const ur_event_handle_t *wait, ur_event_handle_t *event, bool blocking, Command &&command) {
  Queue *queue = nullptr;
  Buffer *buffer = nullptr;
  if (Outcome o = check_handle(queue_handle, queue); !o.ok()) return o;
  if (Outcome o = check_handle(buffer_handle, buffer); !o.ok()) return o;
  return enqueue_command(*queue, num_wait, wait, event, blocking,
                         [&](Queue &q, std::span<Event *const> w) { return command(q, *buffer, w); });
}

// The same for a command a graph captures: `body(sink, buffer, deps)` through the queue or the graph's command
// buffer (enqueue_or_capture).
template <class Body>
Outcome on_buffer(ur_queue_handle_t queue_handle, ur_mem_handle_t buffer_handle, uint32_t num_wait,
                  const ur_event_handle_t *wait, ur_event_handle_t *event, bool blocking, Command kind, Body &&body) {
  Queue *queue = nullptr;
  Buffer *buffer = nullptr;
  if (Outcome o = check_handle(queue_handle, queue); !o.ok()) return o;
  if (Outcome o = check_handle(buffer_handle, buffer); !o.ok()) return o;
  return enqueue_or_capture(*queue, num_wait, wait, event, blocking, kind,
                            [&](auto &sink, const auto &deps) { return body(sink, *buffer, deps); });
}

ur_result_t buffer_read(ur_queue_handle_t queue, ur_mem_handle_t buffer, bool blocking, size_t offset, size_t size,
                        void *dst, uint32_t num_wait, const ur_event_handle_t *wait, ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    if (dst == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urEnqueueMemBufferRead: pDst is null");
    return on_buffer(queue, buffer, num_wait, wait, event, blocking, Command::Read,
                     [&](auto &q, Buffer &b, const auto &w) -> Made<decltype(q)> {
                       auto src = b.range(offset, size, "urEnqueueMemBufferRead");
                       if (!src.ok()) return std::move(src).error();
                       return q.copy(dst, src.value(), size, w, Command::Read);
                     });
  });
}

ur_result_t buffer_write(ur_queue_handle_t queue, ur_mem_handle_t buffer, bool blocking, size_t offset, size_t size,
                         const void *src, uint32_t num_wait, const ur_event_handle_t *wait, ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    if (src == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urEnqueueMemBufferWrite: pSrc is null");
    return on_buffer(queue, buffer, num_wait, wait, event, blocking, Command::Write,
                     [&](auto &q, Buffer &b, const auto &w) -> Made<decltype(q)> {
                       auto dst = b.range(offset, size, "urEnqueueMemBufferWrite");
                       if (!dst.ok()) return std::move(dst).error();
                       return q.copy(dst.value(), src, size, w, Command::Write);
                     });
  });
}

ur_result_t buffer_copy(ur_queue_handle_t queue, ur_mem_handle_t src_handle, ur_mem_handle_t dst_handle,
                        size_t src_offset, size_t dst_offset, size_t size, uint32_t num_wait,
                        const ur_event_handle_t *wait, ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    return on_buffer(queue, src_handle, num_wait, wait, event, false, Command::CopyBuffer,
                     [&](auto &q, Buffer &src, const auto &w) -> Made<decltype(q)> {
                       auto dst = from_ur<Buffer>(dst_handle, "destination buffer");
                       if (!dst.ok()) return std::move(dst).error();
                       auto from = src.range(src_offset, size, "urEnqueueMemBufferCopy source");
                       if (!from.ok()) return std::move(from).error();
                       auto to = dst.value()->range(dst_offset, size, "urEnqueueMemBufferCopy destination");
                       if (!to.ok()) return std::move(to).error();
                       return q.copy(to.value(), from.value(), size, w, Command::CopyBuffer);
                     });
  });
}

// urEnqueueMemBufferReadRect (to_host) and urEnqueueMemBufferWriteRect.
Outcome host_rect(const char *entry, bool to_host, ur_queue_handle_t queue, ur_mem_handle_t buffer, bool blocking,
                  ur_rect_offset_t buffer_origin, ur_rect_offset_t host_origin, ur_rect_region_t region,
                  size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch,
                  void *host, uint32_t num_wait, const ur_event_handle_t *wait, ur_event_handle_t *event) {
  RectSide in_b{}, in_h{};
  if (Outcome o = host_rect_sides(entry, to_host, host, region, {buffer_origin, buffer_row_pitch, buffer_slice_pitch},
                                  {host_origin, host_row_pitch, host_slice_pitch}, in_b, in_h);
      !o.ok())
    return o;
  return on_buffer(queue, buffer, num_wait, wait, event, blocking, to_host ? Command::ReadRect : Command::WriteRect,
                   [&](auto &q, Buffer &b, const auto &w) -> Made<decltype(q)> {
                     auto bytes = in_buffer(b, in_b, entry);
                     if (!bytes.ok()) return std::move(bytes).error();
                     return copy_host_rect(q, bytes.value(), in_host(host, in_h), to_host, region, w);
                   });
}

// urEnqueueMemBufferReadRect (kToHost) and urEnqueueMemBufferWriteRect: one signature, so one entry point.
template <bool kToHost>
ur_result_t buffer_rect(ur_queue_handle_t queue, ur_mem_handle_t buffer, bool blocking, ur_rect_offset_t buffer_origin,
                        ur_rect_offset_t host_origin, ur_rect_region_t region, size_t buffer_row_pitch,
                        size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch, void *host,
                        uint32_t num_wait, const ur_event_handle_t *wait, ur_event_handle_t *event) {
  return run([&] {
    return host_rect(kToHost ? "urEnqueueMemBufferReadRect" : "urEnqueueMemBufferWriteRect", kToHost, queue, buffer,
                     blocking, buffer_origin, host_origin, region, buffer_row_pitch, buffer_slice_pitch,
                     host_row_pitch, host_slice_pitch, host, num_wait, wait, event);
  });
}

ur_result_t buffer_copy_rect(ur_queue_handle_t queue, ur_mem_handle_t src_handle, ur_mem_handle_t dst_handle,
                             ur_rect_offset_t src_origin, ur_rect_offset_t dst_origin, ur_rect_region_t region,
                             size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
                             size_t dst_slice_pitch, uint32_t num_wait, const ur_event_handle_t *wait,
                             ur_event_handle_t *event) {
  constexpr const char *entry = "urEnqueueMemBufferCopyRect";
  return run([&]() -> Outcome {
    Buffer *dst = nullptr;
    if (Outcome o = check_handle(dst_handle, dst); !o.ok()) return o;
    CopyRectSides sides{};
    if (Outcome o = copy_rect_sides(entry, region, {src_origin, src_row_pitch, src_slice_pitch},
                                    {dst_origin, dst_row_pitch, dst_slice_pitch}, sides);
        !o.ok())
      return o;
    return on_buffer(queue, src_handle, num_wait, wait, event, false, Command::CopyBufferRect,
                     [&](auto &q, Buffer &src, const auto &w) -> Made<decltype(q)> {
                       auto bytes = in_buffers(src, *dst, sides, entry);
                       if (!bytes.ok()) return std::move(bytes).error();
                       return q.copy_rect(bytes.value().second, bytes.value().first, region.width, region.height,
                                          region.depth, w, Command::CopyBufferRect);
                     });
  });
}

ur_result_t buffer_fill(ur_queue_handle_t queue, ur_mem_handle_t buffer, const void *pattern, size_t pattern_size,
                        size_t offset, size_t size, uint32_t num_wait, const ur_event_handle_t *wait,
                        ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    if (pattern == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urEnqueueMemBufferFill: pPattern is null");
    if (pattern_size == 0 || !std::has_single_bit(pattern_size) || size % pattern_size != 0 ||
        offset % pattern_size != 0)
      return fail(UR_RESULT_ERROR_INVALID_SIZE,
                  fmt::format("urEnqueueMemBufferFill: pattern size {} must be a power of two dividing the size {} "
                              "and the offset {}",
                              pattern_size, size, offset));
    return on_buffer(queue, buffer, num_wait, wait, event, false, Command::FillBuffer,
                     [&](auto &q, Buffer &b, const auto &w) -> Made<decltype(q)> {
                       auto at = b.range(offset, size, "urEnqueueMemBufferFill");
                       if (!at.ok()) return std::move(at).error();
                       return q.fill_rect(at.value(), size, pattern, pattern_size, size, 1, w, Command::FillBuffer);
                     });
  });
}

ur_result_t buffer_map(ur_queue_handle_t queue, ur_mem_handle_t buffer, bool blocking, ur_map_flags_t flags,
                       size_t offset, size_t size, uint32_t num_wait, const ur_event_handle_t *wait,
                       ur_event_handle_t *event, void **mapped) {
  return run([&]() -> Outcome {
    if (mapped == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urEnqueueMemBufferMap: ppRetMap is null");
    if ((flags & UR_MAP_FLAGS_MASK) != 0)
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("urEnqueueMemBufferMap: map flags {:#x} have bits UR does not define", flags));
    // WRITE_INVALIDATE_REGION: the host overwrites the region, so its old bytes need not be shown.
    const bool read = (flags & (UR_MAP_FLAG_READ | UR_MAP_FLAG_WRITE)) != 0;
    const bool write = (flags & (UR_MAP_FLAG_WRITE | UR_MAP_FLAG_WRITE_INVALIDATE_REGION)) != 0;
    return on_buffer(queue, buffer, num_wait, wait, event, blocking,
                     [&](Queue &q, Buffer &b, std::span<Event *const> w) -> Result<Ref<Event>> {
                       auto m = b.map(q, offset, size, read, write, w);
                       if (!m.ok()) return std::move(m).error();
                       *mapped = m.value().first;
                       return std::move(m.value().second);
                     });
  });
}

ur_result_t mem_unmap(ur_queue_handle_t queue, ur_mem_handle_t buffer, void *mapped, uint32_t num_wait,
                      const ur_event_handle_t *wait, ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    if (mapped == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urEnqueueMemUnmap: pMappedPtr is null");
    return on_buffer(queue, buffer, num_wait, wait, event, false,
                     [&](Queue &q, Buffer &b, std::span<Event *const> w) { return b.unmap(q, mapped, w); });
  });
}

} // namespace

Outcome mem_obj_arg(ur_mem_handle_t handle, uint32_t index, zeal_kernel_arg_t &out, const char *entry) {
  // A null memory object is a null pointer, as for clSetKernelArg.
  out = zeal_kernel_arg_t{index, ZEAL_KERNEL_ARG_USM_POINTER, sizeof(void *), nullptr};
  if (handle == nullptr) return {};
  Mem mem;
  if (Outcome o = check_mem(handle, mem); !o.ok()) {
    Failure f = std::move(o).error();
    return fail(UR_RESULT_ERROR_INVALID_MEM_OBJECT, fmt::format("{}: argument {}: {}", entry, index, f.message));
  }
  if (mem.image != nullptr) out = zeal_kernel_arg_t{index, ZEAL_KERNEL_ARG_IMAGE, sizeof(void *), to_handle<Image, void *>(mem.image)};
  else out.value = mem.buffer->data();
  return {};
}

Outcome rect_side(const char *entry, const char *name, ur_rect_offset_t origin, ur_rect_region_t region,
                  size_t row_pitch, size_t slice_pitch, RectSide &out) {
  if (region.width == 0 || region.height == 0 || region.depth == 0)
    return fail(UR_RESULT_ERROR_INVALID_SIZE, fmt::format("{}: the region is {}x{}x{} bytes, and none may be 0", entry,
                                                          region.width, region.height, region.depth));
  if (row_pitch != 0 && row_pitch < region.width)
    return fail(UR_RESULT_ERROR_INVALID_SIZE, fmt::format("{}: the {} row pitch {} is less than the region's width {}",
                                                          entry, name, row_pitch, region.width));
  const size_t row = row_pitch != 0 ? row_pitch : region.width;
  size_t rows = 0;
  if (__builtin_mul_overflow(region.height, row, &rows))
    return fail(UR_RESULT_ERROR_INVALID_SIZE,
                fmt::format("{}: {} rows of pitch {} overflow the address space", entry, region.height, row));
  if (slice_pitch != 0 && (slice_pitch < rows || slice_pitch % row != 0))
    return fail(UR_RESULT_ERROR_INVALID_SIZE,
                fmt::format("{}: the {} slice pitch {} is not a multiple of its row pitch {} of at least {} rows",
                            entry, name, slice_pitch, row, region.height));
  const size_t slice = slice_pitch != 0 ? slice_pitch : rows;
  size_t z = 0, y = 0, offset = 0, slices = 0, extent = 0;
  if (__builtin_mul_overflow(origin.z, slice, &z) || __builtin_mul_overflow(origin.y, row, &y) ||
      __builtin_add_overflow(z, y, &offset) || __builtin_add_overflow(offset, origin.x, &offset) ||
      __builtin_mul_overflow(region.depth - 1, slice, &slices) ||
      __builtin_add_overflow(slices, rows - row + region.width, &extent))
    return fail(UR_RESULT_ERROR_INVALID_SIZE,
                fmt::format("{}: the {} region at ({}, {}, {}) with pitches {} and {} overflows the address space",
                            entry, name, origin.x, origin.y, origin.z, row, slice));
  out = {offset, row, slice, extent};
  return {};
}

Result<Pitched> in_buffer(Buffer &buffer, const RectSide &side, const char *what) {
  auto first = buffer.range(side.offset, side.extent, what);
  if (!first.ok()) return std::move(first).error();
  return Pitched{first.value(), side.row_pitch, side.slice_pitch};
}

Pitched in_host(void *host, const RectSide &side) {
  return {static_cast<uint8_t *>(host) + side.offset, side.row_pitch, side.slice_pitch};
}

Outcome host_rect_sides(const char *entry, bool to_host, const void *host, ur_rect_region_t region,
                        const RectPlace &buffer, const RectPlace &host_place, RectSide &in_buffer, RectSide &in_host) {
  if (host == nullptr)
    return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: {} is null", entry, to_host ? "pDst" : "pSrc"));
  if (Outcome o = rect_side(entry, "buffer", buffer.origin, region, buffer.row_pitch, buffer.slice_pitch, in_buffer);
      !o.ok())
    return o;
  return rect_side(entry, "host", host_place.origin, region, host_place.row_pitch, host_place.slice_pitch, in_host);
}

Outcome copy_rect_sides(const char *entry, ur_rect_region_t region, const RectPlace &src, const RectPlace &dst,
                        CopyRectSides &out) {
  if (Outcome o = rect_side(entry, "source", src.origin, region, src.row_pitch, src.slice_pitch, out.from); !o.ok())
    return o;
  return rect_side(entry, "destination", dst.origin, region, dst.row_pitch, dst.slice_pitch, out.to);
}

Result<std::pair<Pitched, Pitched>> in_buffers(Buffer &src, Buffer &dst, const CopyRectSides &sides, const char *entry) {
  auto s = in_buffer(src, sides.from, fmt::format("{} source", entry).c_str());
  if (!s.ok()) return std::move(s).error();
  auto d = in_buffer(dst, sides.to, fmt::format("{} destination", entry).c_str());
  if (!d.ok()) return std::move(d).error();
  return std::pair{s.value(), d.value()};
}

void implement(ur_mem_dditable_t &t) {
  t.pfnBufferCreate = buffer_create;
  t.pfnBufferPartition = buffer_partition;
  t.pfnRetain = mem_retain_or_release<true>;
  t.pfnRelease = mem_retain_or_release<false>;
  t.pfnGetInfo = mem_get_info;
  t.pfnGetNativeHandle = mem_native_handle;
  implement_images(t);
  t.pfnBufferCreateWithNativeHandle = buffer_from_native;
}

void implement_buffer_commands(ur_enqueue_dditable_t &t) {
  t.pfnMemBufferRead = buffer_read;
  t.pfnMemBufferWrite = buffer_write;
  t.pfnMemBufferCopy = buffer_copy;
  t.pfnMemBufferReadRect = buffer_rect<true>;
  t.pfnMemBufferWriteRect = buffer_rect<false>;
  t.pfnMemBufferCopyRect = buffer_copy_rect;
  t.pfnMemBufferFill = buffer_fill;
  t.pfnMemBufferMap = buffer_map;
  t.pfnMemUnmap = mem_unmap;
}

} // namespace zeal::adapter::ur
