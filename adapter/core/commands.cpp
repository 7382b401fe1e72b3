// The checks and appends of memory commands (commands.hpp).
#include "adapter/core/commands.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <utility>

namespace zeal::adapter {

// A USM allocation of the context must hold all `size` bytes from `ptr`; other memory (plain host
// memory a copy reads or writes) the adapter cannot see the end of.
Status check_usm_extent(const Context &context, const void *ptr, size_t size, const char *what) {
  auto allocation = context.usm_allocation(ptr);
  if (!allocation) return {};
  const size_t offset = static_cast<size_t>(static_cast<const uint8_t *>(ptr) -
                                            static_cast<const uint8_t *>(allocation->base));
  if (size <= allocation->size - offset) return {};
  return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                    fmt::format("{}: {} bytes from {} run past the end of its USM allocation ({} bytes at {})", what,
                                size, ptr, allocation->size, allocation->base));
}

Status check_copy(const Context &context, const void *dst, const void *src, size_t size) {
  if (dst == nullptr || src == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("memory copy of {} bytes: the {} pointer is null", size,
                                  dst == nullptr ? "destination" : "source"));
  if (Status s = check_usm_extent(context, dst, size, "memory copy destination"); !s.ok()) return s;
  return check_usm_extent(context, src, size, "memory copy source");
}

Status check_copy_rect(const Context &context, const Pitched &dst, const Pitched &src, size_t width, size_t height,
                       size_t depth) {
  if (dst.first == nullptr || src.first == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("rectangular copy: the {} pointer is null", dst.first == nullptr ? "destination" : "source"));
  if (width == 0 || height == 0 || depth == 0)
    return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                      fmt::format("rectangular copy: the region is {}x{}x{} bytes, and none may be 0", width, height,
                                  depth));
  for (const auto &[side, name] : {std::pair{&dst, "destination"}, std::pair{&src, "source"}}) {
    if (side->row_pitch < width)
      return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                        fmt::format("rectangular copy: the {} row pitch {} is less than the region's width {}", name,
                                    side->row_pitch, width));
    size_t rows = 0;
    if (depth > 1 && (__builtin_mul_overflow(height, side->row_pitch, &rows) || side->slice_pitch < rows))
      return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                        fmt::format("rectangular copy: the {} slice pitch {} does not hold {} rows of pitch {}", name,
                                    side->slice_pitch, height, side->row_pitch));
    // zeCommandListAppendMemoryCopyRegion takes 32-bit sizes and pitches.
    const size_t slice_pitch = depth > 1 ? side->slice_pitch : 0;
    if (width > UINT32_MAX || height > UINT32_MAX || depth > UINT32_MAX || side->row_pitch > UINT32_MAX ||
        slice_pitch > UINT32_MAX)
      return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                        fmt::format("rectangular copy: the {} region ({}x{}x{} bytes, pitches {} and {}) has a "
                                    "size or pitch of 4 GiB or more, which Level Zero's region copy cannot take",
                                    name, width, height, depth, side->row_pitch, slice_pitch));
    // Bytes from the first byte to just past the last: fits, since each factor is under 2^32.
    const size_t extent = (depth - 1) * slice_pitch + (height - 1) * side->row_pitch + width;
    if (Status s = check_usm_extent(context, side->first, extent, fmt::format("rectangular copy {}", name).c_str());
        !s.ok())
      return s;
  }
  return {};
}

ze_result_t append_copy_rect(ze_command_list_handle_t list, const Pitched &dst, const Pitched &src, size_t width,
                             size_t height, size_t depth, ze_event_handle_t signal, uint32_t num_wait,
                             ze_event_handle_t *wait) {
  const ze_copy_region_t region{0, 0, 0, static_cast<uint32_t>(width), static_cast<uint32_t>(height),
                                static_cast<uint32_t>(depth)};
  // One slice: its slice pitch is never read.
  return zeCommandListAppendMemoryCopyRegion(
      list, dst.first, &region, static_cast<uint32_t>(dst.row_pitch),
      static_cast<uint32_t>(depth > 1 ? dst.slice_pitch : 0), src.first, &region, static_cast<uint32_t>(src.row_pitch),
      static_cast<uint32_t>(depth > 1 ? src.slice_pitch : 0), signal, num_wait, wait);
}

Status check_fill(const Context &context, const void *ptr, const void *pattern, size_t pattern_size, FillRows &rows,
                  const char *what) {
  size_t run = 0;
  if (rows.pitch == rows.width && rows.height > 1 && !__builtin_mul_overflow(rows.width, rows.height, &run))
    rows = FillRows{run, run, 1};
  size_t extent = rows.width;
  if (rows.height > 1 && (rows.width == 0 || rows.pitch < rows.width ||
                          __builtin_mul_overflow(rows.height - 1, rows.pitch, &extent) ||
                          __builtin_add_overflow(extent, rows.width, &extent)))
    return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                      fmt::format("{}: {} rows of {} bytes, {} apart, are not rows of memory (none may be 0, a row may "
                                  "not be wider than the pitch, nor the rows overflow the address space)",
                                  what, rows.height, rows.width, rows.pitch));
  if (ptr == nullptr || pattern == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("{} of {} bytes: the {} is null", what, extent,
                                  ptr == nullptr ? "destination pointer" : "pattern"));
  if (pattern_size == 0 || rows.width % pattern_size != 0)
    return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                      fmt::format("{}: pattern size {} must divide size {}", what, pattern_size, rows.width));
  return check_usm_extent(context, ptr, extent, what);
}

namespace {
// Level Zero fills with a power-of-two pattern of at most the command queue group's maxMemoryFillPatternSize; 128
// bytes is the smallest limit drivers report.
constexpr size_t kMaxDriverPattern = 128;
bool driver_fills(size_t pattern_size) { return std::has_single_bit(pattern_size) && pattern_size <= kMaxDriverPattern; }

// Appends the commands filling `run` bytes from `dst` from `source`, each waiting for what the command waits for
// and signalling nothing: one driver fill, or copies of the staged patterns, which write apart and need no order
// among themselves.
ze_result_t append_fill_run(ze_command_list_handle_t list, uint8_t *dst, size_t run, const std::vector<uint8_t> &source,
                            size_t pattern_size, uint32_t n, ze_event_handle_t *w) {
  if (driver_fills(pattern_size))
    return zeCommandListAppendMemoryFill(list, dst, source.data(), pattern_size, run, nullptr, n, w);
  for (size_t at = 0; at < run; at += source.size())
    if (ze_result_t r = zeCommandListAppendMemoryCopy(list, dst + at, source.data(), std::min(source.size(), run - at),
                                                      nullptr, n, w);
        r != ZE_RESULT_SUCCESS)
      return r;
  return ZE_RESULT_SUCCESS;
}
} // namespace

std::vector<uint8_t> fill_source(const void *pattern, size_t pattern_size, size_t run) {
  const auto *bytes = static_cast<const uint8_t *>(pattern);
  if (driver_fills(pattern_size)) return std::vector<uint8_t>(bytes, bytes + pattern_size);
  constexpr size_t kStage = 64 * 1024;
  const size_t count = std::max<size_t>(1, std::min(run, kStage) / pattern_size);
  std::vector<uint8_t> staged(count * pattern_size);
  for (size_t at = 0; at < staged.size(); at += pattern_size) std::memcpy(staged.data() + at, bytes, pattern_size);
  return staged;
}

const char *fill_call(size_t pattern_size) {
  return driver_fills(pattern_size) ? "zeCommandListAppendMemoryFill" : "zeCommandListAppendMemoryCopy";
}

ze_result_t append_fill(ze_command_list_handle_t list, void *dst, size_t width, size_t pitch, size_t height,
                        const std::vector<uint8_t> &source, size_t pattern_size, ze_event_handle_t signal,
                        uint32_t num_wait, ze_event_handle_t *wait) {
  // One run the driver fills signals the event itself.
  if (height == 1 && driver_fills(pattern_size))
    return zeCommandListAppendMemoryFill(list, dst, source.data(), pattern_size, width, signal, num_wait, wait);
  // Otherwise each run's commands wait for what the command waits for, and a barrier after them signals the event
  // once every earlier command of the list, the runs among them, is done.
  auto *rows = static_cast<uint8_t *>(dst);
  for (size_t row = 0; row < height; ++row)
    if (ze_result_t r = append_fill_run(list, rows + row * pitch, width, source, pattern_size, num_wait, wait);
        r != ZE_RESULT_SUCCESS)
      return r;
  return zeCommandListAppendBarrier(list, signal, 0, nullptr);
}

} // namespace zeal::adapter
