// 2-D and 3-D region copies: the checks zeCommandListAppendMemoryCopyRegion makes, the overlap test, the copy.
#include "cpu_driver/runtime/copy_region.hpp"

#include "common/log.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace zeal::cpu {
namespace {

// A side's rows as addresses: row (z, y) is [first + z * slice + y * row, + width).
struct Rows {
  uint64_t first;
  uint64_t row;
  uint64_t slice;
};

// Bytes from a region's first byte to just past its last, or false when that
// does not fit in the address space after `first`.
bool extent(const Rows &r, uint64_t width, uint64_t height, uint64_t depth, uint64_t &out) {
  uint64_t rows = 0, slices = 0;
  return !__builtin_mul_overflow(height - 1, r.row, &rows) && !__builtin_mul_overflow(depth - 1, r.slice, &slices) &&
         !__builtin_add_overflow(rows, slices, &out) && !__builtin_add_overflow(out, width, &out) &&
         out <= UINT64_MAX - r.first;
}

// Whether [x, x + width) meets one of `height` rows starting at `start`, `pitch`
// apart (pitch >= width > 0: the rows are disjoint and ascending).
bool meets_a_row(uint64_t x, uint64_t width, uint64_t start, uint64_t pitch, uint64_t height) {
  // Only the first row that ends after x can: every later one starts later still.
  uint64_t y = x >= start + width ? (x - start - width) / pitch + 1 : 0;
  return y < height && start + y * pitch < x + width;
}

// Whether a byte lies in both regions. Slices of a side are disjoint and
// ascending too, so a sweep visits each pair of slices that meet once: the
// cost is of the order of the number of rows, like the copy's.
bool overlap(const Rows &a, const Rows &b, uint64_t width, uint64_t height, uint64_t depth) {
  const uint64_t span_a = (height - 1) * a.row + width, span_b = (height - 1) * b.row + width;
  uint64_t first_b = 0; // the first slice of b that ends after the current slice of a
  for (uint64_t z = 0; z < depth; ++z) {
    const uint64_t slice_a = a.first + z * a.slice;
    while (first_b < depth && b.first + first_b * b.slice + span_b <= slice_a) ++first_b;
    for (uint64_t k = first_b; k < depth && b.first + k * b.slice < slice_a + span_a; ++k) {
      const uint64_t slice_b = b.first + k * b.slice;
      for (uint64_t y = 0; y < height; ++y)
        if (meets_a_row(slice_a + y * a.row, width, slice_b, b.row, height)) return true;
    }
  }
  return false;
}

// The address of a side's first byte, or false when the origins take it past the end of the address space.
bool first_byte(const RegionSide &side, uint64_t &out) {
  const ze_copy_region_t &r = side.region;
  uint64_t z = 0, y = 0;
  out = reinterpret_cast<uintptr_t>(side.array);
  return !__builtin_mul_overflow(uint64_t{r.originZ}, uint64_t{side.slice_pitch}, &z) &&
         !__builtin_mul_overflow(uint64_t{r.originY}, uint64_t{side.row_pitch}, &y) &&
         !__builtin_add_overflow(out, z, &out) && !__builtin_add_overflow(out, y, &out) &&
         !__builtin_add_overflow(out, uint64_t{r.originX}, &out);
}

template <class... Args>
ze_result_t refuse(ze_result_t result, fmt::format_string<Args...> why, Args &&...args) {
  zeal::logger("zeal-cpu").warn("zeCommandListAppendMemoryCopyRegion: {}",
                                fmt::format(why, std::forward<Args>(args)...));
  return result;
}

} // namespace

ze_result_t plan_region_copy(const RegionSide &dst, const RegionSide &src, MemoryCopyRegion &out) {
  const ze_copy_region_t &d = dst.region, &s = src.region;
  const uint32_t depth = std::max(d.depth, 1u); // 0 is the 2-D copy: one slice
  if (d.width != s.width || d.height != s.height || depth != std::max(s.depth, 1u))
    return refuse(ZE_RESULT_ERROR_INVALID_SIZE, "the destination region is {}x{}x{} bytes, the source region {}x{}x{}",
                  d.width, d.height, d.depth, s.width, s.height, s.depth);
  for (const auto &[side, name] : {std::pair{&dst, "destination"}, std::pair{&src, "source"}}) {
    if (side->region.width > side->row_pitch)
      return refuse(ZE_RESULT_ERROR_INVALID_SIZE, "the {} region's width {} exceeds its row pitch {}", name,
                    side->region.width, side->row_pitch);
    if (depth > 1 && uint64_t{side->region.height} * side->row_pitch > side->slice_pitch)
      return refuse(ZE_RESULT_ERROR_INVALID_SIZE, "the {} region's {} rows of pitch {} exceed its slice pitch {}", name,
                    side->region.height, side->row_pitch, side->slice_pitch);
  }
  Rows rd{0, dst.row_pitch, dst.slice_pitch}, rs{0, src.row_pitch, src.slice_pitch};
  uint64_t extent_d = 0, extent_s = 0;
  if (!first_byte(dst, rd.first) || !first_byte(src, rs.first) ||
      (d.width > 0 && d.height > 0 &&
       (!extent(rd, d.width, d.height, depth, extent_d) || !extent(rs, d.width, d.height, depth, extent_s))))
    return refuse(ZE_RESULT_ERROR_INVALID_SIZE, "a region runs past the end of the address space");
  const bool empty = d.width == 0 || d.height == 0;
  if (!empty && rd.first < rs.first + extent_s && rs.first < rd.first + extent_d &&
      overlap(rd, rs, d.width, d.height, depth))
    return refuse(ZE_RESULT_ERROR_OVERLAPPING_REGIONS, "the regions overlap (first bytes at {:#x} and {:#x})", rd.first,
                  rs.first);
  out.dst = {reinterpret_cast<std::byte *>(rd.first), dst.row_pitch, dst.slice_pitch};
  out.src = {reinterpret_cast<std::byte *>(rs.first), src.row_pitch, src.slice_pitch};
  out.width = d.width;
  out.height = d.height;
  out.depth = depth;
  return ZE_RESULT_SUCCESS;
}

void copy_region(const MemoryCopyRegion &c) {
  const bool contiguous = c.width == c.dst.row_pitch && c.width == c.src.row_pitch;
  for (uint32_t z = 0; z < c.depth; ++z) {
    std::byte *dst = c.dst.first + z * c.dst.slice_pitch;
    const std::byte *src = c.src.first + z * c.src.slice_pitch;
    if (contiguous) {
      std::memcpy(dst, src, size_t{c.width} * c.height); // the slice is one block on both sides
      continue;
    }
    for (uint32_t y = 0; y < c.height; ++y) std::memcpy(dst + y * c.dst.row_pitch, src + y * c.src.row_pitch, c.width);
  }
}

} // namespace zeal::cpu
