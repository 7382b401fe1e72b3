// UR entry points of command buffers (urCommandBuffer*, urEnqueueCommandBufferExp): UR's handles, sync points and
// codes over the CommandBuffer object; each command's own checks are the queue command's.
#include "adapter/core/command_buffer.hpp"
#include "adapter/ur/commands.hpp"
#include "adapter/ur/program_set.hpp"

#include <algorithm>
#include <bit>

namespace zeal::adapter::ur {

Result<RecordedLaunch> record_launch(UrKernel &ur_kernel, Device &device, uint32_t work_dim, const size_t *offset,
                                     const size_t *global, const size_t *local,
                                     std::span<const zeal_kernel_arg_t> args, const char *entry) {
  Kernel *kernel = nullptr;
  if (Outcome o = ur_kernel.of(device, entry, kernel); !o.ok())
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, std::move(o).error().message);
  zeal_launch_desc_t desc{};
  desc.work_dim = work_dim;
  desc.num_args = static_cast<uint32_t>(args.size());
  desc.args = args.data();
  auto stored = kernel->capture_args(desc);
  if (!stored.ok()) return std::move(stored).error();
  RecordedLaunch launch;
  launch.kernel = Ref<Kernel>(kernel);
  launch.work_dim = work_dim;
  for (uint32_t d = 0; d < work_dim; ++d) {
    launch.offset[d] = offset != nullptr ? offset[d] : 0;
    launch.global[d] = global[d];
    launch.local[d] = local != nullptr ? local[d] : 0;
  }
  launch.args = std::move(stored).value();
  launch.alternatives.push_back(Ref<Object>(&ur_kernel));
  return launch;
}

namespace {

using SyncPoint = ur_exp_command_buffer_sync_point_t;
static_assert(std::is_same_v<SyncPoint, CommandBuffer::SyncPoint>);

ur_result_t create(ur_context_handle_t context_handle, ur_device_handle_t device_handle,
                   const ur_exp_command_buffer_desc_t *desc, ur_exp_command_buffer_handle_t *out) {
  return run([&]() -> Outcome {
    Context *context = nullptr;
    Device *device = nullptr;
    if (Outcome o = check_handles(context_handle, context, device_handle, device); !o.ok()) return o;
    if (desc == nullptr || out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urCommandBufferCreateExp: pCommandBufferDesc or phCommandBuffer is null");
    if (!context->has_device(device))
      return fail(UR_RESULT_ERROR_INVALID_DEVICE,
                  fmt::format("urCommandBufferCreateExp: device '{}' is not in the context", device->name()));
    auto buffer = CommandBuffer::create(*context, *device,
                                        {desc->isUpdatable != 0, desc->isInOrder != 0, desc->enableProfiling != 0});
    if (!buffer.ok()) return std::move(buffer).error();
    *out = to_ur<ur_exp_command_buffer_handle_t>(buffer.value());
    return {};
  });
}

ur_result_t finalize(ur_exp_command_buffer_handle_t handle) {
  return run([&]() -> Outcome {
    CommandBuffer *buffer = nullptr;
    if (Outcome o = check_handle(handle, buffer); !o.ok()) return o;
    if (buffer->finalized())
      return fail(UR_RESULT_ERROR_INVALID_OPERATION, "urCommandBufferFinalizeExp: the command buffer is finalized already");
    return buffer->finalize();
  });
}

// What every append takes after its own parameters.
struct Tail {
  uint32_t num_sync;
  const SyncPoint *sync;
  uint32_t num_events;
  const ur_event_handle_t *events;
  SyncPoint *out_sync;
  ur_event_handle_t *out_event;
  ur_exp_command_buffer_command_handle_t *out_command;
};

// An append: the buffer's handle and UR's rules for the tail checked, then `record(buffer, deps)`, which returns
// the command; its sync point, event and handle go where asked.
template <class Record>
Outcome append(const char *entry, ur_exp_command_buffer_handle_t handle, const Tail &t, Record &&record) {
  CommandBuffer *buffer = nullptr;
  if (Outcome o = check_handle(handle, buffer); !o.ok()) return o;
  if ((t.sync == nullptr) != (t.num_sync == 0))
    return fail(UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_SYNC_POINT_WAIT_LIST_EXP,
                fmt::format("{}: {} sync points with a {} list", entry, t.num_sync, t.sync == nullptr ? "null" : "given"));
  WaitList events;
  if (Outcome o = wait_list(t.num_events, t.events, events); !o.ok()) return o;
  if (t.out_command != nullptr && !buffer->options().updatable)
    return fail(UR_RESULT_ERROR_INVALID_OPERATION,
                fmt::format("{}: a command handle is asked of a command buffer that is not updatable", entry));
  if (buffer->finalized())
    return fail(UR_RESULT_ERROR_INVALID_OPERATION,
                fmt::format("{}: the command buffer is finalized, and takes no more commands", entry));
  const std::span<const SyncPoint> points(t.sync, t.num_sync);
  const size_t count = buffer->command_count();
  for (SyncPoint p : points)
    if (p >= count)
      return fail(UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_SYNC_POINT_EXP,
                  fmt::format("{}: sync point {} is not one of the buffer's {} commands'", entry, p, count));
  const CommandBuffer::Deps deps{points, events.events(), t.out_event != nullptr};
  Result<BufferCommand *> made = record(*buffer, deps);
  if (!made.ok()) return std::move(made).error();
  if (t.out_sync != nullptr) *t.out_sync = made.value()->sync_point();
  if (t.out_event != nullptr) return_event(Ref<Event>(made.value()->signal()), t.out_event);
  if (t.out_command != nullptr) *t.out_command = to_ur<ur_exp_command_buffer_command_handle_t>(made.value());
  return {};
}

// A launch with the kernel's arguments overridden by `args`; the alternatives are the kernels an update may switch
// the command to.
Outcome append_launch(const char *entry, ur_exp_command_buffer_handle_t handle, ur_kernel_handle_t kernel_handle,
                      uint32_t work_dim, const size_t *offset, const size_t *global, const size_t *local,
                      std::span<const zeal_kernel_arg_t> args, uint32_t num_alternatives,
                      const ur_kernel_handle_t *alternatives, const Tail &tail) {
  UrKernel *ur_kernel = nullptr;
  if (Outcome o = check_handle(kernel_handle, ur_kernel); !o.ok()) return o;
  if (global == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: pGlobalWorkSize is null", entry));
  if (work_dim < 1 || work_dim > 3)
    return fail(UR_RESULT_ERROR_INVALID_WORK_DIMENSION, fmt::format("{}: workDim is {}, not 1, 2 or 3", entry, work_dim));
  if ((alternatives == nullptr) != (num_alternatives == 0))
    return fail(UR_RESULT_ERROR_INVALID_VALUE,
                fmt::format("{}: {} kernel alternatives with a {} list", entry, num_alternatives,
                            alternatives == nullptr ? "null" : "given"));
  for (uint32_t i = 0; i < num_alternatives; ++i) {
    if (alternatives[i] == kernel_handle)
      return fail(UR_RESULT_ERROR_INVALID_VALUE,
                  fmt::format("{}: the kernel is among its own alternatives (it is one implicitly)", entry));
    UrKernel *alternative = nullptr;
    if (Outcome o = check_handle(alternatives[i], alternative); !o.ok()) return o;
  }
  for (uint32_t d = 0; local != nullptr && d < work_dim; ++d)
    if (local[d] == 0)
      return fail(UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE, fmt::format("{}: the local size of dimension {} is 0", entry, d));
  return append(entry, handle, tail, [&](CommandBuffer &buffer, const CommandBuffer::Deps &deps) -> Result<BufferCommand *> {
    auto launch = record_launch(*ur_kernel, buffer.device(), work_dim, offset, global, local, args, entry);
    if (!launch.ok()) return std::move(launch).error();
    for (uint32_t i = 0; i < num_alternatives; ++i)
      launch.value().alternatives.insert(launch.value().alternatives.end() - 1,
                                         Ref<Object>(from_ur<UrKernel>(alternatives[i], "kernel alternative").value()));
    return buffer.launch(std::move(launch).value(), deps);
  });
}

ur_result_t append_kernel_launch(ur_exp_command_buffer_handle_t handle, ur_kernel_handle_t kernel, uint32_t work_dim,
                                 const size_t *offset, const size_t *global, const size_t *local,
                                 uint32_t num_alternatives, ur_kernel_handle_t *alternatives, uint32_t num_sync,
                                 const SyncPoint *sync, uint32_t num_events, const ur_event_handle_t *events,
                                 SyncPoint *out_sync, ur_event_handle_t *out_event,
                                 ur_exp_command_buffer_command_handle_t *out_command) {
  return run([&]() -> Outcome {
    return append_launch("urCommandBufferAppendKernelLaunchExp", handle, kernel, work_dim, offset, global, local, {},
                         num_alternatives, alternatives,
                         {num_sync, sync, num_events, events, out_sync, out_event, out_command});
  });
}

ur_result_t append_kernel_launch_with_args(ur_exp_command_buffer_handle_t handle, ur_kernel_handle_t kernel,
                                           uint32_t work_dim, const size_t *offset, const size_t *global,
                                           const size_t *local, uint32_t num_args,
                                           const ur_exp_kernel_arg_properties_t *args, uint32_t num_alternatives,
                                           ur_kernel_handle_t *alternatives, uint32_t num_sync, const SyncPoint *sync,
                                           uint32_t num_events, const ur_event_handle_t *events, SyncPoint *out_sync,
                                           ur_event_handle_t *out_event,
                                           ur_exp_command_buffer_command_handle_t *out_command) {
  constexpr const char *entry = "urCommandBufferAppendKernelLaunchWithArgsExp";
  return run([&]() -> Outcome {
    if (args == nullptr && num_args > 0)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: pArgs is null with numArgs {}", entry, num_args));
    std::vector<zeal_kernel_arg_t> converted(num_args);
    for (uint32_t i = 0; i < num_args; ++i)
      if (Outcome o = convert_arg(args[i], converted[i], entry); !o.ok()) return o;
    return append_launch(entry, handle, kernel, work_dim, offset, global, local, converted, num_alternatives,
                         alternatives, {num_sync, sync, num_events, events, out_sync, out_event, out_command});
  });
}

ur_result_t append_usm_memcpy(ur_exp_command_buffer_handle_t handle, void *dst, const void *src, size_t size,
                              uint32_t num_sync, const SyncPoint *sync, uint32_t num_events,
                              const ur_event_handle_t *events, SyncPoint *out_sync, ur_event_handle_t *out_event,
                              ur_exp_command_buffer_command_handle_t *out_command) {
  constexpr const char *entry = "urCommandBufferAppendUSMMemcpyExp";
  return run([&]() -> Outcome {
    if (dst == nullptr || src == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: pDst or pSrc is null", entry));
    if (size == 0) return fail(UR_RESULT_ERROR_INVALID_SIZE, fmt::format("{}: size is 0", entry));
    return append(entry, handle, {num_sync, sync, num_events, events, out_sync, out_event, out_command},
                  [&](CommandBuffer &b, const CommandBuffer::Deps &deps) { return b.copy(dst, src, size, deps); });
  });
}

ur_result_t append_usm_fill(ur_exp_command_buffer_handle_t handle, void *ptr, const void *pattern, size_t pattern_size,
                            size_t size, uint32_t num_sync, const SyncPoint *sync, uint32_t num_events,
                            const ur_event_handle_t *events, SyncPoint *out_sync, ur_event_handle_t *out_event,
                            ur_exp_command_buffer_command_handle_t *out_command) {
  constexpr const char *entry = "urCommandBufferAppendUSMFillExp";
  return run([&]() -> Outcome {
    if (ptr == nullptr || pattern == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: pMemory or pPattern is null", entry));
    if (size == 0 || pattern_size == 0 || size % pattern_size != 0)
      return fail(UR_RESULT_ERROR_INVALID_SIZE,
                  fmt::format("{}: pattern size {} must divide size {} (neither 0)", entry, pattern_size, size));
    return append(entry, handle, {num_sync, sync, num_events, events, out_sync, out_event, out_command},
                  [&](CommandBuffer &b, const CommandBuffer::Deps &deps) {
                    return b.fill_rect(ptr, size, pattern, pattern_size, size, 1, deps);
                  });
  });
}

// A buffer's bytes from `offset`, `size` of them.
Result<void *> buffer_range(ur_mem_handle_t handle, size_t offset, size_t size, const char *what) {
  auto buffer = from_ur<Buffer>(handle, what);
  if (!buffer.ok()) return std::move(buffer).error();
  auto bytes = buffer.value()->range(offset, size, what);
  if (!bytes.ok()) return std::move(bytes).error();
  return static_cast<void *>(bytes.value());
}

// Memory objects that are not live zeal buffers are UR's INVALID_MEM_OBJECT.
Outcome check_buffers(std::initializer_list<ur_mem_handle_t> handles) {
  for (ur_mem_handle_t h : handles) {
    Buffer *b = nullptr;
    if (Outcome o = check_handle(h, b); !o.ok()) return o;
  }
  return {};
}

// urCommandBufferAppendMemBufferWriteExp (to_buffer) and ReadExp.
Outcome append_host_copy(const char *entry, bool to_buffer, ur_exp_command_buffer_handle_t handle,
                         ur_mem_handle_t buffer, size_t offset, size_t size, void *host, const Tail &tail) {
  if (Outcome o = check_buffers({buffer}); !o.ok()) return o;
  if (host == nullptr)
    return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: {} is null", entry, to_buffer ? "pSrc" : "pDst"));
  if (size == 0) return fail(UR_RESULT_ERROR_INVALID_SIZE, fmt::format("{}: size is 0", entry));
  return append(entry, handle, tail, [&](CommandBuffer &b, const CommandBuffer::Deps &deps) -> Result<BufferCommand *> {
    auto bytes = buffer_range(buffer, offset, size, entry);
    if (!bytes.ok()) return std::move(bytes).error();
    return to_buffer ? b.copy(bytes.value(), host, size, deps, Command::Write)
                     : b.copy(host, bytes.value(), size, deps, Command::Read);
  });
}

ur_result_t append_buffer_write(ur_exp_command_buffer_handle_t handle, ur_mem_handle_t buffer, size_t offset,
                                size_t size, const void *src, uint32_t num_sync, const SyncPoint *sync,
                                uint32_t num_events, const ur_event_handle_t *events, SyncPoint *out_sync,
                                ur_event_handle_t *out_event, ur_exp_command_buffer_command_handle_t *out_command) {
  return run([&] {
    return append_host_copy("urCommandBufferAppendMemBufferWriteExp", true, handle, buffer, offset, size,
                            const_cast<void *>(src),
                            {num_sync, sync, num_events, events, out_sync, out_event, out_command});
  });
}

ur_result_t append_buffer_read(ur_exp_command_buffer_handle_t handle, ur_mem_handle_t buffer, size_t offset,
                               size_t size, void *dst, uint32_t num_sync, const SyncPoint *sync, uint32_t num_events,
                               const ur_event_handle_t *events, SyncPoint *out_sync, ur_event_handle_t *out_event,
                               ur_exp_command_buffer_command_handle_t *out_command) {
  return run([&] {
    return append_host_copy("urCommandBufferAppendMemBufferReadExp", false, handle, buffer, offset, size, dst,
                            {num_sync, sync, num_events, events, out_sync, out_event, out_command});
  });
}

ur_result_t append_buffer_copy(ur_exp_command_buffer_handle_t handle, ur_mem_handle_t src, ur_mem_handle_t dst,
                               size_t src_offset, size_t dst_offset, size_t size, uint32_t num_sync,
                               const SyncPoint *sync, uint32_t num_events, const ur_event_handle_t *events,
                               SyncPoint *out_sync, ur_event_handle_t *out_event,
                               ur_exp_command_buffer_command_handle_t *out_command) {
  constexpr const char *entry = "urCommandBufferAppendMemBufferCopyExp";
  return run([&]() -> Outcome {
    if (Outcome o = check_buffers({src, dst}); !o.ok()) return o;
    if (size == 0) return fail(UR_RESULT_ERROR_INVALID_SIZE, fmt::format("{}: size is 0", entry));
    return append(entry, handle, {num_sync, sync, num_events, events, out_sync, out_event, out_command},
                  [&](CommandBuffer &b, const CommandBuffer::Deps &deps) -> Result<BufferCommand *> {
                    auto from = buffer_range(src, src_offset, size, "urCommandBufferAppendMemBufferCopyExp source");
                    if (!from.ok()) return std::move(from).error();
                    auto to = buffer_range(dst, dst_offset, size, "urCommandBufferAppendMemBufferCopyExp destination");
                    if (!to.ok()) return std::move(to).error();
                    return b.copy(to.value(), from.value(), size, deps, Command::CopyBuffer);
                  });
  });
}

// urCommandBufferAppendMemBufferReadRectExp (to_host) and WriteRectExp: one signature, so one entry point.
template <bool kToHost>
ur_result_t append_buffer_rect(ur_exp_command_buffer_handle_t handle, ur_mem_handle_t buffer,
                               ur_rect_offset_t buffer_origin, ur_rect_offset_t host_origin, ur_rect_region_t region,
                               size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                               size_t host_slice_pitch, void *host, uint32_t num_sync, const SyncPoint *sync,
                               uint32_t num_events, const ur_event_handle_t *events, SyncPoint *out_sync,
                               ur_event_handle_t *out_event, ur_exp_command_buffer_command_handle_t *out_command) {
  constexpr const char *entry =
      kToHost ? "urCommandBufferAppendMemBufferReadRectExp" : "urCommandBufferAppendMemBufferWriteRectExp";
  return run([&]() -> Outcome {
    if (Outcome o = check_buffers({buffer}); !o.ok()) return o;
    RectSide in_b{}, in_h{};
    if (Outcome o = host_rect_sides(entry, kToHost, host, region, {buffer_origin, buffer_row_pitch, buffer_slice_pitch},
                                    {host_origin, host_row_pitch, host_slice_pitch}, in_b, in_h);
        !o.ok())
      return o;
    return append(entry, handle, {num_sync, sync, num_events, events, out_sync, out_event, out_command},
                  [&](CommandBuffer &b, const CommandBuffer::Deps &deps) -> Result<BufferCommand *> {
                    auto bytes = in_buffer(*from_ur<Buffer>(buffer, "buffer").value(), in_b, entry);
                    if (!bytes.ok()) return std::move(bytes).error();
                    return copy_host_rect(b, bytes.value(), in_host(host, in_h), kToHost, region, deps);
                  });
  });
}

ur_result_t append_buffer_copy_rect(ur_exp_command_buffer_handle_t handle, ur_mem_handle_t src, ur_mem_handle_t dst,
                                    ur_rect_offset_t src_origin, ur_rect_offset_t dst_origin, ur_rect_region_t region,
                                    size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
                                    size_t dst_slice_pitch, uint32_t num_sync, const SyncPoint *sync,
                                    uint32_t num_events, const ur_event_handle_t *events, SyncPoint *out_sync,
                                    ur_event_handle_t *out_event, ur_exp_command_buffer_command_handle_t *out_command) {
  constexpr const char *entry = "urCommandBufferAppendMemBufferCopyRectExp";
  return run([&]() -> Outcome {
    if (Outcome o = check_buffers({src, dst}); !o.ok()) return o;
    CopyRectSides sides{};
    if (Outcome o = copy_rect_sides(entry, region, {src_origin, src_row_pitch, src_slice_pitch},
                                    {dst_origin, dst_row_pitch, dst_slice_pitch}, sides);
        !o.ok())
      return o;
    return append(entry, handle, {num_sync, sync, num_events, events, out_sync, out_event, out_command},
                  [&](CommandBuffer &b, const CommandBuffer::Deps &deps) -> Result<BufferCommand *> {
                    auto bytes = in_buffers(*from_ur<Buffer>(src, "source").value(),
                                            *from_ur<Buffer>(dst, "destination").value(), sides, entry);
                    if (!bytes.ok()) return std::move(bytes).error();
                    return b.copy_rect(bytes.value().second, bytes.value().first, region.width, region.height,
                                       region.depth, deps, Command::CopyBufferRect);
                  });
  });
}

ur_result_t append_buffer_fill(ur_exp_command_buffer_handle_t handle, ur_mem_handle_t buffer, const void *pattern,
                               size_t pattern_size, size_t offset, size_t size, uint32_t num_sync,
                               const SyncPoint *sync, uint32_t num_events, const ur_event_handle_t *events,
                               SyncPoint *out_sync, ur_event_handle_t *out_event,
                               ur_exp_command_buffer_command_handle_t *out_command) {
  constexpr const char *entry = "urCommandBufferAppendMemBufferFillExp";
  return run([&]() -> Outcome {
    if (Outcome o = check_buffers({buffer}); !o.ok()) return o;
    if (pattern == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: pPattern is null", entry));
    if (pattern_size == 0 || !std::has_single_bit(pattern_size) || size == 0 || size % pattern_size != 0 ||
        offset % pattern_size != 0)
      return fail(UR_RESULT_ERROR_INVALID_SIZE,
                  fmt::format("{}: pattern size {} must be a power of two dividing the size {} and the offset {}",
                              entry, pattern_size, size, offset));
    return append(entry, handle, {num_sync, sync, num_events, events, out_sync, out_event, out_command},
                  [&](CommandBuffer &b, const CommandBuffer::Deps &deps) -> Result<BufferCommand *> {
                    auto at = buffer_range(buffer, offset, size, entry);
                    if (!at.ok()) return std::move(at).error();
                    return b.fill_rect(at.value(), size, pattern, pattern_size, size, 1, deps, Command::FillBuffer);
                  });
  });
}

// Prefetch and advice are hints (the CPU's shared memory is the host's): each is only an order in the buffer.
// `undefined_bits` are the bits of the hint's flags (named `flags_name`) that UR does not define.
template <Command hint, uint32_t undefined_bits, EntryName entry, EntryName flags_name>
ur_result_t append_hint(ur_exp_command_buffer_handle_t handle, const void *ptr, size_t size, uint32_t flags,
                        uint32_t num_sync, const SyncPoint *sync, uint32_t num_events, const ur_event_handle_t *events,
                        SyncPoint *out_sync, ur_event_handle_t *out_event,
                        ur_exp_command_buffer_command_handle_t *out_command) {
  return run([&]() -> Outcome {
    if (ptr == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: pMemory is null", entry.text));
    if ((flags & undefined_bits) != 0)
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("{}: {} {:#x} has bits UR does not define", entry.text, flags_name.text, flags));
    if (size == 0) return fail(UR_RESULT_ERROR_INVALID_SIZE, fmt::format("{}: size is 0", entry.text));
    return append(entry.text, handle, {num_sync, sync, num_events, events, out_sync, out_event, out_command},
                  [&](CommandBuffer &b, const CommandBuffer::Deps &deps) { return b.marker(deps, hint); });
  });
}

ur_result_t enqueue(ur_queue_handle_t queue_handle, ur_exp_command_buffer_handle_t handle, uint32_t num_wait,
                    const ur_event_handle_t *wait, ur_event_handle_t *event) {
  return run([&]() -> Outcome {
    Queue *queue = nullptr;
    CommandBuffer *buffer = nullptr;
    if (Outcome o = check_handles(queue_handle, queue, handle, buffer); !o.ok()) return o;
    if (!buffer->finalized())
      return fail(UR_RESULT_ERROR_INVALID_OPERATION, "urEnqueueCommandBufferExp: the command buffer is not finalized");
    return enqueue_command(*queue, num_wait, wait, event, false,
                           [&](Queue &q, std::span<Event *const> w) { return buffer->enqueue(q, w); });
  });
}

// One update's arguments as zeal's: memory objects and USM pointers as pointers, a value without bytes as local
// memory of its size (as urKernelSetArgLocal sets it).
Outcome update_args(const ur_exp_command_buffer_update_kernel_launch_desc_t &u, std::vector<zeal_kernel_arg_t> &out) {
  constexpr const char *entry = "urCommandBufferUpdateKernelLaunchExp";
  if ((u.pNewMemObjArgList == nullptr && u.numNewMemObjArgs > 0) ||
      (u.pNewPointerArgList == nullptr && u.numNewPointerArgs > 0) ||
      (u.pNewValueArgList == nullptr && u.numNewValueArgs > 0))
    return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: an argument list is null with a count", entry));
  for (uint32_t i = 0; i < u.numNewMemObjArgs; ++i) {
    const auto &a = u.pNewMemObjArgList[i];
    if (Outcome o = mem_obj_arg(a.hNewMemObjArg, a.argIndex, out.emplace_back(), entry); !o.ok()) return o;
  }
  for (uint32_t i = 0; i < u.numNewPointerArgs; ++i) {
    const auto &a = u.pNewPointerArgList[i];
    const void *pointer = nullptr;
    if (a.pNewPointerArg != nullptr) std::memcpy(&pointer, a.pNewPointerArg, sizeof pointer);
    out.push_back({a.argIndex, ZEAL_KERNEL_ARG_USM_POINTER, sizeof(void *), pointer});
  }
  for (uint32_t i = 0; i < u.numNewValueArgs; ++i) {
    const auto &a = u.pNewValueArgList[i];
    out.push_back({a.argIndex, a.pNewValueArg != nullptr ? ZEAL_KERNEL_ARG_VALUE : ZEAL_KERNEL_ARG_LOCAL, a.argSize,
                   a.pNewValueArg});
  }
  return {};
}

Outcome update_one(CommandBuffer &buffer, const ur_exp_command_buffer_update_kernel_launch_desc_t &u) {
  constexpr const char *entry = "urCommandBufferUpdateKernelLaunchExp";
  BufferCommand *command = nullptr;
  if (Outcome o = check_handle(u.hCommand, command); !o.ok()) return o;
  if (&command->owner() != &buffer || command->launch() == nullptr)
    return fail(UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_COMMAND_HANDLE_EXP,
                fmt::format("{}: the command is not a kernel launch of this command buffer", entry));
  const RecordedLaunch &current = *command->launch();
  if (u.newWorkDim < 1 || u.newWorkDim > 3)
    return fail(UR_RESULT_ERROR_INVALID_WORK_DIMENSION, fmt::format("{}: newWorkDim is {}, not 1, 2 or 3", entry, u.newWorkDim));
  if (u.newWorkDim != current.work_dim && (u.pNewGlobalWorkSize == nullptr || u.pNewGlobalWorkOffset == nullptr))
    return fail(UR_RESULT_ERROR_INVALID_VALUE,
                fmt::format("{}: the launch changes from {} to {} dimensions, so it must give both a global size and "
                            "a global offset",
                            entry, current.work_dim, u.newWorkDim));
  Kernel *new_kernel = nullptr;
  if (u.hNewKernel != nullptr) {
    UrKernel *ur_kernel = nullptr;
    if (Outcome o = check_handle(u.hNewKernel, ur_kernel); !o.ok()) return o;
    const bool registered = std::any_of(current.alternatives.begin(), current.alternatives.end(),
                                        [&](const Ref<Object> &k) { return k.get() == ur_kernel; });
    if (!registered)
      return fail(UR_RESULT_ERROR_INVALID_VALUE,
                  fmt::format("{}: the new kernel is not one of the command's kernel alternatives", entry));
    if (Outcome o = ur_kernel->of(buffer.device(), entry, new_kernel); !o.ok()) return o;
  }
  std::vector<zeal_kernel_arg_t> args;
  if (Outcome o = update_args(u, args); !o.ok()) return o;
  return buffer.update(*command, [&](RecordedLaunch &launch) -> Status {
    zeal_launch_desc_t desc{};
    desc.num_args = static_cast<uint32_t>(args.size());
    desc.args = args.data();
    if (new_kernel != nullptr && new_kernel != launch.kernel.get()) {
      // Another kernel: where the update gives no argument, the one it had when the launch last used it, else
      // the one set on it. The kernel switched from keeps its arguments for a switch back.
      auto &earlier = launch.earlier_args;
      auto had = std::find_if(earlier.begin(), earlier.end(), [&](const auto &e) { return e.first.get() == new_kernel; });
      auto stored = had != earlier.end() ? new_kernel->capture_args(desc, had->second) : new_kernel->capture_args(desc);
      if (!stored.ok()) return std::move(stored).error();
      if (had != earlier.end()) earlier.erase(had);
      earlier.emplace_back(launch.kernel, std::move(launch.args));
      launch.kernel = Ref<Kernel>(new_kernel);
      launch.args = std::move(stored).value();
    } else if (!args.empty()) {
      auto stored = launch.kernel->capture_args(desc, launch.args);
      if (!stored.ok()) return std::move(stored).error();
      launch.args = std::move(stored).value();
    }
    const uint32_t dims = u.newWorkDim;
    if (dims != launch.work_dim) {
      launch.offset = {0, 0, 0};
      launch.global = {1, 1, 1};
      launch.local = {0, 0, 0};
      launch.work_dim = dims;
    }
    if (u.pNewGlobalWorkOffset != nullptr) std::copy_n(u.pNewGlobalWorkOffset, dims, launch.offset.begin());
    if (u.pNewGlobalWorkSize != nullptr) {
      std::copy_n(u.pNewGlobalWorkSize, dims, launch.global.begin());
      if (u.pNewLocalWorkSize == nullptr) launch.local = {0, 0, 0}; // the adapter chooses again
    }
    if (u.pNewLocalWorkSize != nullptr) {
      launch.local = {1, 1, 1};
      std::copy_n(u.pNewLocalWorkSize, dims, launch.local.begin());
    }
    return {};
  });
}

ur_result_t update_kernel_launch(ur_exp_command_buffer_handle_t handle, uint32_t count,
                                 const ur_exp_command_buffer_update_kernel_launch_desc_t *updates) {
  return run([&]() -> Outcome {
    CommandBuffer *buffer = nullptr;
    if (Outcome o = check_handle(handle, buffer); !o.ok()) return o;
    if (updates == nullptr && count > 0)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urCommandBufferUpdateKernelLaunchExp: pUpdateKernelLaunch is null");
    if (!buffer->options().updatable || !buffer->finalized())
      return fail(UR_RESULT_ERROR_INVALID_OPERATION,
                  fmt::format("urCommandBufferUpdateKernelLaunchExp: the command buffer is {}",
                              buffer->options().updatable ? "not finalized" : "not updatable"));
    for (uint32_t i = 0; i < count; ++i)
      if (Outcome o = update_one(*buffer, updates[i]); !o.ok()) return o;
    return {};
  });
}

// The command behind a handle for an event update: a live command of an updatable, finalized buffer.
Outcome event_update_command(ur_exp_command_buffer_command_handle_t handle, const char *entry, BufferCommand *&out) {
  if (Outcome o = check_handle(handle, out); !o.ok()) return o;
  const CommandBuffer &buffer = out->owner();
  if (!buffer.options().updatable || !buffer.finalized())
    return fail(UR_RESULT_ERROR_INVALID_OPERATION,
                fmt::format("{}: the command's buffer is {}", entry,
                            buffer.options().updatable ? "not finalized" : "not updatable"));
  return {};
}

ur_result_t update_signal_event(ur_exp_command_buffer_command_handle_t handle, ur_event_handle_t *out) {
  constexpr const char *entry = "urCommandBufferUpdateSignalEventExp";
  return run([&]() -> Outcome {
    BufferCommand *command = nullptr;
    if (Outcome o = event_update_command(handle, entry, command); !o.ok()) return o;
    if (out == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: phSignalEvent is null", entry));
    if (command->signal() == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_OPERATION,
                  fmt::format("{}: the command was appended without phEvent, so it signals no event", entry));
    auto event = command->owner().renew_signal(*command);
    if (!event.ok()) return std::move(event).error();
    return_event(std::move(event).value(), out);
    return {};
  });
}

ur_result_t update_wait_events(ur_exp_command_buffer_command_handle_t handle, uint32_t count,
                               const ur_event_handle_t *events) {
  constexpr const char *entry = "urCommandBufferUpdateWaitEventsExp";
  return run([&]() -> Outcome {
    BufferCommand *command = nullptr;
    if (Outcome o = event_update_command(handle, entry, command); !o.ok()) return o;
    WaitList waits;
    if (Outcome o = wait_list(count, events, waits); !o.ok()) return o;
    if (count != command->wait_count())
      return fail(UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST,
                  fmt::format("{}: {} events given, but the command was appended waiting for {}", entry, count,
                              command->wait_count()));
    return command->owner().replace_waits(*command, waits.events());
  });
}

using R = Result<InfoValue>;
const UrInfoRow<CommandBuffer, ur_exp_command_buffer_info_t> kInfo[] = {
    {UR_EXP_COMMAND_BUFFER_INFO_REFERENCE_COUNT, "REFERENCE_COUNT",
     [](const CommandBuffer &b) -> R { return info_of<uint32_t>(b.ref_count()); }},
    {UR_EXP_COMMAND_BUFFER_INFO_DESCRIPTOR, "DESCRIPTOR",
     [](const CommandBuffer &b) -> R {
       return info_of(ur_exp_command_buffer_desc_t{UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC, nullptr,
                                                   b.options().updatable, b.options().in_order,
                                                   b.options().profiling});
     }},
};

ur_result_t get_info(ur_exp_command_buffer_handle_t handle, ur_exp_command_buffer_info_t key, size_t size, void *value,
                     size_t *size_ret) {
  return ur::get_info<CommandBuffer>(handle, kInfo, UR_EXP_COMMAND_BUFFER_INFO_DESCRIPTOR, key, size, value, size_ret);
}

} // namespace

void implement(ur_command_buffer_exp_dditable_t &t) {
  t.pfnCreateExp = create;
  t.pfnRetainExp = retain<CommandBuffer>;
  t.pfnReleaseExp = release<CommandBuffer>;
  t.pfnFinalizeExp = finalize;
  t.pfnAppendKernelLaunchExp = append_kernel_launch;
  t.pfnAppendKernelLaunchWithArgsExp = append_kernel_launch_with_args;
  t.pfnAppendUSMMemcpyExp = append_usm_memcpy;
  t.pfnAppendUSMFillExp = append_usm_fill;
  t.pfnAppendMemBufferCopyExp = append_buffer_copy;
  t.pfnAppendMemBufferWriteExp = append_buffer_write;
  t.pfnAppendMemBufferReadExp = append_buffer_read;
  t.pfnAppendMemBufferCopyRectExp = append_buffer_copy_rect;
  t.pfnAppendMemBufferWriteRectExp = append_buffer_rect<false>;
  t.pfnAppendMemBufferReadRectExp = append_buffer_rect<true>;
  t.pfnAppendMemBufferFillExp = append_buffer_fill;
  t.pfnAppendUSMPrefetchExp =
      append_hint<Command::Prefetch, UR_USM_MIGRATION_FLAGS_MASK, "urCommandBufferAppendUSMPrefetchExp", "flags">;
  t.pfnAppendUSMAdviseExp =
      append_hint<Command::Advise, UR_USM_ADVICE_FLAGS_MASK, "urCommandBufferAppendUSMAdviseExp", "advice">;
  t.pfnUpdateKernelLaunchExp = update_kernel_launch;
  t.pfnUpdateSignalEventExp = update_signal_event;
  t.pfnUpdateWaitEventsExp = update_wait_events;
  t.pfnGetInfoExp = get_info;
  t.pfnGetNativeHandleExp = native_entry<CommandBuffer, "urCommandBufferGetNativeHandleExp">;
}

void implement_command_buffers(ur_enqueue_exp_dditable_t &t) { t.pfnCommandBufferExp = enqueue; }

} // namespace zeal::adapter::ur
