// What UR's enqueue entry points and the command-buffer appends share: the placement of a rectangular command's
// sides and UR's kernel arguments in zeal's terms.
// (Defined beside their first users, memory.cpp, launch.cpp and command_buffer.cpp.)
#pragma once

#include "adapter/core/buffer.hpp"
#include "adapter/core/command_buffer.hpp"
#include "adapter/core/commands.hpp"
#include "adapter/ur/entry.hpp"

namespace zeal::adapter::ur {

class UrKernel;

// One side of a UR rectangular command: where its region starts, in bytes from the side's base, its pitches
// (UR's 0 meaning rows and slices packed tight) and the bytes from its first to just past its last.
struct RectSide {
  size_t offset;
  size_t row_pitch;
  size_t slice_pitch;
  size_t extent;
};

// UR's checks of one side's pitches (each failure INVALID_SIZE, its sentence naming `entry` and the side), then
// its placement.
Outcome rect_side(const char *entry, const char *name, ur_rect_offset_t origin, ur_rect_region_t region,
                  size_t row_pitch, size_t slice_pitch, RectSide &out);
// The bytes a side of a rectangular command reaches in a buffer, or INVALID_SIZE when they do not fit in it.
Result<Pitched> in_buffer(Buffer &buffer, const RectSide &side, const char *what);
// The same side in host memory.
Pitched in_host(void *host, const RectSide &side);

// Where a rectangle starts in one side of a command, and that side's pitches, as UR gives them.
struct RectPlace {
  ur_rect_offset_t origin;
  size_t row_pitch;
  size_t slice_pitch;
};
// A buffer's rectangle read to the host (to_host) or written from it: the host pointer, then the buffer's side and
// the host's checked and placed.
Outcome host_rect_sides(const char *entry, bool to_host, const void *host, ur_rect_region_t region,
                        const RectPlace &buffer, const RectPlace &host_place, RectSide &in_buffer, RectSide &in_host);
// The copy of a buffer's rectangle to the host (to_host) or from it, recorded by `to` (a queue, a command buffer).
template <class Recorder, class Deps>
auto copy_host_rect(Recorder &to, const Pitched &in_buffer, const Pitched &in_host, bool to_host,
                    ur_rect_region_t region, const Deps &deps) {
  if (to_host) return to.copy_rect(in_host, in_buffer, region.width, region.height, region.depth, deps, Command::ReadRect);
  return to.copy_rect(in_buffer, in_host, region.width, region.height, region.depth, deps, Command::WriteRect);
}

// A rectangle copied between buffers: the source's side and the destination's, checked and placed.
struct CopyRectSides {
  RectSide from;
  RectSide to;
};
Outcome copy_rect_sides(const char *entry, ur_rect_region_t region, const RectPlace &src, const RectPlace &dst,
                        CopyRectSides &out);
// Its bytes in the two buffers (source, destination), or INVALID_SIZE naming `entry` and the side that does not fit.
Result<std::pair<Pitched, Pitched>> in_buffers(Buffer &src, Buffer &dst, const CopyRectSides &sides, const char *entry);

// A MEM_OBJ argument as zeal's: a buffer's address (a null handle is a null pointer), or an image. A handle of
// neither is INVALID_MEM_OBJECT, its sentence naming `entry` and the index. (memory.cpp)
Outcome mem_obj_arg(ur_mem_handle_t mem, uint32_t index, zeal_kernel_arg_t &out, const char *entry);
// A SAMPLER argument as zeal's; a handle that is not a live sampler is INVALID_SAMPLER. (sampler.cpp)
Outcome sampler_arg(ur_sampler_handle_t sampler, uint32_t index, zeal_kernel_arg_t &out, const char *entry);

// One UR argument as zeal's: VALUE (a null value is size zero bytes), POINTER (the USM pointer itself), LOCAL,
// MEM_OBJ (mem_obj_arg), SAMPLER (sampler_arg). `entry` names the caller in sentences.
Outcome convert_arg(const ur_exp_kernel_arg_properties_t &in, zeal_kernel_arg_t &out, const char *entry);

// A launch of `ur_kernel` on `device` as a command buffer records it (its range, and its arguments with `args` over
// them), the kernel its own only alternative. (command_buffer.cpp; graphs capture launches with it too)
Result<RecordedLaunch> record_launch(UrKernel &ur_kernel, Device &device, uint32_t work_dim, const size_t *offset,
                                     const size_t *global, const size_t *local,
                                     std::span<const zeal_kernel_arg_t> args, const char *entry);

} // namespace zeal::adapter::ur
