// 2-D and 3-D region copies (zeCommandListAppendMemoryCopyRegion): checking a request, and running it.
#pragma once

#include "cpu_driver/runtime/command.hpp"

#include <level_zero/ze_api.h>

namespace zeal::cpu {

// One side of a request as the application gives it: the array, where the
// region lies in it, and the array's row and slice pitches in bytes.
struct RegionSide {
  const void *array;
  const ze_copy_region_t &region;
  uint32_t row_pitch;
  uint32_t slice_pitch;
};

// Turns a request (pointers and regions not null) into a command, or says why it is refused:
// - INVALID_SIZE when the two regions differ in width, height or depth (a depth
//   of 0, the 2-D copy, counts as 1), when a region's width exceeds its row
//   pitch, or, for more than one slice, when its rows exceed its slice pitch
//   (rows, and slices, of one side must not overlap one another);
// - OVERLAPPING_REGIONS when some byte lies in both regions (the spec forbids it).
// Each refusal is logged with the numbers that caused it.
ze_result_t plan_region_copy(const RegionSide &dst, const RegionSide &src, MemoryCopyRegion &out);

// Runs a planned copy: each row once, each contiguous slice at once.
void copy_region(const MemoryCopyRegion &copy);

} // namespace zeal::cpu
