// The memory commands' rules and their Level Zero appends, one home for both places that record commands: a
// queue's immediate command list and a command buffer's regular one.
#pragma once

#include "adapter/core/context.hpp"

#include <cstdint>
#include <vector>

namespace zeal::adapter {

// One side of a rectangular copy: the address of the region's first byte and the distances, in bytes, from a
// row to the next and from a slice to the next.
struct Pitched {
  void *first;
  size_t row_pitch;
  size_t slice_pitch;
};

// INVALID_SIZE, its sentence beginning with `what`, when `ptr` is in a USM allocation of `context` that does not
// hold `size` bytes from it (other memory the adapter cannot see the end of passes).
Status check_usm_extent(const Context &context, const void *ptr, size_t size, const char *what);

// A copy of `size` bytes: neither pointer null, each side inside its USM allocation.
Status check_copy(const Context &context, const void *dst, const void *src, size_t size);

// A rectangular copy of `depth` slices of `height` rows of `width` bytes (each at least 1). Pitches must hold
// their rows and slices, fit Level Zero's 32-bit fields, and each side must lie in its USM allocation when it
// is one; overlapping regions are the driver's to refuse.
Status check_copy_rect(const Context &context, const Pitched &dst, const Pitched &src, size_t width, size_t height,
                       size_t depth);
ze_result_t append_copy_rect(ze_command_list_handle_t list, const Pitched &dst, const Pitched &src, size_t width,
                             size_t height, size_t depth, ze_event_handle_t signal, uint32_t num_wait,
                             ze_event_handle_t *wait);

// The rows of a fill: `height` runs of `width` bytes, `pitch` apart (height 1: one run).
struct FillRows {
  size_t width;
  size_t pitch;
  size_t height;
};
// A fill of `rows` from `ptr`, each row from the pattern's start. Rows that touch become one run (`rows` is
// rewritten so); the rows must be rows of memory (none empty, none wider than the pitch, none past the address
// space), the pointers given, the pattern dividing a row, and every byte from the first row's to the last's in
// its USM allocation. `what` begins each sentence.
Status check_fill(const Context &context, const void *ptr, const void *pattern, size_t pattern_size, FillRows &rows,
                  const char *what);
// What a fill's commands read, kept until they have run: the pattern itself when the driver fills with it;
// otherwise whole patterns staged in host memory, about 64 KiB of them (all of `run` if shorter), which copies
// lay down one after another.
std::vector<uint8_t> fill_source(const void *pattern, size_t pattern_size, size_t run);
// The Level Zero call a fill of this pattern size makes, for messages.
const char *fill_call(size_t pattern_size);
// `height` runs of `width` bytes, `pitch` apart from `dst`, filled from `source` (fill_source), signalling
// `signal`: one driver fill when it is one run the driver can fill, else a driver fill or staged copies per run
// and a barrier after them.
ze_result_t append_fill(ze_command_list_handle_t list, void *dst, size_t width, size_t pitch, size_t height,
                        const std::vector<uint8_t> &source, size_t pattern_size, ze_event_handle_t signal,
                        uint32_t num_wait, ze_event_handle_t *wait);

} // namespace zeal::adapter
